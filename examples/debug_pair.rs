use minkowski::collision::manifold::collide_uncached;
use minkowski::{epa, gjk, Iso, Shape, Vec2};
fn main() {
    let b = Shape::rect(0.5, 0.5);
    for (pa, pb) in [
        ((0.0, 0.5), (1.0, 0.5)),
        ((0.5, 0.5), (1.0, 1.5)),
        ((0.0, 0.5), (0.0, 1.5)),
        ((0.0, 0.5), (1.0, 1.5)),
        ((0.0, 0.5), (0.9999, 0.5)),
    ] {
        let xa = Iso::new(Vec2::new(pa.0, pa.1), 0.0);
        let xb = Iso::new(Vec2::new(pb.0, pb.1), 0.0);
        let q = gjk::query(&b, &xa, &b, &xb, None);
        println!(
            "{pa:?} {pb:?}: gjk dist {} simplex {} iters {} | pen {:?} | dist {:?}",
            q.distance,
            q.simplex.count,
            q.iterations,
            epa::penetration(&b, &xa, &b, &xb),
            gjk::distance(&b, &xa, &b, &xb)
        );
        let m = collide_uncached(&b, &xa, &b, &xb, 0.02);
        println!(
            "   manifold n={:?} pts={:?}",
            m.normal,
            m.points()
                .iter()
                .map(|p| (p.point, p.separation))
                .collect::<Vec<_>>()
        );
    }
}
