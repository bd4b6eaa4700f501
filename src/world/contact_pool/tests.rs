//! The contact list's merges, compaction and bank against simple models.

use super::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// A contact for the pair, tagged (in `friction`) with its birth.
fn contact(a: u32, b: u32, tag: u32) -> Contact {
    Contact {
        a,
        b,
        body_a: a,
        body_b: b,
        child_a: 0,
        child_b: 0,
        manifold: Manifold {
            count: (tag % 3) as usize % 2,
            ..Manifold::default()
        },
        features: Default::default(),
        cache: Default::default(),
        reuse: Default::default(),
        friction: tag as f32,
        restitution: 0.0,
    }
}

fn accepted(a: u32, b: u32) -> bool {
    (a + b) % 5 != 0
}

fn listed(list: &ContactList) -> Vec<(u32, u32, f32)> {
    let v: Vec<_> = list.iter().map(|c| (c.a, c.b, c.friction)).collect();
    let keys: Vec<_> = v.iter().map(|&(a, b, _)| (a, b)).collect();
    assert_eq!(keys, list.keys(), "keys out of step with the contacts");
    v
}

/// Both merges, and the compaction, against a map kept by hand, over
/// 300 steps of random pair churn (up to a third of the pairs a step).
#[test]
fn merges_keep_the_pair_order_and_the_contacts() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut inc, mut full) = (ContactList::default(), ContactList::default());
    let mut buf = MergeBuffers::default();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut model: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut tag = 0u32;
    for step in 0..300 {
        let churn = rng.random_range(0..=pairs.len() / 3 + 3);
        let mut next: Vec<(u32, u32)> = pairs.clone();
        for _ in 0..churn {
            if !next.is_empty() && rng.random_bool(if next.len() > 150 { 0.6 } else { 0.3 }) {
                let i = rng.random_range(0..next.len());
                next.swap_remove(i);
            } else {
                let a = rng.random_range(0..200);
                let b = rng.random_range(a + 1..201);
                next.push((a, b));
            }
        }
        next.sort_unstable();
        next.dedup();
        let added: Vec<_> = next
            .iter()
            .filter(|p| pairs.binary_search(p).is_err())
            .copied()
            .collect();
        let removed: Vec<_> = pairs
            .iter()
            .filter(|p| next.binary_search(p).is_err())
            .copied()
            .collect();
        // The model: touching contacts of removed pairs end, in order.
        let mut want_ended = Vec::new();
        for p in &removed {
            if let Some(t) = model.remove(p) {
                if contact(p.0, p.1, t).manifold.count > 0 {
                    want_ended.push((p.0, p.1, t as f32));
                }
            }
        }
        let born = tag;
        let mut fresh = 0;
        for p in &added {
            if accepted(p.0, p.1) {
                model.insert(*p, born + fresh);
                fresh += 1;
            }
        }
        tag += fresh;
        let new_at = |start: u32| {
            let mut t = start;
            move |a: u32, b: u32| {
                accepted(a, b).then(|| {
                    t += 1;
                    contact(a, b, t - 1)
                })
            }
        };
        let (mut ended_inc, mut ended_full) = (Vec::new(), Vec::new());
        inc.merge_changes(
            &added,
            &removed,
            new_at(born),
            true,
            &mut ended_inc,
            &mut buf,
        );
        full.merge_all(&next, new_at(born), true, &mut ended_full, &mut buf);
        if step % 3 == 0 {
            inc.compact(&mut buf);
        }
        let want: Vec<_> = model.iter().map(|(&(a, b), &t)| (a, b, t as f32)).collect();
        assert_eq!(listed(&inc), want, "step {step}: incremental merge");
        assert_eq!(listed(&full), want, "step {step}: full merge");
        let ended = |v: &[Contact]| v.iter().map(|c| (c.a, c.b, c.friction)).collect::<Vec<_>>();
        assert_eq!(ended(&ended_inc), want_ended, "step {step}");
        assert_eq!(ended(&ended_full), want_ended, "step {step}");
        // Slots: distinct, and no more than the live contacts and the free ones.
        let mut slots = inc.order().to_vec();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), inc.len());
        assert!(inc.slots.len() == inc.len() + inc.free.len());
        pairs = next;
    }
    assert!(tag > 2000, "too little churn to test: {tag} contacts made");
    // Retain drops in order and reports the touching ones.
    let before = listed(&inc);
    let mut dropped = Vec::new();
    inc.retain(|c| c.a % 2 == 0, &mut dropped);
    let kept: Vec<_> = before.iter().filter(|c| c.0 % 2 == 0).copied().collect();
    assert_eq!(listed(&inc), kept);
    let gone: Vec<_> = dropped.iter().map(|c| (c.a, c.b, c.friction)).collect();
    let want_gone: Vec<_> = before
        .iter()
        .filter(|c| c.0 % 2 != 0 && contact(c.0, c.1, c.2 as u32).manifold.count > 0)
        .copied()
        .collect();
    assert_eq!(gone, want_gone);
}

/// The pool is put back in list order once more than half of it is out
/// of order, and not before.
#[test]
fn compaction_waits_for_half_out_of_order() {
    let mut list = ContactList::default();
    let mut buf = MergeBuffers::default();
    let pairs: Vec<(u32, u32)> = (0..64).map(|i| (i, 100)).collect();
    let new = |a: u32, b: u32| Some(contact(a, b, a));
    list.merge_all(&pairs, new, false, &mut Vec::new(), &mut buf);
    list.compact(&mut buf);
    assert_eq!(list.order(), (0..64).collect::<Vec<u32>>());
    // Sixteen pairs replaced by sixteen others: 32 slots taken or freed
    // of 64, half and no more.
    let removed: Vec<_> = (0..16).map(|i| (i * 4, 100)).collect();
    let added: Vec<_> = (0..16).map(|i| (i * 4 + 1, 101)).collect();
    list.merge_changes(&added, &removed, new, false, &mut Vec::new(), &mut buf);
    list.compact(&mut buf);
    assert_ne!(
        list.order(),
        (0..64).collect::<Vec<u32>>(),
        "compacted too soon"
    );
    let before = listed(&list);
    let removed: Vec<_> = vec![(5, 100)];
    list.merge_changes(&[], &removed, new, false, &mut Vec::new(), &mut buf);
    list.compact(&mut buf);
    assert_eq!(list.order(), (0..63).collect::<Vec<u32>>(), "not compacted");
    let mut want = before;
    want.retain(|c| (c.0, c.1) != (5, 100));
    assert_eq!(listed(&list), want);
    assert!(list.free.is_empty() && list.slots.len() == 63);
}

/// Impulses banked for a slot: read through the bank before they are
/// stored, stored by `settle` (once), dropped when their slot is taken by
/// another contact, and stored before the compaction moves the slots.
#[test]
fn banked_impulses_reach_their_contact_and_no_other() {
    let mut list = ContactList::default();
    let mut buf = MergeBuffers::default();
    let two = |a: u32, b: u32| {
        let mut c = contact(a, b, a);
        c.manifold.count = 2;
        Some(c)
    };
    let pairs: Vec<(u32, u32)> = (0..8).map(|i| (i, 100)).collect();
    list.merge_all(&pairs, two, false, &mut Vec::new(), &mut buf);
    let banked = |x: f32| Banked {
        normal: [x, x + 1.0],
        tangent: [-x, 0.5],
        rolling: 0.25,
        count: 2,
    };
    let mut bank = list.open_bank();
    for k in 0..8 {
        bank.put(k, banked(k as f32 + 1.0));
    }
    // Read through the bank; the pool itself is untouched until settled.
    let m = list.manifold(3);
    assert_eq!(m.points[1].normal_impulse, 5.0);
    assert_eq!(m.points[0].tangent_impulse, -4.0);
    assert_eq!(m.rolling_impulse, 0.25);
    assert_eq!(list[3].manifold.points[1].normal_impulse, 0.0);
    list.settle(3);
    assert_eq!(list[3].manifold, m);
    // A slot freed and taken by a new pair: its bank entry was the old
    // contact's, and the new one starts without it.
    let removed = [(2, 100)];
    list.merge_changes(&[], &removed, two, false, &mut Vec::new(), &mut buf);
    list.merge_changes(&[(50, 101)], &[], two, false, &mut Vec::new(), &mut buf);
    let k = *list.order().last().unwrap();
    assert_eq!(list[k as usize].a, 50);
    assert_eq!(k, 2, "the freed slot is reused");
    assert_eq!(list.manifold(k).points[0].normal_impulse, 0.0);
    // The narrowphase's pass: some contacts settled in it, then what is
    // left of the bank stored and the bank closed.
    for i in 0..list.len() / 2 {
        list.settle(list.order()[i]);
    }
    list.settle_all();
    assert_eq!(list[7].manifold.points[0].normal_impulse, 8.0);
    assert_eq!(list[k as usize].manifold.points[0].normal_impulse, 0.0);
    assert!(!list.is_banked());
    // Banked again, then compacted: the compaction stores the bank first.
    let mut bank = list.open_bank();
    bank.put(5, banked(40.0));
    let tag = list[5].friction;
    let removed: Vec<_> = (0..5).map(|i| (i, 100)).filter(|p| p.0 != 2).collect();
    list.merge_changes(&[], &removed, two, false, &mut Vec::new(), &mut buf);
    list.compact(&mut buf);
    let c = list.iter().find(|c| c.friction == tag).unwrap();
    assert_eq!(c.manifold.points[0].normal_impulse, 40.0);
    assert!(!list.is_banked());
}
