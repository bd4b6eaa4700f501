use minkowski::scene::Scene;
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let steps: u64 = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(900);
    let scene = Scene::load(std::path::Path::new(&format!("scenes/{name}.ron"))).unwrap();
    let mut w = scene.build().unwrap();
    let g = -w.settings().gravity.y;
    let energy = |w: &minkowski::World| -> f64 {
        w.bodies()
            .map(|(_, b)| {
                let v = b.linear_velocity();
                0.5 * b.mass() as f64 * (v.length_squared() as f64)
                    + 0.5 * b.inertia() as f64 * (b.angular_velocity() as f64).powi(2)
                    + b.mass() as f64 * g as f64 * b.center_of_mass().y as f64
            })
            .sum()
    };
    let e0 = energy(&w);
    for k in 0..steps {
        w.step();
        if k % 60 == 59 {
            println!(
                "t={:.0}s E-E0 = {:.4}",
                (k + 1) as f32 / 60.0,
                energy(&w) - e0
            );
        }
    }
}
