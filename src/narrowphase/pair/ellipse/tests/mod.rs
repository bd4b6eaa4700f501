//! Oracles for the ellipse routines, in f64 and independent of them: a
//! bisection for the point/ellipse root, and a dense inscribed polygon of the
//! ellipse for the core distance, plus the exact bounds any answer must satisfy
//! (its pair's distance from above, the separation along its normal from below).
use super::*;
use crate::math::Rot;
use crate::shape::Polygon;
use glam::DVec2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[allow(dead_code)]
mod poses {
    include!("../../../../../benches/common/poses.rs");
}

fn d(v: Vec2) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64)
}

fn log_uniform(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    (rng.random_range(lo.ln()..hi.ln())).exp()
}

/// Semi-axes up to 2 m, aspect up to 8, either orientation.
fn random_ellipse(rng: &mut ChaCha8Rng) -> (f32, f32) {
    let a = log_uniform(rng, 0.1, 2.0);
    let b = a / log_uniform(rng, 1.0, 8.0);
    if rng.random_bool(0.5) {
        (a, b)
    } else {
        (b, a)
    }
}

/// A core: a point, a segment (a capsule's) or a polygon (boxes, regular
/// n-gons, hulls of random points), as vertices and edge normals.
fn random_core(rng: &mut ChaCha8Rng) -> (Vec<Vec2>, Vec<Vec2>) {
    let size = log_uniform(rng, 0.05, 2.0);
    match rng.random_range(0..10) {
        0 => (vec![Vec2::ZERO], vec![]),
        1 => (
            vec![Vec2::new(0.0, -size), Vec2::new(0.0, size)],
            vec![Vec2::X, -Vec2::X],
        ),
        k => {
            let aspect = log_uniform(rng, 1.0, 6.0);
            let pts: Vec<Vec2> = if k == 2 {
                vec![
                    Vec2::new(-size, -size / aspect),
                    Vec2::new(size, -size / aspect),
                    Vec2::new(size, size / aspect),
                    Vec2::new(-size, size / aspect),
                ]
            } else if k == 3 {
                let n = rng.random_range(3..=24);
                (0..n)
                    .map(|i| {
                        let t = (i as f32 + 0.5) / n as f32 * std::f32::consts::TAU;
                        Vec2::new(t.cos(), t.sin() / aspect) * size
                    })
                    .collect()
            } else {
                (0..rng.random_range(3..=12))
                    .map(|_| {
                        Vec2::new(
                            rng.random_range(-1.0..1.0f32),
                            rng.random_range(-1.0..1.0f32) / aspect,
                        ) * size
                    })
                    .collect()
            };
            match Polygon::convex_hull(&pts) {
                Ok(p) => (p.vertices().to_vec(), p.normals().to_vec()),
                Err(_) => random_core(rng),
            }
        }
    }
}

/// The core's pose in the ellipse's frame: its origin 0.3 to 1.3 times the
/// summed bounding radii away, so most pairs are separated and some overlap.
fn random_pose(rng: &mut ChaCha8Rng, reach: f32) -> Iso {
    let t = rng.random_range(0.0..std::f32::consts::TAU);
    let r = rng.random_range(0.3..1.3f32) * reach;
    Iso::new(
        r * Vec2::new(t.cos(), t.sin()),
        rng.random_range(-3.2..3.2f32),
    )
}

fn reach(rx: f32, ry: f32, verts: &[Vec2]) -> f32 {
    rx.max(ry) + verts.iter().fold(0.0f32, |m, v| m.max(v.length()))
}

/// Nearest point of the ellipse to an outside point `p` in f64, by bisection
/// on Eberly's root function (100 halvings: the bracket ends at f64 rounding).
fn point_ellipse_f64(rx: f64, ry: f64, p: DVec2) -> (f64, DVec2) {
    let (y0, y1) = (p.x.abs(), p.y.abs());
    let f = |t: f64| (rx * y0 / (t + rx * rx)).powi(2) + (ry * y1 / (t + ry * ry)).powi(2) - 1.0;
    let (mut lo, mut hi) = (0.0, (rx * y0).hypot(ry * y1));
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    let q = DVec2::new(
        rx * rx * y0 / (t + rx * rx) * p.x.signum(),
        ry * ry * y1 / (t + ry * ry) * p.y.signum(),
    );
    ((p - q).length(), q)
}

/// Vertices of the ellipse's inscribed polygon.
const N: usize = 1024;

/// The narrowphase bench's unit octagon and its ellipse (1 × 0.5)/octagon
/// pose pool of the given kind, as (ellipse pose, octagon pose) pairs.
fn bench_pool(seed: u64, kind: poses::Kind) -> (Polygon, Vec<(Iso, Iso)>) {
    let pts: Vec<Vec2> = poses::octagon_points(1.0)
        .into_iter()
        .map(|[x, y]| Vec2::new(x, y))
        .collect();
    let apothem = (std::f32::consts::PI / 8.0).cos();
    let pool = poses::pose_pool(seed, kind, 2.0, 0.5 + apothem)
        .into_iter()
        .map(|(a, b)| {
            (
                Iso::new(Vec2::new(a[0], a[1]), a[2]),
                Iso::new(Vec2::new(b[0], b[1]), b[2]),
            )
        })
        .collect();
    (Polygon::new(&pts).unwrap(), pool)
}

mod distance;
mod penetration;
