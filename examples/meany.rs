use minkowski::scene::Scene;
use minkowski::BodyKind;
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let scene = Scene::load(std::path::Path::new(&format!("scenes/{name}.ron"))).unwrap();
    let mut w = scene.build().unwrap();
    for k in 0..=500u32 {
        if k % 100 == 0 {
            let (mut sx, mut sy, mut n) = (0.0f64, 0.0f64, 0usize);
            for (_, b) in w.bodies().filter(|(_, b)| b.kind() == BodyKind::Dynamic) {
                sx += b.position().x as f64;
                sy += b.position().y as f64;
                n += 1;
            }
            println!(
                "step {k}: mean ({:.4}, {:.4}) awake {} contacts {}",
                sx / n as f64,
                sy / n as f64,
                w.awake_count(),
                w.contact_point_count()
            );
        }
        w.step();
    }
}
