use super::super::tests::{bodies, random_pairs};
use super::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `count` random constraints between `n` bodies, about a third of them
/// one-point manifolds.
fn random_items(rng: &mut ChaCha8Rng, n: u32, count: usize) -> Vec<(u32, u32, bool)> {
    let pairs = random_pairs(rng, n, count);
    pairs
        .into_iter()
        .map(|(a, b)| (a, b, rng.random_range(0..3) == 0))
        .collect()
}

/// One step's packing of `items`, in blocks of `block` constraints.
fn step_packing(
    w: &mut Wavefront,
    bodies: &[SolverBody],
    items: &[(u32, u32, bool)],
    block: usize,
) -> Vec<Vec<Packed>> {
    w.reset(bodies.len());
    items
        .chunks(block)
        .map(|c| w.pack_block(bodies, c.iter().copied()).to_vec())
        .collect()
}

/// Every position once; bundles of one kind whose lanes share no responding
/// body; each responding body meets its constraints in input order; and a
/// bundle marked independent of the next shares no responding body with it.
fn assert_sound(packed: &[Packed], items: &[(u32, u32, bool)], bodies: &[SolverBody]) {
    let responds = |x: u32| bodies[x as usize].responds();
    let mut bundle_of = vec![usize::MAX; items.len()];
    for (j, p) in packed.iter().enumerate() {
        assert!((1..=LANES).contains(&(p.fill as usize)));
        let mut seen = Vec::new();
        for &i in &p.lanes[..p.fill as usize] {
            let (a, b, single) = items[i as usize];
            assert_eq!(single, p.single, "bundle {j} mixes point counts");
            assert_eq!(bundle_of[i as usize], usize::MAX, "position {i} twice");
            bundle_of[i as usize] = j;
            for x in [a, b].into_iter().filter(|&x| responds(x)) {
                assert!(!seen.contains(&x), "bundle {j} writes body {x} twice");
                seen.push(x);
            }
        }
        if p.independent_of_next {
            let next = &packed[j + 1];
            for &i in &next.lanes[..next.fill as usize] {
                let (a, b, _) = items[i as usize];
                assert!(!seen.contains(&a) && !seen.contains(&b), "bundle {j}");
            }
        }
    }
    assert!(
        bundle_of.iter().all(|&j| j != usize::MAX),
        "a position missing"
    );
    assert!(!packed.last().is_some_and(|p| p.independent_of_next));
    for x in (0..bodies.len() as u32).filter(|&x| responds(x)) {
        let seq: Vec<usize> = (0..items.len())
            .filter(|&i| items[i].0 == x || items[i].1 == x)
            .map(|i| bundle_of[i])
            .collect();
        assert!(seq.windows(2).all(|s| s[0] < s[1]), "body {x}: {seq:?}");
    }
}

#[test]
fn packing_keeps_each_bodys_sequence() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let b = bodies(80, &[0, 1, 2]);
    let mut w = Wavefront::default();
    let mut lanes = 0;
    for _ in 0..60 {
        let items = random_items(&mut rng, 80, 400);
        for (c, packed) in items.chunks(113).zip(step_packing(&mut w, &b, &items, 113)) {
            assert_sound(&packed, c, &b);
            lanes += packed.len() * LANES;
        }
    }
    // The packing is not one constraint to a bundle.
    assert!(
        lanes < 60 * 400 * LANES / 2,
        "{lanes} lanes for {} constraints",
        60 * 400
    );
}

/// A body with many constraints (the drum of Box2D's `tumbler`) needs a
/// bundle for each, one after another; the constraints that do not wait for
/// it fill those bundles' other lanes instead of bundles of their own.
#[test]
fn a_busy_body_does_not_leave_its_bundles_empty() {
    let hub_contacts = 40u32;
    let free = hub_contacts as usize * (LANES - 1);
    let mut items: Vec<(u32, u32, bool)> = (1..=hub_contacts).map(|x| (0, x, false)).collect();
    let first_free = hub_contacts + 1;
    items.extend((0..free as u32).map(|k| (first_free + 2 * k, first_free + 2 * k + 1, false)));
    let b = bodies(first_free as usize + 2 * free, &[]);
    let packed = step_packing(&mut Wavefront::default(), &b, &items, items.len()).remove(0);
    assert_sound(&packed, &items, &b);
    assert_eq!(packed.len(), hub_contacts as usize);
    assert!(packed.iter().all(|p| p.fill as usize == LANES));
}

#[test]
fn a_repeated_block_reuses_its_packing_and_a_changed_one_is_packed_again() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let items = random_items(&mut rng, 40, 200);
    let still = bodies(40, &[0]);
    let mut w = Wavefront::default();
    let first = step_packing(&mut w, &still, &items, 64);
    assert_eq!(step_packing(&mut w, &still, &items, 64), first);
    // Bodies stop responding (they fell asleep, say).
    let changed = bodies(40, &[0, 1, 2, 3, 4, 5, 6]);
    let fresh = step_packing(&mut Wavefront::default(), &changed, &items, 64);
    assert_ne!(
        fresh, first,
        "the test needs an input whose packing changes"
    );
    assert_eq!(step_packing(&mut w, &changed, &items, 64), fresh);
    // A constraint's point count changes.
    let mut other = items.clone();
    other[5].2 = !other[5].2;
    let fresh = step_packing(&mut Wavefront::default(), &still, &other, 64);
    assert_eq!(step_packing(&mut w, &still, &other, 64), fresh);
    assert_eq!(step_packing(&mut w, &still, &items, 64), first);
}
