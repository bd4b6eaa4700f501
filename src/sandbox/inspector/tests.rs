use super::*;
use minkowski::{BodyDef, BodyKind, WorldSettings};

#[test]
fn hull_of_square_with_interior_point() {
    let h = convex_hull(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(0.5, 0.5),
        Vec2::new(0.5, 0.0),
    ]);
    assert_eq!(h.len(), 4);
}

#[test]
fn overlapping_boxes_trace_gjk_then_epa() {
    let mut w = World::new(WorldSettings::default());
    let a = w
        .add_body(BodyDef::new(Shape::rect(1.0, 1.0), Vec2::ZERO).kind(BodyKind::Static))
        .unwrap();
    let b = w
        .add_body(BodyDef::new(Shape::rect(1.0, 1.0), Vec2::new(1.5, 0.3)).angle(0.3))
        .unwrap();
    let t = Inspector::new(a, b).trace(&w).unwrap();
    assert!(!t.gjk.is_empty() && !t.epa.is_empty());
    assert!(matches!(t.outcome, Outcome::Penetrating { .. }));
    // The traced difference of two boxes is an octagon at most.
    assert!(
        t.core_hull.len() >= 4 && t.core_hull.len() <= 8,
        "{}",
        t.core_hull.len()
    );
}

#[test]
fn separated_circles_have_no_epa() {
    let mut w = World::new(WorldSettings::default());
    let a = w
        .add_body(BodyDef::new(Shape::circle(0.5), Vec2::ZERO))
        .unwrap();
    let b = w
        .add_body(BodyDef::new(Shape::circle(0.5), Vec2::new(2.0, 0.0)))
        .unwrap();
    let t = Inspector::new(a, b).trace(&w).unwrap();
    assert!(t.epa.is_empty());
    match t.outcome {
        Outcome::Separated { distance, .. } => assert!((distance - 1.0).abs() < 1e-5),
        _ => panic!("expected separation"),
    }
}
