use super::*;

fn bx(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
}

fn tight_config() -> SapConfig {
    SapConfig {
        margin: 0.0,
        velocity_stretch: 0.0,
        ..SapConfig::default()
    }
}

#[test]
fn touching_boxes_pair() {
    let mut sap = SweepAndPrune::new(tight_config());
    sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), false);
    sap.insert(1, bx(1.0, 0.0, 2.0, 1.0), false);
    sap.insert(2, bx(0.0, 1.0, 1.0, 2.0), false);
    sap.insert(3, bx(2.5, 2.5, 3.0, 3.0), false);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1), (0, 2), (1, 2)]);
    assert_eq!(sap.added(), sap.pairs());
}

#[test]
fn static_pairs_are_never_reported() {
    let mut sap = SweepAndPrune::new(tight_config());
    sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), true);
    sap.insert(1, bx(0.5, 0.0, 2.0, 1.0), true);
    sap.insert(2, bx(0.5, 0.5, 2.0, 1.0), false);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 2), (1, 2)]);
    sap.set_static(1, false);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1), (0, 2), (1, 2)]);
    assert_eq!(sap.added(), &[(0, 1)]);
}

#[test]
fn invalid_boxes_park_the_body() {
    let mut sap = SweepAndPrune::new(SapConfig::default());
    sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), false);
    sap.insert(1, bx(0.5, 0.5, 1.5, 1.5), false);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1)]);
    let nan = bx(f32::NAN, 0.0, 1.0, 1.0);
    assert!(sap.update(1, nan, Vec2::ZERO));
    assert!(!sap.update(1, nan, Vec2::ZERO));
    sap.update_pairs();
    assert!(sap.pairs().is_empty());
    assert_eq!(sap.fat_aabb(1), None);
    assert_eq!(sap.len(), 2);
    sap.insert(2, bx(f32::INFINITY, 0.0, 1.0, 1.0), false);
    sap.update_pairs();
    assert!(sap.update(1, bx(0.5, 0.5, 1.5, 1.5), Vec2::ZERO));
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1)]);
}

#[test]
fn insert_replaces_and_remove_reports() {
    let mut sap = SweepAndPrune::new(tight_config());
    sap.insert(3, bx(0.0, 0.0, 1.0, 1.0), false);
    sap.insert(5, bx(0.5, 0.5, 1.5, 1.5), false);
    sap.update_pairs();
    sap.insert(5, bx(10.0, 10.0, 11.0, 11.0), false);
    sap.update_pairs();
    assert_eq!(sap.len(), 2);
    assert!(sap.pairs().is_empty());
    assert_eq!(sap.removed(), &[(3, 5)]);
    sap.insert(5, bx(0.5, 0.5, 1.5, 1.5), false);
    sap.update_pairs();
    sap.remove(3);
    sap.remove(3);
    sap.update_pairs();
    assert_eq!(sap.removed(), &[(3, 5)]);
    assert_eq!(sap.len(), 1);
    assert!(!sap.update(3, bx(0.0, 0.0, 1.0, 1.0), Vec2::ZERO));
}

#[test]
fn query_is_sorted_and_sees_pending_changes() {
    let mut sap = SweepAndPrune::new(tight_config());
    for i in 0..20u32 {
        let x = (19 - i) as f32;
        sap.insert(i, bx(x, 0.0, x + 0.5, 0.5), false);
    }
    sap.update_pairs();
    let mut out = Vec::new();
    sap.query(&bx(2.0, 0.0, 5.0, 1.0), &mut out);
    assert_eq!(out, vec![14, 15, 16, 17]);
    sap.update(0, bx(3.0, 0.2, 3.1, 0.3), Vec2::ZERO);
    sap.query(&bx(2.0, 0.0, 5.0, 1.0), &mut out);
    assert_eq!(out, vec![0, 14, 15, 16, 17]);
    sap.query(&bx(f32::NAN, 0.0, 5.0, 1.0), &mut out);
    assert!(out.is_empty());
}

#[test]
fn axis_follows_the_spread() {
    let mut sap = SweepAndPrune::new(tight_config());
    for i in 0..50u32 {
        let y = i as f32 * 2.0;
        sap.insert(i, bx(0.0, y, 1.0, y + 1.0), false);
    }
    sap.update_pairs();
    assert_eq!(sap.sweep_axis(), SweepAxis::Y);
}

#[test]
fn the_query_tree_is_built_on_demand_and_dropped_when_a_fat_box_changes() {
    let mut sap = SweepAndPrune::new(SapConfig::default());
    sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), false);
    sap.insert(1, bx(3.0, 0.0, 4.0, 1.0), true);
    sap.update_pairs();
    assert!(!sap.tree_is_built(), "refreshing pairs builds nothing");
    assert_eq!(sap.tree().len(), 2);
    assert!(sap.tree_is_built());
    // A move inside the fat box (margin 0.1) and a static flag keep it...
    assert!(!sap.update(0, bx(0.05, 0.0, 1.05, 1.0), Vec2::ZERO));
    sap.set_static(1, false);
    sap.update_pairs();
    assert!(sap.tree_is_built());
    // ...a re-made box, an insert or a removal drop it, and the next tree
    // holds the new boxes.
    assert!(sap.update(0, bx(10.0, 0.0, 11.0, 1.0), Vec2::ZERO));
    assert!(!sap.tree_is_built());
    let mut ids = Vec::new();
    sap.tree()
        .query(&bx(10.5, 0.5, 10.5, 0.5), |id| ids.push(id));
    assert_eq!(ids, [0]);
    sap.insert(2, bx(10.0, 0.0, 11.0, 1.0), false);
    assert!(!sap.tree_is_built());
    assert_eq!(sap.tree().len(), 3);
    sap.remove(0);
    assert!(!sap.tree_is_built());
    assert_eq!(sap.tree().len(), 2);
}

/// `query_static` against brute force over the fat boxes and against
/// `query` less the dynamic ids, through 400 random edits (moves, inserts,
/// removals, static flags flipped, parked bodies), with and without a
/// refresh between edit and query.
#[test]
fn static_query_matches_brute_force() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut sap = SweepAndPrune::new(SapConfig::default());
    let mut statics = [false; 120];
    let random_box = |next: &mut dyn FnMut() -> f32| {
        let (x, y) = (next() * 40.0 - 20.0, next() * 40.0 - 20.0);
        bx(x, y, x + 0.1 + 3.0 * next(), y + 0.1 + 3.0 * next())
    };
    for id in 0..120u32 {
        statics[id as usize] = next() < 0.2;
        sap.insert(id, random_box(&mut next), statics[id as usize]);
    }
    let (mut got, mut all) = (Vec::new(), Vec::new());
    let mut hits = 0;
    for round in 0..400 {
        let id = (next() * 120.0) as u32;
        match round % 5 {
            0 => {
                let b = random_box(&mut next);
                sap.update(id, b, Vec2::new(next() - 0.5, next() - 0.5));
            }
            1 => {
                statics[id as usize] = !statics[id as usize];
                sap.set_static(id, statics[id as usize]);
            }
            2 => sap.remove(id),
            3 => {
                statics[id as usize] = next() < 0.5;
                sap.insert(id, random_box(&mut next), statics[id as usize]);
            }
            _ => {
                sap.update(id, bx(f32::NAN, 0.0, 1.0, 1.0), Vec2::ZERO);
            }
        }
        if round % 2 == 0 {
            sap.update_pairs();
        }
        // Random boxes, and the edited body's own box (which a stale tree
        // would miss).
        let own = sap.fat_aabb(id);
        for k in 0..5 {
            let q = match own {
                Some(b) if k == 0 => b,
                _ => random_box(&mut next),
            };
            sap.query_static(&q, &mut got);
            let brute: Vec<u32> = (0..120u32)
                .filter(|&i| statics[i as usize] && sap.fat_aabb(i).is_some_and(|f| f.overlaps(&q)))
                .collect();
            assert_eq!(got, brute, "round {round}");
            sap.query(&q, &mut all);
            all.retain(|&i| statics[i as usize]);
            assert_eq!(got, all, "round {round}");
            hits += got.len();
        }
    }
    assert!(hits > 200, "too few hits to test: {hits}");
}

/// A body's own margin decides its fat box at insertion and at every later
/// re-made box; bodies without one use the configured margin.
#[test]
fn a_bodys_own_margin_is_kept_for_its_fat_box() {
    let config = SapConfig {
        margin: 0.5,
        velocity_stretch: 0.0,
        ..SapConfig::default()
    };
    // Two unit boxes 0.1 apart: their fat boxes overlap only when the two
    // margins add up to more than the gap.
    let pair = |m0: Option<f32>, m1: Option<f32>| {
        let mut sap = SweepAndPrune::new(config);
        sap.insert_with_margin(0, bx(0.0, 0.0, 1.0, 1.0), false, m0);
        sap.insert_with_margin(1, bx(1.1, 0.0, 2.1, 1.0), false, m1);
        sap.update_pairs();
        !sap.pairs().is_empty()
    };
    assert!(!pair(Some(0.04), Some(0.04)));
    assert!(pair(Some(0.06), Some(0.06)));
    assert!(pair(Some(0.01), None), "the configured 0.5 for body 1");
    assert!(!pair(Some(f32::NAN), Some(-1.0)), "bad margins are 0");
    let mut sap = SweepAndPrune::new(config);
    sap.insert_with_margin(0, bx(0.0, 0.0, 1.0, 1.0), false, Some(0.02));
    assert_eq!(sap.fat_aabb(0), Some(bx(-0.02, -0.02, 1.02, 1.02)));
    // Moved far, the box is re-made with the body's own margin again.
    assert!(sap.update(0, bx(5.0, 0.0, 6.0, 1.0), Vec2::ZERO));
    assert_eq!(sap.fat_aabb(0), Some(bx(4.98, -0.02, 6.02, 1.02)));
}

#[test]
fn band_grouping_and_dirty_listing_match_the_sorts() {
    use ::rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut scratch, mut counts) = (Vec::new(), Vec::new());
    for case in 0..400 {
        // Ascending ids, each with a few distinct bands: as `apply_dirty`
        // gives them, over narrow and wide band ranges (the wide ones take
        // the comparison sort).
        let n = rng.random_range(0..300usize);
        let spread = if case % 4 == 0 { 100_000 } else { 40 };
        let mut changes = Vec::new();
        let mut id = 0u32;
        for _ in 0..n {
            id += rng.random_range(1..4u32);
            let first = rng.random_range(-spread..spread);
            for band in first..first + rng.random_range(1..4) {
                let c = region::Change {
                    id,
                    old: Some(id as f32),
                    new: None,
                };
                changes.push((band, c));
            }
        }
        let mut want: Vec<(i32, u32)> = changes.iter().map(|(b, c)| (*b, c.id)).collect();
        want.sort_unstable();
        maintain::group_by_band(&mut changes, &mut scratch, &mut counts);
        let got: Vec<(i32, u32)> = changes.iter().map(|(b, c)| (*b, c.id)).collect();
        assert_eq!(got, want, "case {case}");

        let mut bits = Bits::default();
        let mut ids: Vec<u32> = (0..rng.random_range(0..200))
            .map(|_| rng.random_range(0..5000))
            .collect();
        for &i in &ids {
            bits.set(i);
        }
        ids.sort_unstable();
        ids.dedup();
        let mut listed = vec![7];
        bits.ones(&mut listed);
        assert_eq!(listed, ids, "case {case}");
    }
}

/// Boxes 0.25 m apart, one above the other, with margins of 0.05 m and
/// the stretch of one step: a fall of 0.2 m a step stretches the upper
/// box's fat box over the lower one.
fn column(relative_motion: bool) -> SweepAndPrune {
    let mut sap = SweepAndPrune::new(SapConfig {
        margin: 0.05,
        relative_motion,
        ..SapConfig::default()
    });
    sap.insert(0, bx(0.0, 1.25, 1.0, 2.25), false);
    sap.insert(1, bx(0.0, 0.0, 1.0, 1.0), false);
    sap.update_pairs();
    assert!(sap.pairs().is_empty());
    sap
}

/// A fall of 0.2 m a step.
const FALL: Vec2 = Vec2::new(0.0, -0.2);

/// [`column`] after one step in which both bodies fall by [`FALL`]: both
/// fat boxes are re-made, stretched down.
fn falling_column(relative_motion: bool) -> SweepAndPrune {
    let mut sap = column(relative_motion);
    assert!(sap.update(0, bx(0.0, 1.25, 1.0, 2.25), FALL));
    assert!(sap.update(1, bx(0.0, 0.0, 1.0, 1.0), FALL));
    sap.update_pairs();
    sap
}

#[test]
fn bodies_falling_together_make_no_pair_with_relative_motion() {
    for relative_motion in [false, true] {
        let sap = falling_column(relative_motion);
        let fat = |id| sap.fat_aabb(id).unwrap();
        assert!(fat(0).overlaps(&fat(1)), "the stretch reaches across");
        // Without relative motion, overlapping fat boxes are a pair; with
        // it, a pair that falls as one is not, and waits.
        assert_eq!(sap.pairs().is_empty(), relative_motion);
        assert_eq!(
            sap.waiting,
            if relative_motion {
                vec![(0, 1)]
            } else {
                vec![]
            }
        );
    }
}

#[test]
fn a_waiting_pair_is_found_once_its_motion_closes_it_though_neither_box_moved() {
    let mut sap = falling_column(true);
    assert!(sap.pairs().is_empty());
    // The lower body stops; the upper one keeps falling. Neither has left
    // its fat box, so neither looks for its pairs: the waiting pair is
    // tested again, with the new motion (0.2 m of closing against a gap of
    // 0.25 m less two margins).
    assert!(!sap.update(0, bx(0.0, 1.25, 1.0, 2.25), FALL));
    assert!(!sap.update(1, bx(0.0, 0.0, 1.0, 1.0), Vec2::ZERO));
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1)]);
    assert_eq!(sap.added(), &[(0, 1)]);
    assert!(sap.waiting.is_empty());
    // Once found, a pair stays while its fat boxes overlap, as any pair.
    sap.update(1, bx(0.0, 0.0, 1.0, 1.0), FALL);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1)]);
}

#[test]
fn a_waiting_pair_is_dropped_when_its_fat_boxes_part() {
    let mut sap = falling_column(true);
    assert_eq!(sap.waiting, vec![(0, 1)]);
    // The lower body is taken far away: the pair's fat boxes no longer
    // overlap, and it stops waiting.
    sap.update(1, bx(10.0, 0.0, 11.0, 1.0), Vec2::ZERO);
    sap.update_pairs();
    assert!(sap.pairs().is_empty());
    assert!(sap.waiting.is_empty());
}

#[test]
fn a_body_coming_at_another_has_its_pair_with_relative_motion() {
    // The upper body falls 0.2 m a step at a body at rest: it is found the
    // step the stretch reaches, as without relative motion.
    let mut sap = column(true);
    sap.update(0, bx(0.0, 1.25, 1.0, 2.25), FALL);
    sap.update(1, bx(0.0, 0.0, 1.0, 1.0), Vec2::ZERO);
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(0, 1)]);
    assert!(sap.waiting.is_empty());
}

/// A body cruising at 0.4 margins a step: each re-made fat box holds the
/// next step's sweep, and with a lead of two steps it lasts two steps
/// longer (every fifth step instead of every third).
#[test]
fn a_lead_keeps_a_cruising_body_s_fat_box_longer() {
    let margin = 0.05;
    let step = Vec2::new(0.4 * margin, 0.0);
    let remakes = |lead: f32| {
        let mut sap = SweepAndPrune::new(SapConfig {
            margin,
            lead,
            ..SapConfig::default()
        });
        let mut tight = bx(0.0, 0.0, 1.0, 1.0);
        sap.insert(0, tight, false);
        let mut n = 0;
        for _ in 0..60 {
            n += sap.update(0, tight, step) as u32;
            let fat = sap.fat_aabb(0).unwrap();
            let swept = Aabb::new(tight.min, tight.max + step);
            assert!(fat.contains(&swept), "lead {lead}: {fat:?} {swept:?}");
            sap.update_pairs();
            tight = Aabb::new(tight.min + step, tight.max + step);
        }
        n
    };
    assert_eq!(remakes(0.0), 20);
    assert_eq!(remakes(2.0), 12);
}
