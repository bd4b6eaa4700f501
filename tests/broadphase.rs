//! Property tests of the sweep-and-prune broadphase against a brute-force O(n²) pair
//! set, on seeded random sequences of insert, move, teleport, remove, re-insert under
//! the same id, static flips, collision filters and invalid boxes. After every `update_pairs` the pair
//! set, the added and removed lists, the fat boxes and a query must all match the
//! brute force. Degenerate layouts get their own cases: identical boxes, boxes sharing
//! one coordinate, zero-size boxes, exactly touching boxes, coordinates near ±1e6 and
//! a mix of tiny and huge boxes.

use minkowski::broadphase::{PairFilter, SapConfig, SweepAndPrune};
use minkowski::{Aabb, Vec2};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Box layouts, each stressing a degenerate case of the sweep.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Random,
    Identical,
    SameX,
    SameY,
    ZeroSize,
    Touching,
    Huge,
    Mixed,
}

#[derive(Clone, Debug)]
enum Op {
    Insert(u32, Aabb, bool),
    Move(u32, Vec2),
    Teleport(u32, Aabb),
    Remove(u32),
    SetStatic(u32, bool),
    /// One of [`FILTERS`].
    SetFilter(u32, usize),
    Poison(u32),
    Query(Aabb),
    Step,
}

/// Filters the tests give bodies: everything, nothing (a sensor), Box2D's
/// `joint_grid` category (never with itself), a negative and a positive
/// group (the positive one with an empty mask: the group overrides it).
const FILTERS: [PairFilter; 5] = [
    PairFilter::ALL,
    PairFilter::NONE,
    PairFilter {
        category: 2,
        mask: !2,
        group: 0,
    },
    PairFilter {
        category: 1,
        mask: u32::MAX,
        group: -1,
    },
    PairFilter {
        category: 4,
        mask: 0,
        group: 3,
    },
];

fn bx(x0: f32, y0: f32, w: f32, h: f32) -> Aabb {
    Aabb::new(Vec2::new(x0, y0), Vec2::new(x0 + w, y0 + h))
}

/// Draws a box of the given layout from four uniform numbers in [0, 1).
fn make_box(kind: Kind, u: [f32; 4]) -> Aabb {
    let span = |t: f32, a: f32, b: f32| a + t * (b - a);
    let grid = |t: f32, n: i32| (t * n as f32).floor() - (n / 2) as f32;
    match kind {
        Kind::Random => bx(
            span(u[0], -20.0, 20.0),
            span(u[1], -20.0, 20.0),
            3.0 * u[2],
            3.0 * u[3],
        ),
        Kind::Identical => bx(1.0, 1.0, 2.0, 0.5),
        Kind::SameX => bx(0.0, span(u[1], -20.0, 20.0), 1.0, 3.0 * u[3]),
        Kind::SameY => bx(span(u[0], -20.0, 20.0), 0.0, 3.0 * u[2], 1.0),
        Kind::ZeroSize => bx(grid(u[0], 10), grid(u[1], 10), 0.0, 0.0),
        Kind::Touching => bx(
            grid(u[0], 12),
            grid(u[1], 12),
            grid(u[2], 4) + 2.0,
            grid(u[3], 4) + 2.0,
        ),
        Kind::Huge => {
            let side = if u[2] < 0.5 { -1.0e6 } else { 1.0e6 };
            let c = Vec2::new(
                side + span(u[0], -20.0, 20.0),
                -side + span(u[1], -20.0, 20.0),
            );
            Aabb::from_center(c, Vec2::new(1.0 + u[2], 1.0 + u[3]))
        }
        Kind::Mixed => {
            let size = if u[2] < 0.1 { 60.0 } else { 0.5 };
            bx(
                span(u[0], -30.0, 30.0),
                span(u[1], -30.0, 30.0),
                size * u[3],
                size * u[2] * 10.0,
            )
        }
    }
}

/// A small move for the layout; dyadic for touching boxes so touching stays exact.
fn make_delta(kind: Kind, u: [f32; 2]) -> Vec2 {
    match kind {
        Kind::Touching | Kind::ZeroSize => Vec2::new(
            (u[0] * 9.0).floor() * 0.25 - 1.0,
            (u[1] * 9.0).floor() * 0.25 - 1.0,
        ),
        Kind::SameX => Vec2::new(0.0, u[1] * 0.6 - 0.3),
        Kind::SameY => Vec2::new(u[0] * 0.6 - 0.3, 0.0),
        _ => Vec2::new(u[0] * 0.6 - 0.3, u[1] * 0.6 - 0.3),
    }
}

/// A configuration under which the layout keeps its degeneracy (zero-size fat boxes
/// need a zero margin; touching fat boxes need a dyadic one).
fn make_config(kind: Kind, pick: u32) -> SapConfig {
    let margin = match kind {
        Kind::ZeroSize => 0.0,
        Kind::Touching => [0.0, 0.25, 0.5][pick as usize % 3],
        _ => [0.0, 0.1, 0.5][pick as usize % 3],
    };
    let stretch = match kind {
        Kind::ZeroSize | Kind::Touching => 0.0,
        _ => [0.0, 1.0][(pick / 3) as usize % 2],
    };
    let lead = match kind {
        Kind::ZeroSize | Kind::Touching => 0.0,
        _ => [0.0, 2.0][(pick / 18) as usize % 2],
    };
    SapConfig {
        margin,
        velocity_stretch: stretch,
        lead,
        reevaluate_interval: [1, 3, 32][(pick / 6) as usize % 3],
        regions: pick % 7 != 0,
        crowd_cap: false,
        relative_motion: false,
    }
}

/// The caller's view of every body, and the brute-force checks.
struct Harness {
    sap: SweepAndPrune,
    tight: Vec<Option<(Aabb, bool)>>,
    filters: Vec<PairFilter>,
    previous: Vec<(u32, u32)>,
    queries: Vec<Aabb>,
}

impl Harness {
    /// The harness checks the exact pair set, so the crowd cap is off (the
    /// cap has its own test, `a_crowd_is_capped_then_completed`).
    fn new(config: SapConfig, ids: usize) -> Self {
        let config = SapConfig {
            crowd_cap: false,
            ..config
        };
        Harness {
            sap: SweepAndPrune::new(config),
            tight: vec![None; ids],
            filters: vec![PairFilter::ALL; ids],
            previous: Vec::new(),
            queries: Vec::new(),
        }
    }

    fn apply(&mut self, op: &Op) {
        match *op {
            Op::Insert(id, b, s) => {
                self.sap.insert(id, b, s);
                self.tight[id as usize] = Some((b, s));
                self.filters[id as usize] = PairFilter::ALL;
            }
            Op::Move(id, d) => {
                if let Some((b, _)) = self.tight[id as usize].as_mut() {
                    let moved = Aabb::new(b.min + d, b.max + d);
                    self.update(id, moved, d);
                }
            }
            Op::Teleport(id, b) => {
                if self.tight[id as usize].is_some() {
                    self.update(id, b, Vec2::ZERO);
                }
            }
            Op::Remove(id) => {
                self.sap.remove(id);
                self.tight[id as usize] = None;
            }
            Op::SetStatic(id, s) => {
                self.sap.set_static(id, s);
                if let Some(t) = self.tight[id as usize].as_mut() {
                    t.1 = s;
                }
            }
            Op::SetFilter(id, f) => {
                self.sap.set_filter(id, FILTERS[f]);
                if self.tight[id as usize].is_some() {
                    self.filters[id as usize] = FILTERS[f];
                }
            }
            Op::Poison(id) => {
                if self.tight[id as usize].is_some() {
                    self.update(
                        id,
                        Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE),
                        Vec2::ZERO,
                    );
                }
            }
            Op::Query(q) => {
                self.check_query(&q);
                self.queries.push(q);
            }
            Op::Step => {
                self.sap.update_pairs();
                self.check_step();
            }
        }
    }

    /// Updates a body and checks the no-churn rule: a body whose tight box stays in its
    /// fat box keeps that box unless it became far too large.
    fn update(&mut self, id: u32, tight: Aabb, d: Vec2) {
        let before = self.sap.fat_aabb(id);
        let remade = self.sap.update(id, tight, d);
        let after = self.sap.fat_aabb(id);
        if !remade {
            assert_eq!(before, after);
        }
        if before.is_none() && tight.is_valid() {
            assert!(remade, "an un-parked body must get a fat box");
        }
        if let Some(f) = after {
            assert!(f.contains(&tight), "fat {f:?} must contain tight {tight:?}");
            // Stretched by at least the step, the fat box holds the step's
            // sweep too, lead or not: the pair is found before the body
            // arrives.
            if self.sap.config().velocity_stretch >= 1.0 && d.is_finite() {
                let swept = Aabb::new(tight.min + d.min(Vec2::ZERO), tight.max + d.max(Vec2::ZERO));
                assert!(
                    f.contains(&swept),
                    "fat {f:?} must contain the sweep {swept:?}"
                );
            }
        }
        if let Some(t) = self.tight[id as usize].as_mut() {
            t.0 = tight;
        }
    }

    fn brute_pairs(&self) -> Vec<(u32, u32)> {
        let fat: Vec<Option<(Aabb, bool)>> = (0..self.tight.len() as u32)
            .map(|i| {
                self.sap
                    .fat_aabb(i)
                    .map(|f| (f, self.tight[i as usize].unwrap().1))
            })
            .collect();
        let mut out = Vec::new();
        for i in 0..fat.len() {
            for j in i + 1..fat.len() {
                if let (Some((a, sa)), Some((b, sb))) = (fat[i], fat[j]) {
                    let accepted = self.filters[i].accepts(&self.filters[j]);
                    if !(sa && sb) && accepted && a.overlaps(&b) {
                        out.push((i as u32, j as u32));
                    }
                }
            }
        }
        out
    }

    fn check_query(&self, q: &Aabb) {
        let mut got = Vec::new();
        self.sap.query(q, &mut got);
        let want: Vec<u32> = (0..self.tight.len() as u32)
            .filter(|&i| self.sap.fat_aabb(i).is_some_and(|f| f.overlaps(q)))
            .collect();
        assert_eq!(got, want, "query {q:?}");
    }

    fn check_step(&mut self) {
        let present = self.tight.iter().filter(|t| t.is_some()).count();
        assert_eq!(self.sap.len(), present);
        for (i, t) in self.tight.iter().enumerate() {
            let fat = self.sap.fat_aabb(i as u32);
            match t {
                Some((b, _)) if b.is_valid() => assert!(fat.is_some_and(|f| f.contains(b))),
                _ => assert_eq!(fat, None),
            }
        }
        let want = self.brute_pairs();
        assert_eq!(self.sap.pairs(), want.as_slice(), "pair set");
        let added: Vec<_> = want
            .iter()
            .filter(|p| self.previous.binary_search(p).is_err())
            .copied()
            .collect();
        let removed: Vec<_> = self
            .previous
            .iter()
            .filter(|p| want.binary_search(p).is_err())
            .copied()
            .collect();
        assert_eq!(self.sap.added(), added.as_slice(), "added");
        assert_eq!(self.sap.removed(), removed.as_slice(), "removed");
        for q in &self.queries {
            self.check_query(q);
        }
        self.previous = want;
    }
}

const IDS: u32 = 24;

fn arb_op(kind: Kind) -> impl Strategy<Value = Op> {
    let unit = || 0.0f32..1.0;
    let abox = move || [unit(), unit(), unit(), unit()].prop_map(move |u| make_box(kind, u));
    prop_oneof![
        3 => (0..IDS, abox(), prop::bool::weighted(0.2)).prop_map(|(i, b, s)| Op::Insert(i, b, s)),
        5 => (0..IDS, [unit(), unit()]).prop_map(move |(i, u)| Op::Move(i, make_delta(kind, u))),
        1 => (0..IDS, abox()).prop_map(|(i, b)| Op::Teleport(i, b)),
        1 => (0..IDS).prop_map(Op::Remove),
        1 => (0..IDS, any::<bool>()).prop_map(|(i, s)| Op::SetStatic(i, s)),
        1 => (0..IDS, 0..FILTERS.len()).prop_map(|(i, f)| Op::SetFilter(i, f)),
        1 => (0..IDS).prop_map(Op::Poison),
        1 => abox().prop_map(|b| Op::Query(b.expanded(1.0))),
        4 => Just(Op::Step),
    ]
}

fn run_ops(kind: Kind, pick: u32, ops: &[Op]) {
    let mut h = Harness::new(make_config(kind, pick), IDS as usize);
    for op in ops {
        h.apply(op);
    }
    h.apply(&Op::Step);
}

macro_rules! layout_property {
    ($name:ident, $kind:expr) => {
        proptest! {
                #![proptest_config(ProptestConfig {
            cases: 96,
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x4d4b_0004),
            ..ProptestConfig::default()
        })]
                #[test]
                fn $name(pick in 0u32..64, ops in prop::collection::vec(arb_op($kind), 1..160)) {
                    run_ops($kind, pick, &ops);
                }
            }
    };
}

layout_property!(random_boxes_match_brute_force, Kind::Random);
layout_property!(identical_boxes_match_brute_force, Kind::Identical);
layout_property!(boxes_sharing_x_match_brute_force, Kind::SameX);
layout_property!(boxes_sharing_y_match_brute_force, Kind::SameY);
layout_property!(zero_size_boxes_match_brute_force, Kind::ZeroSize);
layout_property!(touching_boxes_match_brute_force, Kind::Touching);
layout_property!(coordinates_near_1e6_match_brute_force, Kind::Huge);
layout_property!(mixed_sizes_match_brute_force, Kind::Mixed);

/// A long seeded sequence: a few hundred bodies random-walking, with teleports,
/// removals and re-insertions under the same id, static flips and invalid boxes.
fn long_sequence(kind: Kind, seed: u64, bodies: u32, steps: usize) -> Vec<Op> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let u4 = |rng: &mut ChaCha8Rng| [0; 4].map(|_: i32| rng.random_range(0.0f32..1.0));
    let mut ops = Vec::new();
    for id in 0..bodies {
        let b = make_box(kind, u4(&mut rng));
        ops.push(Op::Insert(id, b, rng.random_bool(0.1)));
    }
    ops.push(Op::Step);
    for _ in 0..steps {
        for id in 0..bodies {
            let r = rng.random_range(0.0f32..1.0);
            let op = if r < 0.03 {
                Op::Teleport(id, make_box(kind, u4(&mut rng)))
            } else if r < 0.04 {
                Op::Remove(id)
            } else if r < 0.05 {
                Op::Insert(id, make_box(kind, u4(&mut rng)), rng.random_bool(0.1))
            } else if r < 0.055 {
                Op::SetStatic(id, rng.random_bool(0.5))
            } else if r < 0.057 {
                Op::Poison(id)
            } else if r < 0.06 {
                Op::SetFilter(id, rng.random_range(0..FILTERS.len()))
            } else {
                let u = [rng.random_range(0.0f32..1.0), rng.random_range(0.0f32..1.0)];
                Op::Move(id, make_delta(kind, u) * 0.2)
            };
            ops.push(op);
        }
        ops.push(Op::Step);
    }
    ops
}

#[test]
fn long_seeded_sequences_match_brute_force() {
    let kinds = [
        Kind::Random,
        Kind::Touching,
        Kind::Huge,
        Kind::Mixed,
        Kind::SameX,
    ];
    for (seed, kind) in kinds.into_iter().enumerate() {
        let ops = long_sequence(kind, seed as u64, 300, 60);
        let mut h = Harness::new(make_config(kind, seed as u32 + 1), 300);
        h.queries
            .push(make_box(kind, [0.5, 0.5, 0.9, 0.9]).expanded(5.0));
        for op in &ops {
            h.apply(op);
        }
    }
}

/// A crowd of 300 boxes on one spot: with the cap, the pairs are a subset of
/// the overlapping ones and at most the cap per box; the capped boxes keep
/// looking, and once the crowd has spread out the pair set is exact again.
#[test]
fn a_crowd_is_capped_then_completed() {
    use minkowski::broadphase::MAX_PAIRS_PER_BODY;
    let n = 300u32;
    let mut sap = SweepAndPrune::new(SapConfig::default());
    let mut exact = SweepAndPrune::new(SapConfig {
        crowd_cap: false,
        ..SapConfig::default()
    });
    for i in 0..n {
        let b = bx(0.0, 0.0, 1.0, 1.0);
        sap.insert(i, b, false);
        exact.insert(i, b, false);
    }
    sap.insert(n, bx(-50.0, -2.0, 100.0, 1.0), true);
    exact.insert(n, bx(-50.0, -2.0, 100.0, 1.0), true);
    sap.update_pairs();
    exact.update_pairs();
    let all = exact.pairs();
    assert_eq!(all.len(), (n * (n - 1) / 2) as usize);
    assert!(sap.capped() > 0);
    assert!(sap.pairs().iter().all(|p| all.binary_search(p).is_ok()));
    assert!(sap.pairs().len() <= n as usize * MAX_PAIRS_PER_BODY as usize);
    // The crowd spreads onto a line, one box per 2 m: few overlaps remain.
    for i in 0..n {
        let b = bx(i as f32 * 2.0 - 300.0, 0.0, 1.0, 1.0);
        sap.update(i, b, Vec2::ZERO);
        exact.update(i, b, Vec2::ZERO);
    }
    sap.update_pairs();
    exact.update_pairs();
    sap.update_pairs();
    assert_eq!(sap.capped(), 0);
    assert_eq!(sap.pairs(), exact.pairs());
}

/// Bodies drift from a horizontal line to a vertical one, so the sweep axis must flip
/// and the regions be rebuilt while pairs keep matching.
#[test]
fn axis_flip_keeps_pairs_exact() {
    let n = 200u32;
    let mut h = Harness::new(
        SapConfig {
            reevaluate_interval: 4,
            ..SapConfig::default()
        },
        n as usize,
    );
    let place = |i: u32, t: f32| {
        let a = i as f32 * 0.9 - 90.0;
        bx(a * (1.0 - t), a * t, 1.0, 1.0)
    };
    for i in 0..n {
        h.apply(&Op::Insert(i, place(i, 0.0), false));
    }
    h.apply(&Op::Step);
    let first = h.sap.sweep_axis();
    for step in 1..=50 {
        let t = step as f32 / 50.0;
        for i in 0..n {
            let old = h.tight[i as usize].unwrap().0;
            let new = place(i, t);
            h.update(i, new, new.min - old.min);
        }
        h.apply(&Op::Step);
    }
    assert_ne!(first, h.sap.sweep_axis());
}

/// Clones and serde snapshots continue exactly like the original.
#[test]
fn snapshots_continue_identically() {
    let ops = long_sequence(Kind::Random, 99, 150, 40);
    let (head, tail) = ops.split_at(ops.len() / 2);
    let mut a = Harness::new(make_config(Kind::Random, 10), 150);
    for op in head {
        a.apply(op);
    }
    let text = ron::to_string(&a.sap).expect("serialize");
    let mut b = Harness::new(SapConfig::default(), 150);
    b.sap = ron::from_str(&text).expect("deserialize");
    b.tight = a.tight.clone();
    b.filters = a.filters.clone();
    b.previous = a.previous.clone();
    let mut c = Harness::new(SapConfig::default(), 150);
    c.sap = a.sap.clone();
    c.tight = a.tight.clone();
    c.filters = a.filters.clone();
    c.previous = a.previous.clone();
    for op in tail {
        a.apply(op);
        b.apply(op);
        c.apply(op);
        if matches!(op, Op::Step) {
            assert_eq!(a.sap.pairs(), b.sap.pairs());
            assert_eq!(a.sap.added(), b.sap.added());
            assert_eq!(a.sap.pairs(), c.sap.pairs());
        }
    }
}

/// Regression: a fast body's fat box must cover where it will be after this
/// step, even while its tight box is still inside the old fat box; otherwise the
/// speculative contact that stops it is never created and it tunnels.
#[test]
fn fast_body_pair_appears_before_it_arrives() {
    use minkowski::broadphase::{SapConfig, SweepAndPrune};
    use minkowski::{Aabb, Vec2};
    let mut sap = SweepAndPrune::new(SapConfig::default());
    let unit = |x: f32| Aabb::new(Vec2::new(x - 0.1, -0.1), Vec2::new(x + 0.1, 0.1));
    sap.insert(0, unit(0.0), false);
    sap.insert(
        1,
        Aabb::new(Vec2::new(9.9, -5.0), Vec2::new(10.1, 5.0)),
        true,
    );
    let step = Vec2::new(5.0, 0.0);
    sap.update(0, unit(0.0), step);
    sap.update_pairs();
    assert!(sap.pairs().is_empty());
    // Halfway there: still inside the first fat box, but the next step reaches the wall.
    sap.update(0, unit(5.0), step);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1)]);
}
