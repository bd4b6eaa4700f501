//! Compound bodies: mass properties against exact values, concave outlines
//! cut into pieces that collide as one body, contacts that name the shapes,
//! and located errors for bad outlines.

use minkowski::dynamics::{Material, ShapeDef};
use minkowski::scene::Scene;
use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};

fn close(a: f32, b: f32, what: &str) {
    assert!(
        (a - b).abs() <= 1e-5 * b.abs().max(1e-6),
        "{what}: {a} vs exact {b}"
    );
}

fn part(shape: Shape, offset: Vec2, angle: f32, density: f32) -> ShapeDef {
    ShapeDef {
        material: Material {
            density,
            ..Material::default()
        },
        ..ShapeDef::new(shape).at(offset, angle)
    }
}

#[test]
fn mass_properties_are_exact() {
    let mut w = World::new(WorldSettings::default());
    // An L of two 2 × 1 boxes, density 3: m = 12, centroid (−0.25, 0.75),
    // I = 2·(2·3·(4 + 1)/12 + 6·0.625) = 12.5.
    let l = w
        .add_body(BodyDef::compound(
            vec![
                part(Shape::rect(1.0, 0.5), Vec2::ZERO, 0.0, 3.0),
                part(
                    Shape::rect(1.0, 0.5),
                    Vec2::new(-0.5, 1.5),
                    std::f32::consts::FRAC_PI_2,
                    3.0,
                ),
            ],
            Vec2::new(10.0, 20.0),
        ))
        .unwrap();
    let b = w.body(l).unwrap();
    close(b.mass(), 12.0, "L mass");
    close(b.center_of_mass().x, 9.75, "L centroid x");
    close(b.center_of_mass().y, 20.75, "L centroid y");
    close(b.inertia(), 12.5, "L inertia");
    // A dumbbell: two discs (r = 0.5, densities 1 and 2) 3 m apart on a
    // massless-thin bar of density 0.5 (3 × 0.2 m).
    let pi = std::f32::consts::PI;
    let d = w
        .add_body(BodyDef::compound(
            vec![
                part(Shape::circle(0.5), Vec2::new(-1.5, 0.0), 0.0, 1.0),
                part(Shape::circle(0.5), Vec2::new(1.5, 0.0), 0.0, 2.0),
                part(Shape::rect(1.5, 0.1), Vec2::ZERO, 0.0, 0.5),
            ],
            Vec2::ZERO,
        ))
        .unwrap();
    let (m1, m2, m3) = (0.25 * pi, 0.5 * pi, 0.5 * 3.0 * 0.2);
    let m = m1 + m2 + m3;
    let cx = (-1.5 * m1 + 1.5 * m2) / m;
    let inertia = m1 * 0.125
        + m1 * (-1.5 - cx).powi(2)
        + m2 * 0.125
        + m2 * (1.5 - cx).powi(2)
        + m3 * (9.0 + 0.04) / 12.0
        + m3 * cx * cx;
    let b = w.body(d).unwrap();
    close(b.mass(), m, "dumbbell mass");
    close(b.center_of_mass().x, cx, "dumbbell centroid");
    close(b.inertia(), inertia, "dumbbell inertia");
}

#[test]
fn a_concave_outline_weighs_what_its_pieces_weigh() {
    // The same L as one outline: the pieces' masses add up exactly.
    let l = [
        (-1.0, -0.5),
        (1.0, -0.5),
        (1.0, 0.5),
        (0.0, 0.5),
        (0.0, 2.5),
        (-1.0, 2.5),
    ];
    let scene = format!(
        "Scene(bodies: [(shape: Concave([{}]), pos: (10.0, 20.0), density: 3.0)])",
        l.iter()
            .map(|(x, y)| format!("({x:.1}, {y:.1})"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let w = Scene::from_ron_str(&scene, "inline")
        .unwrap()
        .build()
        .unwrap();
    let (_, b) = w.bodies().next().unwrap();
    assert!(b.colliders().len() >= 2, "{} pieces", b.colliders().len());
    close(b.mass(), 12.0, "mass");
    close(b.center_of_mass().x, 9.75, "centroid x");
    close(b.center_of_mass().y, 20.75, "centroid y");
    close(b.inertia(), 12.5, "inertia");
}

fn settle(w: &mut World, steps: usize) {
    for _ in 0..steps {
        w.step();
    }
}

#[test]
fn a_dumbbell_rests_on_both_discs_and_contacts_name_them() {
    let mut w = World::new(WorldSettings::default());
    w.add_body(BodyDef::new(Shape::rect(10.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static))
        .unwrap();
    let d = w
        .add_body(BodyDef::compound(
            vec![
                part(Shape::circle(0.5), Vec2::new(-1.5, 0.0), 0.0, 1.0),
                part(Shape::circle(0.5), Vec2::new(1.5, 0.0), 0.0, 1.0),
                part(Shape::rect(1.5, 0.1), Vec2::ZERO, 0.0, 1.0),
            ],
            Vec2::new(0.0, 2.0),
        ))
        .unwrap();
    settle(&mut w, 240);
    let b = w.body(d).unwrap();
    assert!((b.position().y - 0.5).abs() < 0.01, "{}", b.position());
    assert!(b.angle().abs() < 1e-3, "{}", b.angle());
    let mut shapes: Vec<u32> = w
        .contacts()
        .filter(|c| c.body_b == d || c.body_a == d)
        .map(|c| if c.body_b == d { c.shape_b } else { c.shape_a })
        .collect();
    shapes.sort_unstable();
    assert_eq!(
        shapes,
        vec![0, 1],
        "the discs touch the ground, not the bar"
    );
}

#[test]
fn a_concave_cup_holds_a_ball_in_its_notch() {
    // A static U (outer 4 × 3 m, walls 0.5 m thick) around a ball that drops in.
    let text = "Scene(bodies: [
        (shape: Concave([(-2.0, 0.0), (2.0, 0.0), (2.0, 3.0), (1.5, 3.0), (1.5, 0.5), (-1.5, 0.5), (-1.5, 3.0), (-2.0, 3.0)]), kind: Static, pos: (0.0, 0.0)),
        (shape: Circle(r: 0.4), pos: (0.3, 5.0), restitution: 0.2),
    ])";
    let mut w = Scene::from_ron_str(text, "inline")
        .unwrap()
        .build()
        .unwrap();
    let ids: Vec<_> = w.bodies().map(|(id, _)| id).collect();
    settle(&mut w, 300);
    let ball = w.body(ids[1]).unwrap();
    let p = ball.position();
    assert!((p.y - 0.9).abs() < 0.01, "rests on the cup's floor: {p}");
    assert!(p.x.abs() < 1.1, "inside the walls: {p}");
}

#[test]
fn a_self_intersecting_outline_names_the_crossing_edges() {
    let text = "Scene(bodies: [(shape: Concave([(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]), pos: (0.0, 0.0))])";
    let e = Scene::from_ron_str(text, "inline").unwrap_err().to_string();
    assert!(e.starts_with("inline: body 0, field `shape`:"), "{e}");
    assert!(e.contains("edge 0") && e.contains("edge 2"), "{e}");
}

/// A five-pointed star and an L, both concave, dropped on the ground: each
/// comes to rest on its pieces, its lowest point on the ground.
#[test]
fn a_concave_star_and_an_l_land_on_their_pieces() {
    let star: Vec<String> = (0..10)
        .map(|k| {
            let r = if k % 2 == 0 { 1.0 } else { 0.4 };
            let t = std::f32::consts::PI / 5.0 * k as f32 + std::f32::consts::FRAC_PI_2;
            format!("({:.6}, {:.6})", r * libm::cosf(t), r * libm::sinf(t))
        })
        .collect();
    let text = format!(
        "Scene(bodies: [
            (shape: Rect(hx: 10.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
            (shape: Concave([{}]), pos: (-3.0, 3.0), angle: 0.3),
            (shape: Concave([(0.0, 0.0), (2.0, 0.0), (2.0, 0.4), (0.4, 0.4), (0.4, 1.6), (0.0, 1.6)]), pos: (3.0, 2.0), angle: 0.2),
        ])",
        star.join(", ")
    );
    let mut w = Scene::from_ron_str(&text, "inline")
        .unwrap()
        .build()
        .unwrap();
    let ids: Vec<_> = w.bodies().map(|(id, _)| id).collect();
    settle(&mut w, 600);
    for &id in &ids[1..] {
        let b = w.body(id).unwrap();
        assert!(b.colliders().len() >= 2, "cut into pieces");
        assert!(!b.is_awake(), "at rest and asleep");
        let low = b.aabb().min.y;
        assert!(low.abs() < 0.01, "lowest point {low} on the ground");
        // No piece ended up inside the ground.
        for c in b.colliders() {
            assert!(c.shape().aabb(&c.pose(&b.transform())).min.y > -0.01);
        }
    }
}
