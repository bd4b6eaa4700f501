//! One million hostile pairs through GJK/EPA and through the narrowphase
//! dispatch, in thirteen seeded categories (see `adversarial/cases.rs`).
//!
//! Every pair must give, at both levels (`gjk::intersects`/`epa::penetration`
//! and `narrowphase::intersects`/`narrowphase::penetration`):
//! - no panic and no non-finite output;
//! - `intersects` ⇔ `penetration` is `Some` (the contract);
//! - a depth that separates: moving B by `depth + 1e-3 × scale` along the normal
//!   clears the pair, judged by the exact support functions in f64
//!   (`common::overlap_along`), which share no code with the library;
//! - no phantom contact (a separating axis clearer than the margin while
//!   `penetration` says `Some`), no missed one (`None` while every sampled axis
//!   overlaps by more than the margin), and no depth deeper than the best sampled
//!   axis by more than the margin.
//!
//! `scale` is the larger bounding radius of the pair. The run is a million pairs
//! in release builds and 26,000 in debug builds.

#[path = "adversarial/cases.rs"]
mod cases;
mod common;

use cases::{generate, Case, CATEGORIES};
use common::{overlap_along, world, World};
use glam::DVec2;
use minkowski::{epa, gjk, narrowphase, Shape, Vec2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

const MARGIN: f64 = 1e-3;

#[derive(Default, Clone, Copy, Debug)]
struct Tally {
    cases: usize,
    /// Largest `(needed − depth) / scale` seen (negative: every depth had room).
    worst_short: f64,
    /// Largest `(depth − best axis) / scale` seen.
    worst_deep: f64,
    panics: usize,
    non_finite: usize,
    disagree: usize,
    not_separating: usize,
    phantom: usize,
    missed: usize,
    too_deep: usize,
}

impl Tally {
    fn failures(&self) -> usize {
        self.panics
            + self.non_finite
            + self.disagree
            + self.not_separating
            + self.phantom
            + self.missed
            + self.too_deep
    }
}

fn dv(v: Vec2) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64)
}

/// Candidate axes: the polygons' edge normals, the capsules' side normals, 256
/// even directions, and a refinement around the best of them (curved shapes).
fn best_axis(a: &World, b: &World, extra: Option<DVec2>) -> (f64, f64) {
    let mut dirs: Vec<DVec2> = Vec::with_capacity(300);
    for w in [a, b] {
        match w {
            World::Poly(v) | World::RoundPoly(v, _) => {
                for i in 0..v.len() {
                    let e = v[(i + 1) % v.len()] - v[i];
                    if e.length() > 0.0 {
                        let n = DVec2::new(e.y, -e.x).normalize();
                        dirs.push(n);
                        dirs.push(-n);
                    }
                }
            }
            World::Segment(p, q, _) => {
                let e = *q - *p;
                if e.length() > 0.0 {
                    let n = e.perp().normalize();
                    dirs.push(n);
                    dirs.push(-n);
                }
            }
            _ => {}
        }
    }
    let even = 256;
    for k in 0..even {
        let t = k as f64 / even as f64 * std::f64::consts::TAU;
        dirs.push(DVec2::new(t.cos(), t.sin()));
    }
    if let Some(n) = extra {
        dirs.push(n);
    }
    let f = |t: f64| overlap_along(a, b, DVec2::new(t.cos(), t.sin()));
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut arg = 0.0;
    for n in &dirs {
        let s = overlap_along(a, b, *n);
        if s < lo {
            lo = s;
            arg = n.y.atan2(n.x);
        }
        hi = hi.max(s);
    }
    // Golden-section search within ±2 steps of the best direction.
    let step = std::f64::consts::TAU / even as f64;
    let (mut l, mut r) = (arg - 2.0 * step, arg + 2.0 * step);
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..60 {
        let m1 = r - g * (r - l);
        let m2 = l + g * (r - l);
        if f(m1) < f(m2) {
            r = m2;
        } else {
            l = m1;
        }
        lo = lo.min(f(m1)).min(f(m2));
    }
    (lo, hi)
}

/// Checks one level (`intersects`, `penetration`) of one case.
fn judge(
    t: &mut Tally,
    c: &Case,
    meets: bool,
    pen: Option<minkowski::epa::Penetration>,
) -> Option<(&'static str, String)> {
    let (wa, wb) = (world(&c.a, &c.xa), world(&c.b, &c.xb));
    let scale = c.a.bounding_radius().max(c.b.bounding_radius()) as f64;
    let margin = MARGIN * scale;
    if meets != pen.is_some() {
        t.disagree += 1;
        return Some((
            "disagree",
            format!("intersects {meets} but penetration {pen:?}"),
        ));
    }
    match pen {
        Some(p) => {
            let finite = p.depth.is_finite()
                && p.normal.is_finite()
                && p.point_a.is_finite()
                && p.point_b.is_finite();
            if !finite || (p.normal.length() - 1.0).abs() > 1e-3 || p.depth < 0.0 {
                t.non_finite += 1;
                return Some(("non_finite", format!("bad output {p:?}")));
            }
            let n = dv(p.normal).normalize();
            let need = overlap_along(&wa, &wb, n);
            t.worst_short = t.worst_short.max((need - p.depth as f64) / scale);
            if p.depth as f64 + margin < need {
                t.not_separating += 1;
                return Some((
                    "not_separating",
                    format!("depth {} but {need} needed along {n}", p.depth),
                ));
            }
            let (best, _) = best_axis(&wa, &wb, Some(n));
            if best < -margin {
                t.phantom += 1;
                return Some(("phantom", format!("apart by {} yet {p:?}", -best)));
            }
            t.worst_deep = t.worst_deep.max((p.depth as f64 - best) / scale);
            if p.depth as f64 > best + margin {
                t.too_deep += 1;
                return Some(("too_deep", format!("depth {} but {best} suffices", p.depth)));
            }
        }
        None => {
            let (best, _) = best_axis(&wa, &wb, None);
            if best > margin {
                t.missed += 1;
                return Some(("missed", format!("overlap {best} missed")));
            }
        }
    }
    None
}

fn describe(c: &Case) -> String {
    format!("A {:?} at {:?}\n  B {:?} at {:?}", c.a, c.xa, c.b, c.xb)
}

fn run_level(
    t: &mut Tally,
    c: &Case,
    level: &str,
    f: impl Fn(&Shape, &minkowski::Iso, &Shape, &minkowski::Iso) -> (bool, Option<epa::Penetration>),
    examples: &mut BTreeMap<String, String>,
) {
    match catch_unwind(AssertUnwindSafe(|| f(&c.a, &c.xa, &c.b, &c.xb))) {
        Err(_) => {
            t.panics += 1;
            examples
                .entry(format!("{level}: panic"))
                .or_insert_with(|| describe(c));
        }
        Ok((meets, pen)) => {
            if let Some((kind, why)) = judge(t, c, meets, pen) {
                examples
                    .entry(format!("{level}: {kind}"))
                    .or_insert_with(|| format!("{why}\n  {}", describe(c)));
            }
        }
    }
}

#[test]
fn a_million_hostile_pairs() {
    let per_category = if cfg!(debug_assertions) {
        2_000
    } else {
        76_924
    };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut report = String::new();
    let mut total = Tally::default();
    let mut examples = BTreeMap::new();
    for (cat, name) in CATEGORIES.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(0xadd5_0000 + cat as u64);
        let mut raw = Tally::default();
        let mut dispatched = Tally::default();
        for _ in 0..per_category {
            let c = generate(cat, &mut rng);
            raw.cases += 1;
            dispatched.cases += 1;
            run_level(
                &mut raw,
                &c,
                &format!("{name} gjk/epa"),
                |a, xa, b, xb| {
                    (
                        gjk::intersects(a, xa, b, xb),
                        epa::penetration(a, xa, b, xb),
                    )
                },
                &mut examples,
            );
            run_level(
                &mut dispatched,
                &c,
                &format!("{name} narrowphase"),
                |a, xa, b, xb| {
                    (
                        narrowphase::intersects(a, xa, b, xb),
                        narrowphase::penetration(a, xa, b, xb),
                    )
                },
                &mut examples,
            );
        }
        for (level, t) in [("gjk/epa", raw), ("narrowphase", dispatched)] {
            report += &format!("{name:>20} {level:>12}: {t:?}\n");
            total.cases += t.cases;
            total.panics += t.panics;
            total.non_finite += t.non_finite;
            total.disagree += t.disagree;
            total.not_separating += t.not_separating;
            total.phantom += t.phantom;
            total.missed += t.missed;
            total.too_deep += t.too_deep;
            total.worst_short = total.worst_short.max(t.worst_short);
            total.worst_deep = total.worst_deep.max(t.worst_deep);
        }
    }
    std::panic::set_hook(hook);
    println!("{report}");
    println!("total: {total:?}");
    assert!(
        total.failures() == 0,
        "{report}\ntotal {total:?}\nexamples:\n{}",
        examples
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
