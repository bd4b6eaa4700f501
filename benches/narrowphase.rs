//! Narrowphase cost per query: `narrowphase::intersects`, `distance`,
//! `penetration` and `collide_uncached` (the manifold) on eight shape
//! pairings, each over a pool of 64 pre-generated pose pairs (mixed for
//! `intersects` and `collide`, separated for `distance`, overlapping for
//! `penetration`), plus SAT against GJK/EPA for the polygon pairings.
//!
//! The pools come from `benches/common/poses.rs`, which the parry2d comparison
//! bench (outside this repository, see docs/narrowphase.md) includes verbatim.
//!
//! Run: `cargo bench --bench narrowphase`. Each iteration is one query, cycling
//! through the pool, so criterion's time is the time per query.

use criterion::{criterion_group, criterion_main, Criterion};
use minkowski::{narrowphase, sat, Iso, Polygon, Shape, Vec2};
use std::hint::black_box;
use std::time::Duration;

#[allow(dead_code)]
mod poses {
    include!("common/poses.rs");
}
use poses::{octagon_points, pose_pool, Kind, PosePair};

fn iso(p: [f32; 3]) -> Iso {
    Iso::new(Vec2::new(p[0], p[1]), p[2])
}

fn octagon() -> Shape {
    let pts: Vec<Vec2> = octagon_points(1.0)
        .into_iter()
        .map(|[x, y]| Vec2::new(x, y))
        .collect();
    Shape::polygon(&pts).unwrap()
}

struct Pairing {
    name: &'static str,
    a: Shape,
    b: Shape,
    seed: u64,
    reach: f32,
    inner: f32,
}

fn pairings() -> Vec<Pairing> {
    let apothem = (std::f32::consts::PI / 8.0).cos();
    vec![
        Pairing {
            name: "8gon-8gon",
            a: octagon(),
            b: octagon(),
            seed: 1,
            reach: 2.0,
            inner: 2.0 * apothem,
        },
        Pairing {
            name: "box-box",
            a: Shape::rect(1.0, 0.5),
            b: Shape::rect(1.0, 0.5),
            seed: 2,
            reach: 2.0 * 1.25f32.sqrt(),
            inner: 1.0,
        },
        Pairing {
            name: "circle-polygon",
            a: Shape::circle(0.5),
            b: octagon(),
            seed: 3,
            reach: 1.5,
            inner: 0.5 + apothem,
        },
        Pairing {
            name: "capsule-capsule",
            a: Shape::capsule(1.0, 0.3),
            b: Shape::capsule(1.0, 0.3),
            seed: 4,
            reach: 2.6,
            inner: 0.6,
        },
        Pairing {
            name: "ellipse-polygon",
            a: Shape::ellipse(1.0, 0.5),
            b: octagon(),
            seed: 5,
            reach: 2.0,
            inner: 0.5 + apothem,
        },
        // Rounded boxes of the box's outer size: a 1.8 × 0.8 core grown by 0.1.
        Pairing {
            name: "rbox-rbox",
            a: rounded_box(),
            b: rounded_box(),
            seed: 6,
            reach: 2.0 * rounded_box().bounding_radius(),
            inner: 1.0,
        },
        Pairing {
            name: "box-rbox",
            a: Shape::rect(1.0, 0.5),
            b: rounded_box(),
            seed: 7,
            reach: 1.25f32.sqrt() + rounded_box().bounding_radius(),
            inner: 1.0,
        },
        Pairing {
            name: "circle-rbox",
            a: Shape::circle(0.5),
            b: rounded_box(),
            seed: 8,
            reach: 0.5 + rounded_box().bounding_radius(),
            inner: 1.0,
        },
    ]
}

fn rounded_box() -> Shape {
    Shape::rounded_rect(0.9, 0.4, 0.1)
}

fn pool(p: &Pairing, kind: Kind, salt: u64) -> Vec<(Iso, Iso)> {
    pose_pool(p.seed * 10 + salt, kind, p.reach, p.inner)
        .into_iter()
        .map(|(a, b): PosePair| (iso(a), iso(b)))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("narrowphase");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    for p in pairings() {
        let mixed = pool(&p, Kind::Mixed, 0);
        let separated = pool(&p, Kind::Separated, 1);
        let overlapping = pool(&p, Kind::Overlapping, 2);
        // The pools must be what they claim (guaranteed by construction; checked).
        assert!(separated
            .iter()
            .all(|(xa, xb)| narrowphase::distance(&p.a, xa, &p.b, xb).is_some()));
        assert!(overlapping
            .iter()
            .all(|(xa, xb)| narrowphase::penetration(&p.a, xa, &p.b, xb).is_some()));
        let (a, b) = (&p.a, &p.b);
        if std::env::var("DUMP").is_ok() {
            // Raw answers for comparing accuracy with other engines on the same pools.
            for (xa, xb) in &separated {
                let d = narrowphase::distance(a, xa, b, xb).map_or(0.0, |c| c.distance);
                println!("DUMP {} distance {d}", p.name);
            }
            for (xa, xb) in &overlapping {
                let d = narrowphase::penetration(a, xa, b, xb).map_or(0.0, |c| c.depth);
                println!("DUMP {} depth {d}", p.name);
            }
            continue;
        }

        let mut i = 0;
        g.bench_function(format!("intersects/{}", p.name), |bn| {
            bn.iter(|| {
                i = (i + 1) & 63;
                let (xa, xb) = &mixed[i];
                narrowphase::intersects(black_box(a), black_box(xa), black_box(b), black_box(xb))
            })
        });
        g.bench_function(format!("distance/{}", p.name), |bn| {
            bn.iter(|| {
                i = (i + 1) & 63;
                let (xa, xb) = &separated[i];
                narrowphase::distance(black_box(a), black_box(xa), black_box(b), black_box(xb))
            })
        });
        g.bench_function(format!("penetration/{}", p.name), |bn| {
            bn.iter(|| {
                i = (i + 1) & 63;
                let (xa, xb) = &overlapping[i];
                narrowphase::penetration(black_box(a), black_box(xa), black_box(b), black_box(xb))
            })
        });

        // The contact manifold (the public `collide`: GJK/EPA, no cache).
        g.bench_function(format!("collide/{}", p.name), |bn| {
            bn.iter(|| {
                i = (i + 1) & 63;
                let (xa, xb) = &mixed[i];
                narrowphase::collide_uncached(
                    black_box(a),
                    black_box(xa),
                    black_box(b),
                    black_box(xb),
                    0.02,
                )
            })
        });

        // SAT as an alternative fast path for polygon pairs: the boolean test on
        // the mixed pool, and the MTV on the overlapping pool.
        if let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) {
            let (pa, pb): (&Polygon, &Polygon) = (pa, pb);
            g.bench_function(format!("sat-intersects/{}", p.name), |bn| {
                bn.iter(|| {
                    i = (i + 1) & 63;
                    let (xa, xb) = &mixed[i];
                    sat::separation(black_box(pa), black_box(xa), black_box(pb), black_box(xb))
                        .separation
                        <= 0.0
                })
            });
            g.bench_function(format!("sat-penetration/{}", p.name), |bn| {
                bn.iter(|| {
                    i = (i + 1) & 63;
                    let (xa, xb) = &overlapping[i];
                    sat::separation(black_box(pa), black_box(xa), black_box(pb), black_box(xb))
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
