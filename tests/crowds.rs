//! Crowds crushed into themselves, in free flight, come apart by the
//! position pass alone: making no velocity, keeping their momentum and
//! their centre. `smash` makes such crowds: Box2D's 512 kg box at 40 m/s
//! drives its sleeping 0.4 m boxes up to 0.4 m into one another, as each
//! layer is still asleep (static to the solver) when the one before is
//! pushed into it.

use minkowski::{BodyDef, Shape, Vec2, World, WorldSettings};

fn world() -> World {
    world_with(WorldSettings::default().deep_penetration)
}

fn world_with(deep_penetration: f32) -> World {
    World::new(WorldSettings {
        gravity: Vec2::ZERO,
        deep_penetration,
        ..WorldSettings::default()
    })
}

fn deepest(w: &World) -> f32 {
    w.contacts()
        .flat_map(|c| c.manifold.points().to_vec())
        .map(|p| -p.separation)
        .fold(0.0, f32::max)
}

fn kinetic_energy(w: &World) -> f64 {
    w.bodies().map(|(_, b)| b.kinetic_energy() as f64).sum()
}

fn centre(w: &World) -> Vec2 {
    let (sum, count) = w.bodies().fold((Vec2::ZERO, 0.0), |(s, k), (_, b)| {
        (s + b.center_of_mass(), k + 1.0)
    });
    sum / count
}

/// `n × n` boxes 0.4 m wide at rest whose centres are `spacing` apart:
/// each overlaps its neighbours by `0.4 - spacing`. The pressure has to
/// spread from the edge in, a neighbour per pass, and no velocity may be
/// made on the way.
#[test]
fn a_crushed_crowd_comes_apart_without_moving() {
    for (n, spacing) in [(12, 0.25), (16, 0.2), (20, 0.3)] {
        let mut w = world();
        for i in 0..n {
            for j in 0..n {
                let p = Vec2::new(i as f32, j as f32) * spacing;
                w.add_body(BodyDef::new(Shape::rect(0.2, 0.2), p)).unwrap();
            }
        }
        let before = centre(&w);
        let mut steps = 0;
        while deepest(&w) >= 0.01 || steps == 0 {
            w.step();
            steps += 1;
            let e = kinetic_energy(&w);
            assert!(
                e < 1e-6,
                "{n} x {n}, step {steps}: the crowd was set moving ({e} J)"
            );
            assert!(steps < 400, "{n} x {n}: still {} m deep", deepest(&w));
        }
        let drift = (centre(&w) - before).length();
        println!(
            "{n} x {n} boxes {:.2} m into each neighbour: apart in {steps} steps; \
             centre moved {drift:.1e} m",
            0.4 - spacing
        );
        assert!(
            drift < 1e-4,
            "{n} x {n}: the crowd's centre moved {drift} m"
        );
    }
}

/// Box2D's `smash` at 1/4 scale in `w`: a 2 × 2 m box of density 8 at
/// 40 m/s into 30 × 20 sleeping 0.4 m boxes.
fn impact(mut w: World) -> World {
    let projectile = BodyDef::new(Shape::rect(1.0, 1.0), Vec2::new(-2.0, 0.0))
        .density(8.0)
        .velocity(Vec2::new(40.0, 0.0));
    w.add_body(projectile).unwrap();
    for i in 0..30 {
        for j in 0..20 {
            let at = Vec2::new(0.4 * i as f32, 0.4 * (j as f32 - 10.0));
            w.add_body(BodyDef::new(Shape::rect(0.2, 0.2), at).awake(false))
                .unwrap();
        }
    }
    w
}

/// The 1/4-scale `smash` crushes its boxes up to 0.4 m into one another.
/// Within a second they are apart to 1 cm; the position pass with its
/// fraction alone (`deep_penetration` off) left 5 cm.
#[test]
fn an_impact_jam_comes_apart_within_a_second() {
    let mut w = impact(world());
    let (p0, e0) = (w.linear_momentum(), kinetic_energy(&w));
    let mut worst: f32 = 0.0;
    for _ in 0..60 {
        w.step();
        worst = worst.max(deepest(&w));
        assert!(kinetic_energy(&w) <= e0 * (1.0 + 1e-5), "energy was made");
    }
    let (left, drift) = (
        deepest(&w),
        (w.linear_momentum() - p0).length() / p0.length(),
    );
    println!("impact: {worst:.3} m deep at worst, {left:.4} m after 60 steps; momentum drift {drift:.1e}");
    assert!(worst > 0.3, "the impact made no jam ({worst} m)");
    assert!(left < 0.01, "still {left} m deep after 60 steps");
    assert!(drift < 1e-5, "momentum drift {drift}");
}

/// A negative or NaN `deep_penetration` is off, as `f32::INFINITY` is (it
/// would otherwise push apart bodies that do not touch).
#[test]
fn a_negative_or_nan_deep_penetration_is_off() {
    let run = |deep: f32| {
        let mut w = impact(world_with(deep));
        for _ in 0..60 {
            w.step();
        }
        w.state_hash()
    };
    let off = run(f32::INFINITY);
    assert_eq!(run(-0.05), off);
    assert_eq!(run(f32::NAN), off);
    assert_ne!(run(0.05), off, "the rule did nothing here");
}
