//! Exact geometry in f64 for the cast and time-of-impact oracles, written
//! apart from the library: every shape is known by its support function in
//! closed form, the signed distance of two convex shapes is the largest
//! separation over all directions (the dual of the distance), and rays enter
//! shapes by their pieces (discs, a slab box, polygon edges).

use minkowski::{Iso, Shape};
use std::f64::consts::TAU;

pub type V = [f64; 2];

pub fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1]]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1]]
}
fn scale(a: V, k: f64) -> V {
    [a[0] * k, a[1] * k]
}
fn cross(a: V, b: V) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// A shape's core and rounding radius.
#[derive(Clone, Debug)]
pub enum Core {
    Point,
    /// The segment (0, -h)..(0, h).
    Segment(f64),
    /// Counter-clockwise vertices.
    Polygon(Vec<V>),
    Ellipse(f64, f64),
}

#[derive(Clone, Debug)]
pub struct S64 {
    pub core: Core,
    pub radius: f64,
}

impl S64 {
    pub fn of(shape: &Shape) -> S64 {
        match shape {
            Shape::Circle { radius } => S64 {
                core: Core::Point,
                radius: *radius as f64,
            },
            Shape::Capsule {
                half_height,
                radius,
            } => S64 {
                core: Core::Segment(*half_height as f64),
                radius: *radius as f64,
            },
            Shape::Ellipse { rx, ry } => S64 {
                core: Core::Ellipse(*rx as f64, *ry as f64),
                radius: 0.0,
            },
            Shape::Polygon(p) => S64 {
                core: Core::Polygon(
                    p.vertices()
                        .iter()
                        .map(|v| [v.x as f64, v.y as f64])
                        .collect(),
                ),
                radius: 0.0,
            },
            // A segment's support is its two ends, as a two-point hull's.
            Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => S64 {
                core: Core::Polygon(vec![[a.x as f64, a.y as f64], [b.x as f64, b.y as f64]]),
                radius: 0.0,
            },
            Shape::RoundedPolygon { core, radius } => S64 {
                core: Core::Polygon(
                    core.vertices()
                        .iter()
                        .map(|v| [v.x as f64, v.y as f64])
                        .collect(),
                ),
                radius: *radius as f64,
            },
        }
    }

    pub fn point() -> S64 {
        S64 {
            core: Core::Point,
            radius: 0.0,
        }
    }

    /// Support value of the core along the local direction `v` (any length).
    fn core_support(&self, v: V) -> f64 {
        match &self.core {
            Core::Point => 0.0,
            Core::Segment(h) => h * v[1].abs(),
            Core::Polygon(vs) => vs
                .iter()
                .map(|p| dot(*p, v))
                .fold(f64::NEG_INFINITY, f64::max),
            Core::Ellipse(rx, ry) => ((rx * v[0]).powi(2) + (ry * v[1]).powi(2)).sqrt(),
        }
    }

    /// Support value along the unit world direction `u` of the shape at `p`.
    pub fn support(&self, p: &Pose, u: V) -> f64 {
        dot(u, p.t) + self.core_support(p.to_local_dir(u)) + self.radius
    }
}

/// A rigid pose in f64 with an exactly unit rotation.
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    pub t: V,
    pub c: f64,
    pub s: f64,
}

impl Pose {
    pub fn of(xf: &Iso) -> Pose {
        let (c, s) = (xf.rot.cos as f64, xf.rot.sin as f64);
        let n = (c * c + s * s).sqrt();
        Pose {
            t: [xf.translation.x as f64, xf.translation.y as f64],
            c: c / n,
            s: s / n,
        }
    }

    pub fn new(t: V, angle: f64) -> Pose {
        Pose {
            t,
            c: angle.cos(),
            s: angle.sin(),
        }
    }

    pub fn moved(&self, d: V) -> Pose {
        Pose {
            t: add(self.t, d),
            ..*self
        }
    }

    pub fn to_local_dir(self, u: V) -> V {
        [
            self.c * u[0] + self.s * u[1],
            -self.s * u[0] + self.c * u[1],
        ]
    }

    pub fn to_local(self, p: V) -> V {
        self.to_local_dir(sub(p, self.t))
    }

    pub fn rotate(&self, v: V) -> V {
        [self.c * v[0] - self.s * v[1], self.s * v[0] + self.c * v[1]]
    }
}

/// The largest value of `g` over the circle of directions: a grid, then a
/// golden-section search about each of the two best local maxima.
fn max_over_directions(g: impl Fn(f64) -> f64) -> f64 {
    const N: usize = 128;
    let step = TAU / N as f64;
    let vals: Vec<f64> = (0..N).map(|i| g(step * i as f64)).collect();
    let mut peaks: Vec<usize> = (0..N)
        .filter(|&i| vals[i] >= vals[(i + N - 1) % N] && vals[i] >= vals[(i + 1) % N])
        .collect();
    peaks.sort_by(|&a, &b| vals[b].total_cmp(&vals[a]));
    let mut best = vals.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    for &i in peaks.iter().take(2) {
        let (mut lo, mut hi) = (step * i as f64 - step, step * i as f64 + step);
        let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
        let (mut f1, mut f2) = (g(x1), g(x2));
        for _ in 0..48 {
            if f1 < f2 {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + r * (hi - lo);
                f2 = g(x2);
            } else {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - r * (hi - lo);
                f1 = g(x1);
            }
        }
        best = best.max(f1).max(f2);
    }
    best
}

/// Signed distance of two shapes (m): the gap when apart, minus the
/// penetration depth when they overlap.
pub fn signed_distance(a: &S64, pa: &Pose, b: &S64, pb: &Pose) -> f64 {
    max_over_directions(|phi| {
        let u = [phi.cos(), phi.sin()];
        -a.support(pa, u) - b.support(pb, [-u[0], -u[1]])
    })
}

/// Signed distance of a point from a shape's surface (negative inside).
pub fn point_distance(a: &S64, pa: &Pose, p: V) -> f64 {
    signed_distance(a, pa, &S64::point(), &Pose::new(p, 0.0))
}

/// Where a function convex on `[lo, hi]` is least, and its value there (golden section).
pub fn convex_min(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..64 {
        if f1 > f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = f(x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = f(x1);
        }
    }
    let (fl, fh) = (f(lo), f(hi));
    let mut best = (x1, f1);
    for (x, v) in [(x2, f2), (lo, fl), (hi, fh)] {
        if v < best.1 {
            best = (x, v);
        }
    }
    best
}

/// The root of `f` in `[lo, hi]` with `f(lo) > 0 ≥ f(hi)`, by bisection.
pub fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Entry parameter of the ray `o + t d` (`t ≥ 0`) into the disc of radius `r`
/// about `c`; 0 when it starts inside.
fn disc_entry(o: V, d: V, c: V, r: f64) -> Option<f64> {
    let m = sub(o, c);
    let cc = dot(m, m) - r * r;
    if cc <= 0.0 {
        return Some(0.0);
    }
    let (a, b) = (dot(d, d), dot(m, d));
    if b >= 0.0 {
        return None;
    }
    let disc = b * b - a * cc;
    if disc < 0.0 {
        return None;
    }
    // The smaller root, in the form that does not cancel.
    Some(cc / (-b + disc.sqrt()))
}

/// Entry parameter into the box `|x| ≤ hx, |y| ≤ hy` (slabs).
fn box_entry(o: V, d: V, hx: f64, hy: f64) -> Option<f64> {
    let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
    for (oi, di, h) in [(o[0], d[0], hx), (o[1], d[1], hy)] {
        if di == 0.0 {
            if oi.abs() > h {
                return None;
            }
        } else {
            let (t1, t2) = ((-h - oi) / di, (h - oi) / di);
            lo = lo.max(t1.min(t2));
            hi = hi.min(t1.max(t2));
        }
    }
    (lo <= hi).then_some(lo)
}

/// Entry parameter into a convex polygon: 0 inside, else the first crossing
/// of an edge segment.
fn polygon_entry(o: V, d: V, vs: &[V]) -> Option<f64> {
    let n = vs.len();
    let inside = (0..n).all(|i| cross(sub(vs[(i + 1) % n], vs[i]), sub(o, vs[i])) >= 0.0);
    if inside {
        return Some(0.0);
    }
    let mut best: Option<f64> = None;
    for i in 0..n {
        let (p, e) = (vs[i], sub(vs[(i + 1) % n], vs[i]));
        let den = cross(d, e);
        if den == 0.0 {
            continue;
        }
        // o + t d = p + s e.
        let w = sub(p, o);
        let t = cross(w, e) / den;
        let s = cross(w, d) / den;
        if t >= 0.0 && (0.0..=1.0).contains(&s) && best.is_none_or(|b| t < b) {
            best = Some(t);
        }
    }
    best
}

/// Entry parameter of the ray `o + t d` (world, `d` any length) into the shape.
pub fn ray_entry(a: &S64, pa: &Pose, o: V, d: V) -> Option<f64> {
    let (o, d) = (pa.to_local(o), pa.to_local_dir(d));
    let r = a.radius;
    match &a.core {
        Core::Point => disc_entry(o, d, [0.0, 0.0], r),
        Core::Ellipse(rx, ry) => disc_entry(
            [o[0] / rx, o[1] / ry],
            [d[0] / rx, d[1] / ry],
            [0.0, 0.0],
            1.0,
        ),
        Core::Segment(h) => [
            disc_entry(o, d, [0.0, *h], r),
            disc_entry(o, d, [0.0, -h], r),
            box_entry(o, d, r, *h),
        ]
        .into_iter()
        .flatten()
        .reduce(f64::min),
        Core::Polygon(vs) => polygon_entry(o, d, vs),
    }
}

pub fn at(o: V, d: V, t: f64) -> V {
    add(o, scale(d, t))
}
