use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};
fn main() {
    let base: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(3);
    let steps: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(100);
    let sub: u32 = std::env::var("SUB")
        .map(|s| s.parse().unwrap())
        .unwrap_or(4);
    let it: u32 = std::env::var("IT").map(|s| s.parse().unwrap()).unwrap_or(1);
    let mut world = World::new(WorldSettings {
        sleep: false,
        substeps: sub,
        velocity_iterations: it,
        ..Default::default()
    });
    world
        .add_body(
            BodyDef::new(Shape::rect(100.0, 1.0), Vec2::new(0.0, -1.0)).kind(BodyKind::Static),
        )
        .unwrap();
    let mut boxes = vec![];
    for i in 0..base {
        for j in i..base {
            let p = Vec2::new(
                (i + 1) as f32 * 0.5 + (j - i) as f32 - base as f32 * 0.5,
                (2 * i + 1) as f32 * 0.5,
            );
            boxes.push((
                world
                    .add_body(BodyDef::new(Shape::rect(0.5, 0.5), p))
                    .unwrap(),
                p,
            ));
        }
    }
    let t = std::time::Instant::now();
    for s in 0..steps {
        world.step();
        if s % (steps / 10).max(1) == 0 || s + 1 == steps {
            let (mut worst, mut wid) = (0.0f32, 0);
            for (k, (id, p)) in boxes.iter().enumerate() {
                let d = world.body(*id).unwrap().position().distance(*p);
                if d > worst {
                    worst = d;
                    wid = k;
                }
            }
            let tm = world.timings();
            println!("step {s}: max disp {worst:.5} (box {wid}) | ms: aabb {:.2} bp {:.2} np {:.2} solve {:.2} total {:.2}", tm.update_aabbs, tm.broadphase, tm.narrowphase, tm.solver, tm.total);
        }
    }
    println!(
        "{:.1} ms/step",
        t.elapsed().as_secs_f64() * 1e3 / steps as f64
    );
}
