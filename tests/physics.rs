//! Physical facts the solver must reproduce, with Box2D-style settings:
//! dt = 1/60 s, gravity -10 m/s², friction 0.6, boxes of 1 m. Each test prints
//! the figure it measured. Heavy scenes are skipped in debug builds (run
//! `cargo test --release`, as CI does).

use minkowski::world::WorldEvent;
use minkowski::{BodyDef, BodyId, BodyKind, Shape, Vec2, World, WorldSettings};
use rand::{RngExt, SeedableRng};

fn settings() -> WorldSettings {
    WorldSettings::default()
}

fn ground(world: &mut World, half_width: f32) -> BodyId {
    world
        .add_body(
            BodyDef::new(Shape::rect(half_width, 1.0), Vec2::new(0.0, -1.0)).kind(BodyKind::Static),
        )
        .unwrap()
}

/// Box2D's pyramid: row i has `base - i` boxes of half 0.5, touching exactly.
fn pyramid(world: &mut World, base: usize) -> Vec<(BodyId, Vec2)> {
    let mut out = Vec::new();
    for i in 0..base {
        let y = (2 * i + 1) as f32 * 0.5;
        for j in i..base {
            let x = (i + 1) as f32 * 0.5 + (j - i) as f32 - base as f32 * 0.5;
            let p = Vec2::new(x, y);
            let id = world
                .add_body(BodyDef::new(Shape::rect(0.5, 0.5), p))
                .unwrap();
            out.push((id, p));
        }
    }
    out
}

fn max_displacement(world: &World, start: &[(BodyId, Vec2)]) -> f32 {
    start
        .iter()
        .map(|(id, p)| world.body(*id).unwrap().position().distance(*p))
        .fold(0.0, f32::max)
}

#[test]
fn pyramid_base_20_stands() {
    let mut world = World::new(settings());
    ground(&mut world, 40.0);
    let boxes = pyramid(&mut world, 20);
    for _ in 0..600 {
        world.step();
    }
    let d = max_displacement(&world, &boxes);
    println!("pyramid base 20: max displacement after 600 steps = {d:.5} m");
    assert!(d < 0.02, "a box moved {d} m");
}

/// Box2D's large pyramid (base 100, 5,050 boxes) stands and comes to rest:
/// no box moves more than 0.3 m in 500 steps, and at step 500 no box's
/// fastest point moves faster than 0.05 m/s. The figures are printed.
///
/// The target is 0.1 m; the solver reaches about 0.25 m (0.38 m
/// before the velocity the position passes held back was removed, 0.75 m
/// before friction was solved ahead of the normal impulses). What limits it
/// is the cold start: the boxes start exactly touching with no impulses to
/// warm start from, and Gauss–Seidel carries support up 100 rows only over
/// many passes, so the pyramid compresses by about 2–5 mm per contact in its
/// first steps (the top falls ~0.4 m) and the rows spread while the load is
/// still low (edge boxes slide 0.1–0.3 m). The position pass then removes
/// the penetration at the slow, diffusive rate of projection over 100 rows.
/// Until the held-back velocity was removed, the pyramid also rang: at step
/// 500 its boxes still moved at up to 0.21 m/s, the mean rising at 0.1 m/s.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "5,050 boxes for 500 steps: run with cargo test --release"
)]
fn large_pyramid_base_100_stands() {
    let mut world = World::new(WorldSettings {
        sleep: false,
        ..settings()
    });
    ground(&mut world, 100.0);
    let boxes = pyramid(&mut world, 100);
    assert_eq!(boxes.len(), 5050);
    for _ in 0..500 {
        world.step();
    }
    let d = max_displacement(&world, &boxes);
    let fastest = boxes
        .iter()
        .map(|(id, _)| {
            let b = world.body(*id).unwrap();
            // A 1 m box's corners are 0.71 m from its centre.
            b.linear_velocity().length() + 0.71 * b.angular_velocity().abs()
        })
        .fold(0.0, f32::max);
    println!(
        "large pyramid base 100: max displacement after 500 steps = {d:.5} m (issue target 0.1 m); \
         fastest point {fastest:.4} m/s"
    );
    // 0.38 m while each position pass split its push evenly, 0.25 m once
    // the velocity the passes held back was removed, 0.064 m with the lower
    // body held in the position pass (shock propagation; issue 15: 0.1 m).
    assert!(d < 0.1, "a box moved {d} m");
    assert!(
        fastest < 0.05,
        "still moving at {fastest} m/s after 500 steps"
    );
}

#[test]
fn stack_of_20_stays_upright() {
    let mut world = World::new(settings());
    ground(&mut world, 20.0);
    let mut top = None;
    for i in 0..20 {
        top = Some(
            world
                .add_body(BodyDef::new(
                    Shape::rect(0.5, 0.5),
                    Vec2::new(0.0, 0.5 + i as f32),
                ))
                .unwrap(),
        );
    }
    let top = top.unwrap();
    let mut drift = 0.0f32;
    for _ in 0..600 {
        world.step();
        drift = drift.max(world.body(top).unwrap().position().x.abs());
    }
    println!("stack of 20: top box max sideways drift over 10 s = {drift:.6} m");
    assert!(drift < 0.01);
}

/// A 1 m box on a static ramp tilted by `deg`; returns distance travelled along
/// the slope at each step.
fn ramp_run(deg: f32, steps: usize) -> Vec<f32> {
    let mut world = World::new(settings());
    let theta = deg.to_radians();
    let n = Vec2::new(-theta.sin(), theta.cos());
    let t = Vec2::new(theta.cos(), theta.sin());
    world
        .add_body(
            BodyDef::new(Shape::rect(20.0, 0.5), Vec2::ZERO)
                .angle(theta)
                .kind(BodyKind::Static),
        )
        .unwrap();
    // Box resting on the ramp's surface (ramp half thickness 0.5 + box half 0.5).
    let start = n * 1.0;
    let b = world
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), start).angle(theta))
        .unwrap();
    let mut s = Vec::with_capacity(steps);
    for _ in 0..steps {
        world.step();
        s.push((world.body(b).unwrap().position() - start).dot(t));
    }
    s
}

#[test]
fn box_on_25_degree_ramp_holds() {
    let s = ramp_run(25.0, 120);
    let moved = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    println!("ramp 25°, mu 0.6: box moved {:.5} m in 2 s", moved);
    assert!(moved < 0.01);
}

#[test]
fn box_on_40_degree_ramp_slides_at_coulomb_rate() {
    let steps = 120;
    let s = ramp_run(40.0, steps);
    let theta = 40f32.to_radians();
    let expected = 10.0 * (theta.sin() - 0.6 * theta.cos());
    // Fit s = s0 + v0 t + a t²/2 by least squares over the second half (steady sliding).
    let dt = 1.0 / 60.0f64;
    let pts: Vec<(f64, f64)> = (steps / 2..steps)
        .map(|k| ((k + 1) as f64 * dt, -(s[k] as f64)))
        .collect();
    let a = quadratic_fit_acceleration(&pts);
    let err = (a as f32 - expected).abs() / expected;
    println!(
        "ramp 40°, mu 0.6: acceleration {a:.4} m/s², expected {expected:.4} (error {:.2}%)",
        err * 100.0
    );
    assert!(err < 0.05);
}

/// Least-squares fit of y = c0 + c1 t + c2 t²; returns 2·c2.
fn quadratic_fit_acceleration(pts: &[(f64, f64)]) -> f64 {
    let mut m = [[0.0f64; 3]; 3];
    let mut r = [0.0f64; 3];
    for &(t, y) in pts {
        let basis = [1.0, t, t * t];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += basis[i] * basis[j];
            }
            r[i] += basis[i] * y;
        }
    }
    // Gaussian elimination.
    for col in 0..3 {
        for row in col + 1..3 {
            let f = m[row][col] / m[col][col];
            let pivot = m[col];
            for (v, p) in m[row].iter_mut().zip(pivot).skip(col) {
                *v -= f * p;
            }
            r[row] -= f * r[col];
        }
    }
    let mut c = [0.0f64; 3];
    for i in (0..3).rev() {
        let mut acc = r[i];
        for k in i + 1..3 {
            acc -= m[i][k] * c[k];
        }
        c[i] = acc / m[i][i];
    }
    2.0 * c[2]
}

#[test]
fn ball_rebounds_to_e_squared_height() {
    let mut world = World::new(settings());
    ground(&mut world, 20.0);
    let r = 0.5;
    let h = 5.0;
    let ball = world
        .add_body(BodyDef::new(Shape::circle(r), Vec2::new(0.0, r + h)).restitution(0.8))
        .unwrap();
    let mut bounced = false;
    let mut peak = 0.0f32;
    let mut prev_vy = 0.0f32;
    for _ in 0..400 {
        world.step();
        let b = world.body(ball).unwrap();
        let vy = b.linear_velocity().y;
        if !bounced && prev_vy < 0.0 && vy > 0.0 {
            bounced = true;
        }
        if bounced {
            peak = peak.max(b.position().y - r);
            if vy < 0.0 && peak > 0.0 {
                break;
            }
        }
        prev_vy = vy;
    }
    let expected = 0.8f32 * 0.8 * h;
    let err = (peak - expected).abs() / expected;
    println!(
        "bounce e = 0.8 from {h} m: rebound {peak:.4} m, expected {expected:.4} (error {:.2}%)",
        err * 100.0
    );
    assert!(err < 0.03);
}

#[test]
fn collision_conserves_momentum() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        sleep: false,
        ..settings()
    });
    let a = world
        .add_body(
            BodyDef::new(Shape::rect(0.6, 0.3), Vec2::new(-3.0, 0.2))
                .velocity(Vec2::new(4.0, 0.5))
                .angular_velocity(1.0)
                .friction(0.5),
        )
        .unwrap();
    let b = world
        .add_body(
            BodyDef::new(Shape::capsule(0.5, 0.3), Vec2::new(2.0, -0.1))
                .angle(0.4)
                .velocity(Vec2::new(-2.0, 0.0))
                .density(2.0),
        )
        .unwrap();
    let p0 = world.linear_momentum();
    let l0 = world.angular_momentum();
    let mut touched = false;
    for _ in 0..240 {
        world.step();
        touched |= world
            .contacts()
            .any(|c| c.manifold.points().iter().any(|p| p.normal_impulse > 0.0));
    }
    assert!(touched, "the bodies never collided");
    let p1 = world.linear_momentum();
    let l1 = world.angular_momentum();
    let dp = (p1 - p0).length() / p0.length();
    let dl = (l1 - l0).abs() / l0.abs().max(p0.length());
    println!("momentum: linear drift {dp:.2e} (relative), angular drift {dl:.2e} (relative)");
    assert!(dp < 1e-5, "linear momentum drift {dp}");
    assert!(dl < 1e-4, "angular momentum drift {dl}");
    let _ = (a, b);
}

/// Box2D's `smash` at small scale, in zero gravity and with nothing static:
/// a 512 kg box at 40 m/s into a block of loose 0.16 kg boxes, awake or
/// asleep. No external force acts, so linear and angular momentum must
/// come out as they went in. The position passes' push-out once had the
/// velocity it opposed removed body by body even here, where nothing holds
/// a body back: the box stopped dead and 97 % of the shipped scene's
/// momentum was lost.
#[test]
fn an_impact_into_loose_boxes_conserves_momentum() {
    for awake in [true, false] {
        let mut world = World::new(WorldSettings {
            gravity: Vec2::ZERO,
            ..settings()
        });
        world
            .add_body(
                BodyDef::new(Shape::rect(2.0, 2.0), Vec2::new(26.0, 0.3))
                    .density(32.0)
                    .velocity(Vec2::new(40.0, 0.0)),
            )
            .unwrap();
        let (columns, rows) = (20, 20);
        for i in 0..columns {
            for j in 0..rows {
                let at = Vec2::new(30.0 + 0.4 * i as f32, 0.4 * (j as f32 - rows as f32 / 2.0));
                world
                    .add_body(BodyDef::new(Shape::rect(0.2, 0.2), at).awake(awake))
                    .unwrap();
            }
        }
        let (p0, l0) = (world.linear_momentum(), world.angular_momentum());
        let mut moving = 0;
        for _ in 0..120 {
            world.step();
        }
        for (_, b) in world.bodies() {
            moving += (b.linear_velocity().x > 1.0) as usize;
        }
        let (p1, l1) = (world.linear_momentum(), world.angular_momentum());
        let dp = (p1 - p0).length() / p0.length();
        // Relative to the momentum's moment about the origin at the impact.
        let dl = (l1 - l0).abs() / (p0.length() * 30.0);
        println!(
            "impact into {} loose boxes: momentum {p0} -> {p1} (drift {dp:.2e}), \
             angular {l0} -> {l1} (drift {dl:.2e}), {moving} of {} bodies moving on",
            if awake { "awake" } else { "sleeping" },
            columns * rows + 1
        );
        assert!(dp < 1e-5, "linear momentum drift {dp}");
        assert!(dl < 1e-4, "angular momentum drift {dl}");
        assert!(
            moving > columns * rows / 2,
            "the block was not carried along"
        );
    }
}

fn wall_stops(shape: Shape, speed: f32) -> f32 {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..settings()
    });
    world
        .add_body(BodyDef::new(Shape::rect(0.1, 5.0), Vec2::new(10.0, 0.0)).kind(BodyKind::Static))
        .unwrap();
    let b = world
        .add_body(BodyDef::new(shape, Vec2::ZERO).velocity(Vec2::new(speed, 0.0)))
        .unwrap();
    let mut max_x = f32::NEG_INFINITY;
    for _ in 0..120 {
        world.step();
        max_x = max_x.max(world.body(b).unwrap().position().x);
    }
    max_x
}

#[test]
fn fast_bodies_do_not_tunnel() {
    let x = wall_stops(Shape::circle(0.1), 300.0);
    println!("circle r=0.1 at 300 m/s: furthest x = {x:.4} (wall face at 9.9)");
    assert!(x <= 9.9 - 0.1 + 0.01);
    let x = wall_stops(Shape::rect(0.25, 0.25), 200.0);
    println!("box at 200 m/s: furthest x = {x:.4} (wall face at 9.9)");
    assert!(x <= 9.9 - 0.25 + 0.01);
}

/// 200 random bodies of every kind (seeded), dropped into a box.
fn random_pile(seed: u64) -> (World, Vec<BodyId>) {
    let mut world = World::new(settings());
    let wall = |w: &mut World, c: Vec2, hx: f32, hy: f32| {
        w.add_body(BodyDef::new(Shape::rect(hx, hy), c).kind(BodyKind::Static))
            .unwrap();
    };
    wall(&mut world, Vec2::new(0.0, -0.5), 6.0, 0.5);
    wall(&mut world, Vec2::new(-6.5, 10.0), 0.5, 11.0);
    wall(&mut world, Vec2::new(6.5, 10.0), 0.5, 11.0);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ids = Vec::new();
    for k in 0..200 {
        let size = rng.random_range(0.15f32..0.4);
        let shape = match k % 5 {
            0 => Shape::circle(size),
            1 => Shape::rect(size, size * rng.random_range(0.5f32..1.0)),
            2 => {
                let pts: Vec<Vec2> = (0..7)
                    .map(|_| {
                        Vec2::new(rng.random_range(-size..size), rng.random_range(-size..size))
                    })
                    .collect();
                Shape::convex_hull(&pts).unwrap_or(Shape::rect(size, size))
            }
            3 => Shape::ellipse(size, size * rng.random_range(0.4f32..0.9)),
            _ => Shape::capsule(size * rng.random_range(0.5f32..1.0), size * 0.5),
        };
        let p = Vec2::new(
            rng.random_range(-5.0f32..5.0),
            1.0 + (k / 10) as f32 * 0.9 + rng.random_range(0.0f32..0.3),
        );
        ids.push(
            world
                .add_body(BodyDef::new(shape, p).angle(rng.random_range(0.0f32..6.0)))
                .unwrap(),
        );
    }
    (world, ids)
}

/// Sixty-four seeded piles of 200 mixed bodies, each run for 15 s: none goes
/// non-finite, a body that ends up outside the box was reported buried in a
/// wall (no silent loss), and at least 63 piles sleep (issue 15).
///
/// History of the count: 57 of 64 while EPA returned the lower bound of an
/// unconverged polytope (too shallow by up to 15 % in warm-started curved
/// contacts), 49 of 64 since EPA is exact, 52 since an ellipse's core sits
/// behind its exact contact point (`tests/curved_energy.rs`). In most awake
/// piles an ellipse still rocked: rolling resistance acted in one substep of
/// four. With its couple warm started in every substep, only on rounded
/// contacts, and no body put to sleep while it is still being accelerated,
/// 63 or 64 sleep; 64 since rolling resistance acts on two-point rounded
/// contacts too (a hull rocked for good on a capsule's end: 2020 of 2048
/// seeds asleep at 15 s, every one by 27.4 s). Which seeds sleep moves with
/// any rounding change, so the count over many is the figure that means
/// something.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "64 piles of 200 bodies for 15 s: run with cargo test --release"
)]
fn random_piles_settle_and_sleep() {
    // (asleep, escaped bodies, escaped unreported, non-finite, other events)
    let run = |seed: u64| -> (bool, usize, usize, bool, usize) {
        let (mut world, ids) = random_pile(seed);
        let mut slept = false;
        let mut buried = Vec::new();
        let mut other = 0;
        for _ in 0..900 {
            world.step();
            for e in world.take_events() {
                match e {
                    WorldEvent::BodyBuried { body, .. } => buried.push(body),
                    _ => other += 1,
                }
            }
            if world.awake_count() == 0 {
                slept = true;
                break;
            }
        }
        let escaped: Vec<BodyId> = ids
            .iter()
            .copied()
            .filter(|id| {
                // The centre of mass: a random hull's origin can lie outside it.
                let p = world.body(*id).unwrap().center_of_mass();
                !(p.x.abs() < 6.0 && p.y > -0.1 && p.y < 25.0)
            })
            .collect();
        let silent = escaped.iter().filter(|id| !buried.contains(id)).count();
        let nan = world
            .bodies()
            .any(|(_, b)| !b.position().is_finite() || !b.angle().is_finite());
        (slept, escaped.len(), silent, nan, other)
    };
    // Two threads, one world each at a time: every pile is deterministic on
    // its own, so the count does not depend on the split.
    let results: Vec<_> = std::thread::scope(|s| {
        let halves: Vec<_> = (0..2u64)
            .map(|h| s.spawn(move || (h * 32..h * 32 + 32).map(run).collect::<Vec<_>>()))
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("pile thread"))
            .collect()
    });
    let asleep = results.iter().filter(|r| r.0).count();
    let escaped: usize = results.iter().map(|r| r.1).sum();
    let silent: usize = results.iter().map(|r| r.2).sum();
    println!(
        "64 piles of 200 random bodies: {asleep} asleep at 15 s; \
         {escaped} of 12800 bodies pushed into a wall, {silent} of them unreported"
    );
    assert!(results.iter().all(|r| !r.3), "a pile went non-finite");
    assert_eq!(silent, 0, "a body left the box without a BodyBuried event");
    assert!(
        results.iter().all(|r| r.4 == 0),
        "a pile reported another event"
    );
    assert!(asleep >= 63, "only {asleep} of 64 piles asleep at 15 s");
}

/// An ellipse rocking on the ground loses its swing to rolling resistance
/// and comes to rest; no swing may be faster than the first. (Its contact
/// once tracked a material point of the surface, which rises as the ellipse
/// turns: each swing sank it into the ground, the position pass pushed it
/// back up, and the rocking grew to twice its speed.)
#[test]
fn a_rocking_ellipse_comes_to_rest() {
    for (rx, ry) in [(0.3f32, 0.15f32), (0.2, 0.12)] {
        let mut world = World::new(settings());
        ground(&mut world, 6.0);
        let w0 = 2.0;
        let def = BodyDef::new(Shape::ellipse(rx, ry), Vec2::new(0.0, ry));
        let e = world.add_body(def.angular_velocity(w0)).unwrap();
        let mut peaks = Vec::new();
        let mut peak = 0.0f32;
        let mut rested = None;
        for step in 1..=900 {
            world.step();
            let b = world.body(e).unwrap();
            peak = peak.max(b.angular_velocity().abs());
            if step % 60 == 0 {
                peaks.push(peak);
                peak = 0.0;
            }
            if !b.is_awake() {
                rested = Some(step);
                break;
            }
        }
        println!("ellipse {rx}×{ry} rocking from {w0} rad/s: peak |ω| each second {peaks:.2?}, asleep after {rested:?} steps");
        assert!(
            peaks.iter().all(|&p| p <= w0),
            "the rocking grew: {peaks:?}"
        );
        assert!(
            peaks.windows(2).all(|w| w[1] <= w[0]),
            "a swing gained speed: {peaks:?}"
        );
        assert!(rested.is_some(), "still rocking after 15 s: {peaks:?}");
    }
}

/// A body falls asleep only at rest, not while slow. A nearly round ellipse
/// rocks so slowly that its fastest point stays under the sleep velocity for
/// a whole half-second around each turning point; it used to fall asleep
/// there, frozen at a tilt that gravity would not hold. It may sleep only
/// at a tilt its rolling resistance can hold: its centre of mass no farther
/// to the side of the contact than `c·r`.
#[test]
fn a_slowly_rocking_ellipse_does_not_sleep_mid_swing() {
    for (rx, ry) in [(0.105f32, 0.1f32), (0.315, 0.3), (0.21, 0.2)] {
        let mut world = World::new(settings());
        ground(&mut world, 6.0);
        let def = BodyDef::new(Shape::ellipse(rx, ry), Vec2::new(0.0, ry));
        let e = world.add_body(def.angular_velocity(2.0)).unwrap();
        let mut slept = None;
        for step in 1..=1200 {
            world.step();
            if !world.body(e).unwrap().is_awake() {
                slept = Some(step);
                break;
            }
        }
        let theta = world.body(e).unwrap().angle();
        // The centre's offset from the contact: d(height)/dθ.
        let (s, c) = (theta.sin(), theta.cos());
        let height = (rx * rx * s * s + ry * ry * c * c).sqrt();
        let offset = ((rx * rx - ry * ry) * s * c / height).abs();
        let hold = settings().rolling_resistance * rx;
        println!(
            "ellipse {rx}×{ry}: asleep after {slept:?} steps at {theta:.4} rad, \
             centre {offset:.5} m off the contact (rolling resistance holds {hold:.5})"
        );
        assert!(slept.is_some(), "ellipse {rx}×{ry} still rocking at 20 s");
        assert!(
            offset <= hold,
            "ellipse {rx}×{ry} asleep at {theta} rad, {offset} m off its contact"
        );
    }
}

/// A falling pile never gains energy: restitution is 0, so each step's
/// kinetic plus potential energy may only fall (the position pass, which
/// lifts bodies out of penetration, may add a little). The velocity pass
/// once demanded tens of m/s of separation where a fast-turning pair was
/// predicted to dig in, and in 4 of these 48 piles a collision during the
/// fall multiplied the pile's energy by thousands in one step.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "48 piles of 200 bodies: run with cargo test --release"
)]
fn a_falling_pile_never_gains_energy() {
    let energy = |w: &World| -> f64 {
        w.bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
            .map(|(_, b)| {
                let height = b.center_of_mass().y as f64;
                b.kinetic_energy() as f64 + b.mass() as f64 * 10.0 * height
            })
            .sum()
    };
    let mut worst = (0.0f64, 0, 0);
    for seed in 2000..2048 {
        let (mut world, _) = random_pile(seed);
        let e0 = energy(&world);
        let mut last = e0;
        for step in 1..=300 {
            world.step();
            let e = energy(&world);
            let gain = (e - last) / e0;
            if gain > worst.0 {
                worst = (gain, seed, step);
            }
            last = e;
        }
    }
    println!(
        "48 falling piles: largest one-step energy gain {:.4} % of the initial energy (seed {}, step {})",
        100.0 * worst.0,
        worst.1,
        worst.2
    );
    assert!(worst.0 < 0.01, "energy gained in one step: {worst:?}");
}

#[test]
fn elastic_ball_keeps_its_energy() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        sleep: false,
        ..settings()
    });
    for x in [-5.5f32, 5.5] {
        world
            .add_body(
                BodyDef::new(Shape::rect(0.5, 5.0), Vec2::new(x, 0.0))
                    .kind(BodyKind::Static)
                    .friction(0.0)
                    .restitution(1.0),
            )
            .unwrap();
    }
    let ball = world
        .add_body(
            BodyDef::new(Shape::circle(0.5), Vec2::ZERO)
                .velocity(Vec2::new(7.0, 0.0))
                .friction(0.0)
                .restitution(1.0),
        )
        .unwrap();
    let e0 = world.kinetic_energy();
    let mut e_min = e0;
    let mut e_max = e0;
    let mut bounces = 0;
    let mut last_vx = 7.0f32;
    for _ in 0..600 {
        world.step();
        let e = world.kinetic_energy();
        e_min = e_min.min(e);
        e_max = e_max.max(e);
        let vx = world.body(ball).unwrap().linear_velocity().x;
        if vx.signum() != last_vx.signum() {
            bounces += 1;
        }
        last_vx = vx;
    }
    println!(
        "elastic ball: {bounces} bounces, energy range [{:.5}, {:.5}] of {e0:.5} J",
        e_min, e_max
    );
    assert!(bounces >= 8);
    assert!(e_max <= e0 * (1.0 + 1e-5), "energy grew to {e_max}");
    assert!(e_min >= e0 * 0.99, "energy fell to {e_min}");
}

#[test]
fn blown_up_body_is_frozen_and_reported() {
    let mut world = World::new(WorldSettings {
        max_speed: 50.0,
        ..settings()
    });
    ground(&mut world, 20.0);
    let calm = world
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(-3.0, 0.5)))
        .unwrap();
    let wild = world
        .add_body(BodyDef::new(Shape::circle(0.5), Vec2::new(3.0, 3.0)))
        .unwrap();
    world
        .set_velocity(wild, Vec2::new(0.0, 400.0), 0.0)
        .unwrap();
    world.step();
    let events = world.take_events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(world.body(wild).unwrap().is_frozen());
    for _ in 0..60 {
        world.step();
    }
    let p = world.body(calm).unwrap().position();
    assert!(p.is_finite() && (p.y - 0.5).abs() < 0.01);
}
