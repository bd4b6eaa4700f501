//! Independent oracles for the narrowphase tests.
//!
//! Everything here is computed in f64 from the f32 inputs, by brute force, and
//! shares no code with the library's GJK/EPA: distances are minima of point–segment
//! and segment–segment distances over every feature pair, overlap is decided by
//! edge crossings and point-in-polygon tests, and penetration is a generalised SAT
//! over the edge normals of the two *cores* (a segment core contributes both of its
//! perpendiculars, a point core none), with the rounding radii added afterwards.
//! (For overlapping convex cores the penetration depth of the rounded shapes is the
//! core depth plus the radii: the Minkowski difference of the rounded shapes is the
//! core difference dilated by a disc of radius `ra + rb`, and dilating a convex set
//! that contains the origin pushes every supporting line out by exactly the radius.)
#![allow(dead_code)]

use glam::DVec2;
use minkowski::{narrowphase, Iso, Shape, Vec2};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Two SAT axes closer than this (rad) are the same direction (e.g. the normals of
/// two parallel edges, one on A and one on B).
pub const SAME_AXIS_RAD: f64 = 1e-3;

/// A shape placed in the world, in f64.
#[derive(Clone, Debug)]
pub enum World {
    /// A point core with a radius (circle).
    Point(DVec2, f64),
    /// A segment core with a radius (capsule).
    Segment(DVec2, DVec2, f64),
    /// A convex polygon, counter-clockwise.
    Poly(Vec<DVec2>),
    /// A convex polygon core (counter-clockwise) with a radius (rounded polygon).
    RoundPoly(Vec<DVec2>, f64),
    /// An ellipse: centre, unit local x axis, semi-axes.
    Ellipse {
        c: DVec2,
        ux: DVec2,
        rx: f64,
        ry: f64,
    },
}

pub fn d(v: Vec2) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64)
}

pub fn apply(xf: &Iso, p: Vec2) -> DVec2 {
    let (c, s) = (xf.rot.cos as f64, xf.rot.sin as f64);
    let p = d(p);
    DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + d(xf.translation)
}

pub fn world(shape: &Shape, xf: &Iso) -> World {
    match shape {
        Shape::Circle { radius } => World::Point(apply(xf, Vec2::ZERO), *radius as f64),
        Shape::Capsule {
            half_height,
            radius,
        } => World::Segment(
            apply(xf, Vec2::new(0.0, -half_height)),
            apply(xf, Vec2::new(0.0, *half_height)),
            *radius as f64,
        ),
        Shape::Polygon(p) => World::Poly(p.vertices().iter().map(|v| apply(xf, *v)).collect()),
        Shape::RoundedPolygon { core, radius } => World::RoundPoly(
            core.vertices().iter().map(|v| apply(xf, *v)).collect(),
            *radius as f64,
        ),
        Shape::Ellipse { rx, ry } => World::Ellipse {
            c: d(xf.translation),
            ux: DVec2::new(xf.rot.cos as f64, xf.rot.sin as f64),
            rx: *rx as f64,
            ry: *ry as f64,
        },
        // A segment is a capsule core without radius (a chain segment's
        // one-sidedness is the manifold's business, not the geometry's).
        Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
            World::Segment(apply(xf, *a), apply(xf, *b), 0.0)
        }
    }
}

/// A dense polygon inscribed in an ellipse: `n` vertices at equal steps of the
/// parametric angle. Every vertex lies on the ellipse, so the polygon is inside it.
pub fn ellipse_polygon(c: DVec2, ux: DVec2, rx: f64, ry: f64, n: usize) -> Vec<DVec2> {
    let uy = ux.perp();
    (0..n)
        .map(|k| {
            let t = k as f64 / n as f64 * std::f64::consts::TAU;
            c + ux * (rx * t.cos()) + uy * (ry * t.sin())
        })
        .collect()
}

/// Sagitta bound of [`ellipse_polygon`]: the ellipse lies within this distance of
/// the inscribed polygon.
///
/// Justification: the ellipse is the image of the unit circle under a linear map
/// with singular values `rx` and `ry`, and the inscribed polygon is the image of the
/// regular `n`-gon inscribed in the circle. A point of a circular arc of angle
/// `2π/n` lies within the sagitta `1 − cos(π/n)` of its chord, at a point of the
/// chord; the linear map stretches that displacement by at most `max(rx, ry)`. So
/// polygon ⊂ ellipse ⊂ polygon ⊕ disc(s) with `s = max(rx, ry)·(1 − cos(π/n))`,
/// hence dist(ellipse, X) ∈ [dist(poly, X) − s, dist(poly, X)] and
/// depth(ellipse, X) ∈ [depth(poly, X), depth(poly, X) + s].
pub fn ellipse_sagitta(rx: f64, ry: f64, n: usize) -> f64 {
    rx.max(ry) * (1.0 - (std::f64::consts::PI / n as f64).cos())
}

/// Replaces ellipses by their dense inscribed polygon (other shapes unchanged).
pub fn approximate(w: &World, n: usize) -> World {
    match *w {
        World::Ellipse { c, ux, rx, ry } => World::Poly(ellipse_polygon(c, ux, rx, ry, n)),
        ref other => other.clone(),
    }
}

pub fn radius(w: &World) -> f64 {
    match *w {
        World::Point(_, r) | World::Segment(_, _, r) | World::RoundPoly(_, r) => r,
        _ => 0.0,
    }
}

/// Core vertices (1 for a point, 2 for a segment, n for a polygon).
pub fn core_points(w: &World) -> Vec<DVec2> {
    match w {
        World::Point(p, _) => vec![*p],
        World::Segment(a, b, _) => vec![*a, *b],
        World::Poly(v) | World::RoundPoly(v, _) => v.clone(),
        World::Ellipse { .. } => panic!("approximate ellipses first"),
    }
}

/// Core edges as (start, end); a point is one degenerate edge, a segment one edge.
pub fn core_edges(w: &World) -> Vec<(DVec2, DVec2)> {
    let p = core_points(w);
    match p.len() {
        1 => vec![(p[0], p[0])],
        2 => vec![(p[0], p[1])],
        n => (0..n).map(|i| (p[i], p[(i + 1) % n])).collect(),
    }
}

/// Exact support value `max_{x ∈ shape} n·x` of the full (rounded) shape, `n` unit.
pub fn support_value(w: &World, n: DVec2) -> f64 {
    match *w {
        World::Point(p, r) => n.dot(p) + r,
        World::Segment(a, b, r) => n.dot(a).max(n.dot(b)) + r,
        World::Poly(ref v) => v.iter().map(|p| n.dot(*p)).fold(f64::MIN, f64::max),
        World::RoundPoly(ref v, r) => v.iter().map(|p| n.dot(*p)).fold(f64::MIN, f64::max) + r,
        World::Ellipse { c, ux, rx, ry } => {
            let (lx, ly) = (n.dot(ux), n.dot(ux.perp()));
            n.dot(c) + (rx * rx * lx * lx + ry * ry * ly * ly).sqrt()
        }
    }
}

/// How far B must move along the unit `n` to clear A: `h_A(n) + h_B(−n)`.
/// Exact for every shape kind (ellipses included), so it checks any claimed
/// penetration normal: the true depth is its minimum over `n`.
pub fn overlap_along(a: &World, b: &World, n: DVec2) -> f64 {
    support_value(a, n) + support_value(b, -n)
}

/// Closest point to `p` on segment `a..b`.
pub fn closest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let e = b - a;
    let ee = e.length_squared();
    if ee == 0.0 {
        return a;
    }
    let t = ((p - a).dot(e) / ee).clamp(0.0, 1.0);
    a + e * t
}

pub fn point_segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    (p - closest_on_segment(p, a, b)).length()
}

fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Distance between two segments and the closest points (on the first, on the
/// second). Zero when they cross.
pub fn segment_segment(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> (f64, DVec2, DVec2) {
    let (o1, o2) = (orient(a0, a1, b0), orient(a0, a1, b1));
    let (o3, o4) = (orient(b0, b1, a0), orient(b0, b1, a1));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        // Proper crossing: the intersection point on both.
        let t = o1 / (o1 - o2);
        let x = b0 + (b1 - b0) * t;
        return (0.0, x, x);
    }
    let mut best = (f64::INFINITY, a0, b0);
    for (p, a, b, p_on_a) in [
        (a0, b0, b1, true),
        (a1, b0, b1, true),
        (b0, a0, a1, false),
        (b1, a0, a1, false),
    ] {
        let q = closest_on_segment(p, a, b);
        let dd = (p - q).length();
        if dd < best.0 {
            best = if p_on_a { (dd, p, q) } else { (dd, q, p) };
        }
    }
    best
}

/// `true` when `p` is inside or on the counter-clockwise polygon.
pub fn point_in_polygon(p: DVec2, poly: &[DVec2]) -> bool {
    let n = poly.len();
    (0..n).all(|i| orient(poly[i], poly[(i + 1) % n], p) >= 0.0)
}

/// Brute-force distance between the cores and the closest points (zero when they
/// touch or overlap). When apart, the distance between convex polygons is the
/// minimum over vertex–edge point–segment distances both ways; segment–segment
/// distances include those and also cover crossing edges and degenerate cores.
pub fn core_distance(a: &World, b: &World) -> (f64, DVec2, DVec2) {
    let (pa, pb) = (core_points(a), core_points(b));
    if pa.len() >= 3 {
        if let Some(p) = pb.iter().find(|p| point_in_polygon(**p, &pa)) {
            return (0.0, *p, *p);
        }
    }
    if pb.len() >= 3 {
        if let Some(p) = pa.iter().find(|p| point_in_polygon(**p, &pb)) {
            return (0.0, *p, *p);
        }
    }
    let mut best = (f64::INFINITY, DVec2::ZERO, DVec2::ZERO);
    for (a0, a1) in core_edges(a) {
        for (b0, b1) in core_edges(b) {
            let r = segment_segment(a0, a1, b0, b1);
            if r.0 < best.0 {
                best = r;
            }
        }
    }
    best
}

/// Candidate MTV axes of the cores, each pointing from A toward B: A's outward
/// edge normals and B's inward ones (a segment contributes both perpendiculars).
fn core_axes(a: &World, b: &World) -> Vec<DVec2> {
    let mut axes = Vec::new();
    for (w, sign) in [(a, 1.0), (b, -1.0)] {
        let p = core_points(w);
        match p.len() {
            1 => {}
            2 => {
                let n = (p[1] - p[0]).perp().normalize_or_zero();
                if n != DVec2::ZERO {
                    axes.push(n);
                    axes.push(-n);
                }
            }
            k => {
                for i in 0..k {
                    let e = p[(i + 1) % k] - p[i];
                    // Right perpendicular of a CCW edge is the outward normal.
                    axes.push(DVec2::new(e.y, -e.x).normalize() * sign);
                }
            }
        }
    }
    axes
}

/// Index of the vertex of the convex polygon (or point, or segment) `pts` farthest
/// along `n`, by hill-climbing from `start`. The support of a convex polygon is
/// unimodal around the outline, so a local maximum is the global one (on a
/// plateau, every vertex of it is a maximum).
pub fn extreme(pts: &[DVec2], n: DVec2, start: usize) -> usize {
    let k = pts.len();
    if k <= 2 {
        return if k == 2 && n.dot(pts[1]) > n.dot(pts[0]) {
            1
        } else {
            0
        };
    }
    let mut i = start % k;
    let f = |j: usize| n.dot(pts[j]);
    loop {
        let (next, prev) = ((i + 1) % k, (i + k - 1) % k);
        if f(next) > f(i) {
            i = next;
        } else if f(prev) > f(i) {
            i = prev;
        } else {
            return i;
        }
    }
}

/// Generalised SAT on the cores: the largest signed separation over the candidate
/// axes (`> 0` apart, `≤ 0` overlapping with `-sep` the core depth), its axis, and
/// the gap to the best axis whose direction differs by more than [`SAME_AXIS_RAD`].
#[derive(Clone, Copy, Debug)]
pub struct CoreSat {
    pub sep: f64,
    pub normal: DVec2,
    pub gap: f64,
}

pub fn core_sat(a: &World, b: &World) -> Option<CoreSat> {
    let (pa, pb) = (core_points(a), core_points(b));
    let axes = core_axes(a, b);
    // Axes come in angular order per polygon, so hill-climbing from the previous
    // extreme vertex costs amortised O(1) (rotating calipers); the dense ellipse
    // polygons would make a full scan per axis quadratic.
    let (mut ia, mut ib) = (0, 0);
    let scored: Vec<(f64, DVec2)> = axes
        .iter()
        .map(|n| {
            ia = extreme(&pa, *n, ia);
            ib = extreme(&pb, -*n, ib);
            (n.dot(pb[ib]) - n.dot(pa[ia]), *n)
        })
        .collect();
    let (sep, normal) = scored.iter().copied().max_by(|x, y| x.0.total_cmp(&y.0))?;
    let cos_same = SAME_AXIS_RAD.cos();
    let second = scored
        .iter()
        .filter(|(_, n)| n.dot(normal) < cos_same)
        .map(|x| x.0)
        .fold(f64::NEG_INFINITY, f64::max);
    Some(CoreSat {
        sep,
        normal,
        gap: sep - second,
    })
}

/// The answer a correct narrowphase must give for one pair.
#[derive(Clone, Copy, Debug)]
pub struct Expected {
    /// Signed separation of the rounded shapes: distance when apart, minus the
    /// penetration depth when overlapping.
    pub sep: f64,
    /// The normal from A to B (closest-point direction or MTV axis).
    pub normal: DVec2,
    /// Whether `normal` is unique and well conditioned enough to check to 1e-3 rad.
    pub normal_checkable: bool,
}

/// Gap between the best and the second-best distinct SAT axes above which the MTV
/// direction counts as unique.
///
/// Justification: the tests accept any depth within `DEPTH_TOL = 1e-5` of the truth,
/// so an answer cannot be asked to tell apart two axes whose depths differ by less
/// than that. With a gap of ten times the tolerance, a solver whose final support
/// value along its normal is within the tolerance of the minimum cannot be sitting
/// on the second-best facet, whose depth already exceeds the minimum by the gap; it
/// must be on the best facet, where the normal is that facet's normal.
pub const UNIQUE_GAP: f64 = 1e-4;

/// Below this core distance a vertex–vertex closest-point direction is not checked:
/// the inputs are f32, so each point carries a rounding error of about
/// `1e-6` (for coordinates up to ~10), which turns the direction by up to
/// `1e-6 / distance` rad; at `1e-3` that is 1e-3 rad, the normal tolerance.
pub const WELL_CONDITIONED_DISTANCE: f64 = 1e-3;

/// Oracle for any pair whose cores are points, segments or polygons.
pub fn expected(a: &World, b: &World) -> Expected {
    let r = radius(a) + radius(b);
    let (cd, ca, cb) = core_distance(a, b);
    if cd > 0.0 {
        // Cores apart: the rounded shapes' closest points lie along the cores'
        // closest-point direction, whether or not the radii make them overlap.
        let n = (cb - ca) / cd;
        // The direction is well conditioned when one closest point is interior to
        // an edge (the normal is that edge's normal) or when the distance is large.
        let interior = |w: &World, p: DVec2| {
            core_points(w)
                .iter()
                .all(|v| (*v - p).length() > 1e-6 * (1.0 + v.length()))
        };
        let checkable = cd > WELL_CONDITIONED_DISTANCE || interior(a, ca) || interior(b, cb);
        return Expected {
            sep: cd - r,
            normal: n,
            normal_checkable: checkable,
        };
    }
    match core_sat(a, b) {
        Some(s) => Expected {
            sep: s.sep.min(0.0) - r,
            normal: s.normal,
            normal_checkable: s.gap > UNIQUE_GAP,
        },
        // Two coincident points: any direction is an MTV.
        None => Expected {
            sep: -r,
            normal: DVec2::X,
            normal_checkable: false,
        },
    }
}

// ---------------------------------------------------------------------------
// Random shapes and poses.

pub fn log_uniform(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    (rng.random_range(lo.ln()..hi.ln())).exp()
}

/// A random convex polygon: the hull of 3–16 random points in a stretched, rotated
/// box, of size 0.1–3 m and aspect ratio up to 8; sometimes a box or a regular
/// polygon. Always valid.
pub fn random_polygon(rng: &mut ChaCha8Rng) -> Shape {
    loop {
        let size = log_uniform(rng, 0.1, 3.0);
        let aspect = log_uniform(rng, 1.0, 8.0);
        let kind = rng.random_range(0..10);
        let pts: Vec<Vec2> = if kind == 0 {
            return Shape::rect(size, size / aspect);
        } else if kind == 1 {
            let n = rng.random_range(3..=32);
            let phase = rng.random_range(0.0..1.0f32);
            (0..n)
                .map(|k| {
                    let t = (k as f32 + phase) / n as f32 * std::f32::consts::TAU;
                    Vec2::new(t.cos(), t.sin() / aspect) * size
                })
                .collect()
        } else {
            let n = rng.random_range(3..=16);
            (0..n)
                .map(|_| {
                    Vec2::new(
                        rng.random_range(-1.0..1.0f32) * size,
                        rng.random_range(-1.0..1.0f32) * size / aspect,
                    )
                })
                .collect()
        };
        let rot = minkowski::Rot::from_angle(rng.random_range(-3.2..3.2f32));
        let off = Vec2::new(
            rng.random_range(-0.2..0.2f32),
            rng.random_range(-0.2..0.2f32),
        ) * size;
        let pts: Vec<Vec2> = pts.iter().map(|p| rot.apply(*p) + off).collect();
        if let Ok(s) = Shape::convex_hull(&pts) {
            return s;
        }
    }
}

/// A random rounded polygon: a [`random_polygon`] core grown by a radius from
/// 1% of the core's size to its size (0.001–3 m).
pub fn random_rounded_polygon(rng: &mut ChaCha8Rng) -> Shape {
    let Shape::Polygon(core) = random_polygon(rng) else {
        unreachable!("random_polygon gives polygons")
    };
    let size = core.bounding_radius();
    let radius = log_uniform(rng, 0.01 * size, size);
    Shape::RoundedPolygon { core, radius }
}

pub fn random_circle(rng: &mut ChaCha8Rng) -> Shape {
    Shape::circle(log_uniform(rng, 0.05, 2.0))
}

pub fn random_capsule(rng: &mut ChaCha8Rng) -> Shape {
    Shape::capsule(log_uniform(rng, 0.05, 2.0), log_uniform(rng, 0.05, 1.0))
}

pub fn random_ellipse(rng: &mut ChaCha8Rng) -> Shape {
    let a = log_uniform(rng, 0.1, 2.0);
    let aspect = log_uniform(rng, 1.0, 6.0);
    if rng.random_bool(0.5) {
        Shape::ellipse(a, a / aspect)
    } else {
        Shape::ellipse(a / aspect, a)
    }
}

/// Two poses whose origins are a random distance apart, from 0 to 1.2 × the sum of
/// the bounding radii, so that about half the pairs overlap.
pub fn random_poses(rng: &mut ChaCha8Rng, a: &Shape, b: &Shape) -> (Iso, Iso) {
    let xa = Iso::new(
        Vec2::new(
            rng.random_range(-5.0..5.0f32),
            rng.random_range(-5.0..5.0f32),
        ),
        rng.random_range(-3.2..3.2f32),
    );
    let reach = a.bounding_radius() + b.bounding_radius();
    let t = rng.random_range(0.0..std::f32::consts::TAU);
    let r = rng.random_range(0.0..1.2f32) * reach;
    let xb = Iso::new(
        xa.translation + Vec2::new(t.cos(), t.sin()) * r,
        rng.random_range(-3.2..3.2f32),
    );
    (xa, xb)
}

// ---------------------------------------------------------------------------
// The checks.

/// Tolerance on `intersects`: pairs closer than this to touching are not judged.
pub const INTERSECT_MARGIN: f64 = 1e-4;
/// Distance and depth tolerance (m).
pub const DIST_TOL: f64 = 1e-5;
/// Normal tolerance (rad).
pub const NORMAL_TOL: f64 = 1e-3;

pub fn angle_between(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b).atan2(a.dot(b)).abs()
}

/// Checks `intersects`, `distance` and `penetration` on one pair against `exp`,
/// with extra slack `slack_lo`/`slack_hi` on the signed separation (used for
/// ellipses: the truth lies in `[exp.sep - slack_lo, exp.sep + slack_hi]`).
pub fn check_against(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    exp: &Expected,
    slack_lo: f64,
    slack_hi: f64,
) -> Result<(), String> {
    let (wa, wb) = (world(a, xa), world(b, xb));
    let ctx = || format!("a={a:?} xa={xa:?} b={b:?} xb={xb:?} expected={exp:?}");
    let lo = exp.sep - slack_lo;
    let hi = exp.sep + slack_hi;

    let hit = narrowphase::intersects(a, xa, b, xb);
    if lo > INTERSECT_MARGIN && hit {
        return Err(format!("intersects=true but separated: {}", ctx()));
    }
    if hi < -INTERSECT_MARGIN && !hit {
        return Err(format!("intersects=false but overlapping: {}", ctx()));
    }

    match narrowphase::distance(a, xa, b, xb) {
        Some(c) => {
            let dist = c.distance as f64;
            if !(c.distance.is_finite() && c.normal.is_finite()) {
                return Err(format!("non-finite distance {c:?}: {}", ctx()));
            }
            if hi < -DIST_TOL {
                return Err(format!("distance {dist} on overlapping pair: {}", ctx()));
            }
            if dist < lo - DIST_TOL || dist > hi + DIST_TOL {
                return Err(format!("distance {dist}: {}", ctx()));
            }
            let n = d(c.normal);
            if (n.length() - 1.0).abs() > 1e-5 {
                return Err(format!("normal not unit {c:?}: {}", ctx()));
            }
            if exp.normal_checkable && slack_lo == 0.0 && angle_between(n, exp.normal) > NORMAL_TOL
            {
                return Err(format!(
                    "distance normal off by {} rad: {c:?} {}",
                    angle_between(n, exp.normal),
                    ctx()
                ));
            }
            // Witness points: p_b - p_a = distance * normal, and each on its surface.
            let (pa, pb) = (d(c.point_a), d(c.point_b));
            if (pb - pa - n * dist).length() > 2.0 * DIST_TOL {
                return Err(format!("witness points inconsistent {c:?}: {}", ctx()));
            }
            if (n.dot(pa) - support_value(&wa, n)).abs() > 2.0 * DIST_TOL
                || (n.dot(pb) + support_value(&wb, -n)).abs() > 2.0 * DIST_TOL
            {
                return Err(format!("witness points off the surfaces {c:?}: {}", ctx()));
            }
        }
        None => {
            if lo > DIST_TOL {
                return Err(format!("distance None on separated pair: {}", ctx()));
            }
        }
    }

    match narrowphase::penetration(a, xa, b, xb) {
        Some(p) => {
            let depth = p.depth as f64;
            if !(p.depth.is_finite() && p.normal.is_finite()) {
                return Err(format!("non-finite penetration {p:?}: {}", ctx()));
            }
            if lo > DIST_TOL {
                return Err(format!("penetration {p:?} on separated pair: {}", ctx()));
            }
            if -depth < lo - DIST_TOL || -depth > hi + DIST_TOL {
                return Err(format!("depth {depth} {p:?}: {}", ctx()));
            }
            let n = d(p.normal);
            if (n.length() - 1.0).abs() > 1e-5 {
                return Err(format!("normal not unit {p:?}: {}", ctx()));
            }
            if exp.normal_checkable && slack_lo == 0.0 && angle_between(n, exp.normal) > NORMAL_TOL
            {
                return Err(format!(
                    "penetration normal off by {} rad: {p:?} {}",
                    angle_between(n, exp.normal),
                    ctx()
                ));
            }
            // Exact check that moving B by depth·normal is what it takes along
            // that normal: the overlap along it equals the claimed depth.
            let along = overlap_along(&wa, &wb, n);
            if (along - depth).abs() > 2.0 * DIST_TOL {
                return Err(format!(
                    "overlap along the normal is {along}, depth {depth}: {}",
                    ctx()
                ));
            }
        }
        None => {
            if hi < -DIST_TOL {
                return Err(format!("penetration None on overlapping pair: {}", ctx()));
            }
        }
    }
    Ok(())
}

/// Checks a pair of non-ellipse shapes against the exact oracle.
pub fn check_pair(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Result<(), String> {
    let exp = expected(&world(a, xa), &world(b, xb));
    check_against(a, xa, b, xb, &exp, 0.0, 0.0)
}

/// Vertices of the ellipse approximation: 1024 gives a sagitta of at most
/// 4.7e-6·max(rx, ry), i.e. below 1e-5 for the generated sizes (≤ 2 m).
pub const ELLIPSE_VERTICES: usize = 1024;

/// Checks a pair where A and/or B may be an ellipse, against the dense polygon
/// approximation with the sagitta bound as extra one-sided slack.
pub fn check_pair_ellipse(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    n: usize,
) -> Result<(), String> {
    let (wa, wb) = (world(a, xa), world(b, xb));
    let s = |w: &World| match *w {
        World::Ellipse { rx, ry, .. } => ellipse_sagitta(rx, ry, n),
        _ => 0.0,
    };
    let slack = s(&wa) + s(&wb);
    let exp = expected(&approximate(&wa, n), &approximate(&wb, n));
    // The approximations are inside the ellipses, so the true signed separation
    // is below the approximate one by at most the summed sagittas.
    check_against(a, xa, b, xb, &exp, slack, 0.0)
}
