use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1);
    let mut world = World::new(WorldSettings::default());
    world
        .add_body(BodyDef::new(Shape::rect(20.0, 1.0), Vec2::new(0.0, -1.0)).kind(BodyKind::Static))
        .unwrap();
    let mut ids = vec![];
    for i in 0..n {
        ids.push(
            world
                .add_body(BodyDef::new(
                    Shape::rect(0.5, 0.5),
                    Vec2::new(0.0, 0.5 + i as f32),
                ))
                .unwrap(),
        );
    }
    for s in 0..200 {
        world.step();
        if s % 20 == 0 || s < 5 {
            let b = world.body(ids[n - 1]).unwrap();
            print!(
                "step {s}: top pos {:?} ang {:.4} v {:?}",
                b.position(),
                b.angle(),
                b.linear_velocity()
            );
            for c in world.contacts() {
                print!(
                    " | {}-{} n={:?} [{}]",
                    c.body_a,
                    c.body_b,
                    c.manifold.normal,
                    c.manifold
                        .points()
                        .iter()
                        .map(|p| format!(
                            "s={:.4} ni={:.3} id={:x}",
                            p.separation, p.normal_impulse, p.id
                        ))
                        .collect::<Vec<_>>()
                        .join(",")
                );
            }
            println!();
        }
    }
}
