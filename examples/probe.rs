use minkowski::scene::Scene;
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let steps: u64 = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(900);
    let scene = Scene::load(std::path::Path::new(&format!("scenes/{name}.ron"))).unwrap();
    let mut w = scene.build().unwrap();
    for k in 0..steps {
        w.step();
        if k % 60 == 59 {
            let mut worst = (0.0f32, 0u32);
            for (id, b) in w.bodies() {
                if !b.is_awake() {
                    continue;
                }
                let s = b.linear_velocity().length() + b.angular_velocity().abs() * 0.5;
                if s > worst.0 {
                    worst = (s, id.index);
                }
            }
            println!(
                "t={:.1}s awake {} worst speed {:.4} (body {}) joints {}",
                (k + 1) as f32 / 60.0,
                w.awake_count(),
                worst.0,
                worst.1,
                w.joint_count()
            );
        }
    }
}
