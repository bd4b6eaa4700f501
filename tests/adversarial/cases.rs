//! The thirteen categories of hostile pairs, each a seeded generator.

use super::common::{apply, log_uniform, world};
use glam::DVec2;
use minkowski::{Iso, Rot, Shape, Vec2};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Category names, in generator order.
pub const CATEGORIES: [&str; 13] = [
    "identical",
    "touching",
    "rotated 1e-7",
    "near-parallel",
    "sliver 1e4",
    "tiny 1e-4 m",
    "huge 1e4 m",
    "far apart 1e6 m",
    "nested",
    "duplicate vertices",
    "collinear vertices",
    "mixed scales",
    "general",
];

/// One pair of placed shapes.
pub struct Case {
    pub a: Shape,
    pub xa: Iso,
    pub b: Shape,
    pub xb: Iso,
}

fn angle(rng: &mut ChaCha8Rng) -> f32 {
    rng.random_range(-3.2..3.2f32)
}

fn unit(rng: &mut ChaCha8Rng) -> Vec2 {
    let t = rng.random_range(0.0..std::f32::consts::TAU);
    Vec2::new(libm::cosf(t), libm::sinf(t))
}

/// A random shape of the given size (its largest extent, m) and aspect ratio.
fn shape(rng: &mut ChaCha8Rng, size: f32, aspect: f32) -> Shape {
    let thin = size / aspect;
    match rng.random_range(0..7) {
        0 => Shape::circle(size),
        1 => {
            if rng.random_bool(0.5) {
                Shape::capsule(size, thin)
            } else {
                Shape::capsule(thin.min(size * 0.5), size * 0.5)
            }
        }
        2 => Shape::rect(size, thin),
        3 => {
            if rng.random_bool(0.5) {
                Shape::ellipse(size, thin)
            } else {
                Shape::ellipse(thin, size)
            }
        }
        4 => Shape::ellipse(size, size * rng.random_range(0.95..1.0f32)),
        5 => {
            // A rounded polygon whose radius is a fraction of its thickness.
            let radius = thin * rng.random_range(0.05..0.5f32);
            match polygon(rng, size, aspect) {
                Shape::Polygon(core) => Shape::RoundedPolygon { core, radius },
                other => other,
            }
        }
        _ => polygon(rng, size, aspect),
    }
}

/// The hull of random points in a `size × size/aspect` box.
fn polygon(rng: &mut ChaCha8Rng, size: f32, aspect: f32) -> Shape {
    loop {
        let n = rng.random_range(3..=12);
        let pts: Vec<Vec2> = (0..n)
            .map(|_| {
                Vec2::new(
                    rng.random_range(-1.0..1.0f32) * size,
                    rng.random_range(-1.0..1.0f32) * size / aspect,
                )
            })
            .collect();
        if let Ok(s) = Shape::convex_hull(&pts) {
            return s;
        }
    }
}

fn ordinary(rng: &mut ChaCha8Rng) -> Shape {
    let size = log_uniform(rng, 0.2, 2.0);
    let aspect = log_uniform(rng, 1.0, 4.0);
    shape(rng, size, aspect)
}

/// B placed near A: its origin within `spread` × the sum of the bounding radii.
fn near(rng: &mut ChaCha8Rng, a: &Shape, xa: &Iso, b: &Shape, spread: f32) -> Iso {
    let reach = a.bounding_radius() + b.bounding_radius();
    let r = rng.random_range(0.0..spread) * reach;
    Iso::new(xa.translation + unit(rng) * r, angle(rng))
}

fn origin(rng: &mut ChaCha8Rng, extent: f32) -> Iso {
    Iso::new(
        Vec2::new(
            rng.random_range(-extent..extent),
            rng.random_range(-extent..extent),
        ),
        angle(rng),
    )
}

/// The world point of `shape` (placed at `xf`) farthest along `n`, in f64.
fn support_point(shape: &Shape, xf: &Iso, n: DVec2) -> DVec2 {
    let w = world(shape, xf);
    use super::common::World;
    match w {
        World::Point(p, r) => p + n * r,
        World::Segment(a, b, r) => (if n.dot(a) >= n.dot(b) { a } else { b }) + n * r,
        World::RoundPoly(v, r) => {
            *v.iter()
                .max_by(|p, q| n.dot(**p).total_cmp(&n.dot(**q)))
                .expect("vertices")
                + n * r
        }
        World::Poly(v) => *v
            .iter()
            .max_by(|p, q| n.dot(**p).total_cmp(&n.dot(**q)))
            .expect("vertices"),
        World::Ellipse { c, ux, rx, ry } => {
            let uy = ux.perp();
            let (lx, ly) = (n.dot(ux) * rx, n.dot(uy) * ry);
            let k = (lx * lx + ly * ly).sqrt();
            c + ux * (rx * lx / k) + uy * (ry * ly / k)
        }
    }
}

/// Moves B so that its support point along −`n` meets A's along `n`.
fn touch(a: &Shape, xa: &Iso, b: &Shape, rb: Rot, n: Vec2) -> Iso {
    let nd = DVec2::new(n.x as f64, n.y as f64);
    let pa = support_point(a, xa, nd);
    let b0 = Iso::from_parts(Vec2::ZERO, rb);
    let pb = support_point(b, &b0, -nd);
    let t = pa - pb;
    Iso::from_parts(Vec2::new(t.x as f32, t.y as f32), rb)
}

/// The hull of `pts` after welding noise; `None` if it collapses.
fn hull(pts: &[Vec2]) -> Option<Shape> {
    Shape::convex_hull(pts).ok()
}

/// Case `index` of category `cat`.
pub fn generate(cat: usize, rng: &mut ChaCha8Rng) -> Case {
    loop {
        if let Some(c) = try_generate(cat, rng) {
            return c;
        }
    }
}

fn try_generate(cat: usize, rng: &mut ChaCha8Rng) -> Option<Case> {
    let case = match cat {
        0 => {
            let a = ordinary(rng);
            let xa = origin(rng, 10.0);
            Case {
                b: a.clone(),
                a,
                xa,
                xb: xa,
            }
        }
        1 => {
            let (a, b) = (ordinary(rng), ordinary(rng));
            let xa = origin(rng, 10.0);
            // Face-to-face along an axis of A half the time.
            let n = if rng.random_bool(0.5) {
                xa.rot
                    .apply([Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][rng.random_range(0..4)])
            } else {
                unit(rng)
            };
            let rb = if rng.random_bool(0.5) {
                xa.rot
            } else {
                Rot::from_angle(angle(rng))
            };
            let xb = touch(&a, &xa, &b, rb, n);
            Case { a, xa, b, xb }
        }
        2 => {
            let a = ordinary(rng);
            let xa = origin(rng, 10.0);
            let da = if rng.random_bool(0.5) { 1e-7 } else { -1e-7 };
            let shift = unit(rng) * rng.random_range(0.0..1e-6f32);
            let xb = Iso::new(xa.translation + shift, xa.rot.angle() + da);
            let b = if rng.random_bool(0.7) {
                a.clone()
            } else {
                ordinary(rng)
            };
            Case { a, xa, b, xb }
        }
        3 => {
            let size = log_uniform(rng, 0.2, 2.0);
            let a = if rng.random_bool(0.5) {
                Shape::rect(size, size * rng.random_range(0.1..1.0f32))
            } else {
                {
                    let asp = log_uniform(rng, 1.0, 4.0);
                    polygon(rng, size, asp)
                }
            };
            let b = if rng.random_bool(0.5) {
                Shape::rect(size, size * rng.random_range(0.1..1.0f32))
            } else {
                ordinary(rng)
            };
            let xa = origin(rng, 10.0);
            let tilt = log_uniform(rng, 1e-7, 1e-3) * if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            let rb = Rot::from_angle(xa.rot.angle() + tilt);
            let n = xa
                .rot
                .apply([Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][rng.random_range(0..4)]);
            let mut xb = touch(&a, &xa, &b, rb, n);
            let depth = size * rng.random_range(-1e-4..1e-3f32);
            xb.translation -= n * depth;
            Case { a, xa, b, xb }
        }
        4 => {
            let size = log_uniform(rng, 0.5, 5.0);
            let a = shape(rng, size, 1e4);
            let b = if rng.random_bool(0.5) {
                shape(rng, size, 1e4)
            } else {
                ordinary(rng)
            };
            let xa = origin(rng, 10.0);
            let xb = near(rng, &a, &xa, &b, 0.6);
            Case { a, xa, b, xb }
        }
        5 => scaled(rng, 1e-4, 1e-4),
        6 => scaled(rng, 1e4, 1e4),
        7 => {
            let (a, b) = (ordinary(rng), ordinary(rng));
            let xa = origin(rng, 1e3);
            let xb = Iso::new(xa.translation + unit(rng) * 1e6, angle(rng));
            Case { a, xa, b, xb }
        }
        8 => {
            let outer = log_uniform(rng, 1.0, 100.0);
            let ratio = log_uniform(rng, 3.0, 1e3);
            let a = shape_up_to(rng, outer, 3.0);
            let b = shape_up_to(rng, outer / ratio, 3.0);
            let xa = origin(rng, 10.0);
            // Concentric a third of the time, else anywhere well inside.
            let off = if rng.random_range(0..3) == 0 {
                Vec2::ZERO
            } else {
                unit(rng) * rng.random_range(0.0..0.3f32) * outer / 3.0
            };
            let xb = Iso::new(xa.translation + off, angle(rng));
            let (a, xa, b, xb) = if rng.random_bool(0.5) {
                (a, xa, b, xb)
            } else {
                (b, xb, a, xa)
            };
            Case { a, xa, b, xb }
        }
        9 => {
            let size = log_uniform(rng, 0.1, 3.0);
            let base = {
                let asp = log_uniform(rng, 1.0, 3.0);
                polygon(rng, size, asp)
            };
            let Shape::Polygon(p) = &base else {
                unreachable!()
            };
            // Each vertex repeated, some exactly and some a hair apart.
            let mut pts = Vec::new();
            for v in p.vertices() {
                pts.push(*v);
                for _ in 0..rng.random_range(1..3) {
                    let eps = size * log_uniform(rng, 1e-9, 1e-4);
                    pts.push(*v + unit(rng) * eps);
                }
            }
            let a = hull(&pts)?;
            let b = if rng.random_bool(0.5) {
                a.clone()
            } else {
                ordinary(rng)
            };
            let xa = origin(rng, 10.0);
            let xb = near(rng, &a, &xa, &b, 0.8);
            Case { a, xa, b, xb }
        }
        10 => {
            let size = log_uniform(rng, 0.1, 3.0);
            let corners = [
                Vec2::new(-size, -size * 0.5),
                Vec2::new(size, -size * 0.5),
                Vec2::new(size, size * 0.5),
                Vec2::new(-size, size * 0.5),
            ];
            // Points along every edge, nudged off the line by up to 1e-5 × size.
            let mut pts = Vec::new();
            for k in 0..4 {
                let (p, q) = (corners[k], corners[(k + 1) % 4]);
                let n = (q - p).perp().normalize();
                for s in 0..rng.random_range(2..8) {
                    let t = s as f32 / 8.0;
                    let bump = size * rng.random_range(0.0..1e-5f32);
                    pts.push(p + (q - p) * t + n * bump);
                }
            }
            let a = hull(&pts)?;
            let b = if rng.random_bool(0.5) {
                a.clone()
            } else {
                ordinary(rng)
            };
            let xa = origin(rng, 10.0);
            let xb = if rng.random_bool(0.5) {
                near(rng, &a, &xa, &b, 0.8)
            } else {
                let n = xa
                    .rot
                    .apply([Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][rng.random_range(0..4)]);
                let mut xb = touch(&a, &xa, &b, xa.rot, n);
                xb.translation -= n * (size * rng.random_range(-1e-4..1e-3f32));
                xb
            };
            Case { a, xa, b, xb }
        }
        11 => {
            let big = log_uniform(rng, 1e2, 1e3);
            let small = log_uniform(rng, 1e-3, 1e-2);
            let a = shape_up_to(rng, big, 3.0);
            let b = shape_up_to(rng, small, 3.0);
            let xa = origin(rng, 10.0);
            // The small shape straddles the big one's boundary.
            let n = unit(rng);
            let mut xb = touch(&a, &xa, &b, Rot::from_angle(angle(rng)), n);
            xb.translation -= n * (small * rng.random_range(-0.5..2.0f32));
            let (a, xa, b, xb) = if rng.random_bool(0.5) {
                (a, xa, b, xb)
            } else {
                (b, xb, a, xa)
            };
            Case { a, xa, b, xb }
        }
        _ => {
            let (a, b) = (ordinary(rng), ordinary(rng));
            let xa = origin(rng, 10.0);
            let xb = near(rng, &a, &xa, &b, 1.1);
            Case { a, xa, b, xb }
        }
    };
    let _ = apply;
    Some(case)
}

/// Ordinary pairs scaled to `size` (tiny or huge), overlapping or close.
fn scaled(rng: &mut ChaCha8Rng, size: f32, extent_scale: f32) -> Case {
    let s1 = size * log_uniform(rng, 0.3, 1.0);
    let s2 = size * log_uniform(rng, 0.3, 1.0);
    let a = shape_up_to(rng, s1, 4.0);
    let b = shape_up_to(rng, s2, 4.0);
    let xa = Iso::new(
        Vec2::new(
            rng.random_range(-10.0..10.0f32),
            rng.random_range(-10.0..10.0f32),
        ) * extent_scale.min(1.0),
        angle(rng),
    );
    let xb = near(rng, &a, &xa, &b, 1.1);
    Case { a, xa, b, xb }
}

/// A random shape with an aspect ratio drawn up to `max_aspect`.
fn shape_up_to(rng: &mut ChaCha8Rng, size: f32, max_aspect: f32) -> Shape {
    let aspect = log_uniform(rng, 1.0, max_aspect);
    shape(rng, size, aspect)
}
