//! The query tree against its invariants and brute force: every box reachable
//! once, node boxes containing their children, box queries and segment casts
//! equal to a scan of every box, closest hits equal to the scan's minimum.

use super::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` random boxes: mostly small ones in a 100 m square, some long thin
/// ones (grounds), some exact duplicates and some points.
fn random_boxes(rng: &mut ChaCha8Rng, n: usize) -> Vec<(u32, Aabb)> {
    let mut out: Vec<(u32, Aabb)> = Vec::new();
    for i in 0..n as u32 {
        let c = Vec2::new(
            rng.random_range(-50.0f32..50.0),
            rng.random_range(-50.0f32..50.0),
        );
        let half = match rng.random_range(0..10) {
            0 => Vec2::new(rng.random_range(10.0f32..60.0), 0.25),
            1 => Vec2::ZERO,
            2 if !out.is_empty() => {
                let k = rng.random_range(0..out.len());
                out.push((i, out[k].1));
                continue;
            }
            _ => Vec2::new(
                rng.random_range(0.05f32..1.5),
                rng.random_range(0.05f32..1.5),
            ),
        };
        out.push((i, Aabb::new(c - half, c + half)));
    }
    out
}

/// Item ids reached from the root, checking on the way that every node box
/// contains its children's boxes and every leaf box its items.
fn walk(tree: &QueryTree) -> Vec<u32> {
    let mut ids = Vec::new();
    if tree.nodes.is_empty() {
        return ids;
    }
    let inside = |olo: [f32; 2], ohi: [f32; 2], lo: [f32; 2], hi: [f32; 2]| {
        (0..2).all(|k| olo[k] <= lo[k] && hi[k] <= ohi[k])
    };
    let mut stack = vec![0usize];
    let mut seen_nodes = 0;
    while let Some(ni) = stack.pop() {
        seen_nodes += 1;
        let n = tree.nodes[ni];
        if n.count == 0 {
            for c in [n.first as usize, n.first as usize + 1] {
                let ch = tree.nodes[c];
                assert!(inside(n.lo, n.hi, ch.lo, ch.hi), "node {ni} child {c}");
                stack.push(c);
            }
        } else {
            assert!(n.count as usize <= LEAF_SIZE);
            for it in &tree.items[n.first as usize..(n.first + n.count) as usize] {
                assert!(inside(n.lo, n.hi, it.lo, it.hi), "leaf {ni} item {}", it.id);
                ids.push(it.id);
            }
        }
    }
    assert_eq!(seen_nodes, tree.nodes.len(), "every node reachable once");
    ids
}

/// The stored (padded) box of each id, as the brute-force scan sees it.
fn padded(boxes: &[(u32, Aabb)]) -> Vec<(u32, [f32; 2], [f32; 2])> {
    boxes
        .iter()
        .map(|&(id, b)| {
            let lo = [pad(b.min.x, -1.0), pad(b.min.y, -1.0)];
            let hi = [pad(b.max.x, 1.0), pad(b.max.y, 1.0)];
            (id, lo, hi)
        })
        .collect()
}

/// Where the segment `o + t·d`, `t ∈ [0, max]`, enters the box `lo..hi` grown
/// by `e`, in f64 (Liang–Barsky); `None` on a miss.
fn enter64(o: Vec2, d: Vec2, max: f32, e: Vec2, lo: [f32; 2], hi: [f32; 2]) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, max as f64);
    for k in 0..2 {
        let (o, d) = (o[k] as f64, d[k] as f64);
        let (lo, hi) = (lo[k] as f64 - e[k] as f64, hi[k] as f64 + e[k] as f64);
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo - o) / d, (hi - o) / d);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 <= t1).then_some(t0)
}

#[test]
fn every_box_is_reachable_once_and_nodes_contain_their_children() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for n in [0usize, 1, 2, 3, 5, 17, 100, 2000] {
        let boxes = random_boxes(&mut rng, n);
        let tree = QueryTree::build(boxes.iter().copied());
        let mut ids = walk(&tree);
        ids.sort_unstable();
        let want: Vec<u32> = boxes.iter().map(|b| b.0).collect();
        assert_eq!(ids, want, "n = {n}");
        assert_eq!(tree.len(), n);
        assert!(tree.nodes.len() < 2 * n.max(1));
    }
}

#[test]
fn invalid_boxes_are_left_out_and_equal_centroids_still_split() {
    let nan = Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE);
    let inverted = Aabb::new(Vec2::ONE, Vec2::ZERO);
    let same = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let mut boxes = vec![(0, nan), (1, inverted)];
    boxes.extend((2..40).map(|i| (i, same)));
    let tree = QueryTree::build(boxes);
    let mut ids = walk(&tree);
    ids.sort_unstable();
    assert_eq!(ids, (2..40).collect::<Vec<u32>>());
    let mut got = Vec::new();
    tree.query(&Aabb::new(Vec2::splat(0.5), Vec2::splat(0.5)), |id| {
        got.push(id)
    });
    assert_eq!(got.len(), 38);
}

#[test]
fn box_queries_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let boxes = random_boxes(&mut rng, 3000);
    let stored = padded(&boxes);
    let tree = QueryTree::build(boxes.iter().copied());
    let mut total = 0;
    for _ in 0..2000 {
        let c = Vec2::new(
            rng.random_range(-60.0f32..60.0),
            rng.random_range(-60.0f32..60.0),
        );
        let half = Vec2::new(rng.random_range(0.0f32..8.0), rng.random_range(0.0f32..8.0));
        let q = Aabb::new(c - half, c + half);
        let mut got = Vec::new();
        tree.query(&q, |id| got.push(id));
        got.sort_unstable();
        let want: Vec<u32> = stored
            .iter()
            .filter(|(_, lo, hi)| {
                lo[0] <= q.max.x && q.min.x <= hi[0] && lo[1] <= q.max.y && q.min.y <= hi[1]
            })
            .map(|e| e.0)
            .collect();
        assert_eq!(got, want);
        total += got.len();
    }
    assert!(total > 20_000, "{total}");
    // Invalid queries find nothing.
    let mut got = Vec::new();
    tree.query(&Aabb::new(Vec2::ONE, Vec2::ZERO), |id| got.push(id));
    assert!(got.is_empty());
}

/// A random segment: a ray of up to 80 m, sometimes axis-aligned (through
/// box edges), sometimes of zero length; a grown box one time in three.
fn random_ray(rng: &mut ChaCha8Rng) -> TreeRay {
    let origin = Vec2::new(
        rng.random_range(-60.0f32..60.0),
        rng.random_range(-60.0f32..60.0),
    );
    let a = rng.random_range(0.0f32..std::f32::consts::TAU);
    let delta = match rng.random_range(0..8) {
        0 => Vec2::X,
        1 => -Vec2::Y,
        2 => Vec2::ZERO,
        _ => Vec2::new(libm::cosf(a), libm::sinf(a)),
    };
    let extent = if rng.random_bool(0.33) {
        Vec2::new(rng.random_range(0.0f32..2.0), rng.random_range(0.0f32..2.0))
    } else {
        Vec2::ZERO
    };
    TreeRay {
        origin,
        delta,
        max_t: rng.random_range(0.0f32..80.0),
        extent,
    }
}

#[test]
fn segment_casts_find_every_box_the_segment_crosses() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let boxes = random_boxes(&mut rng, 3000);
    let stored = padded(&boxes);
    let tree = QueryTree::build(boxes.iter().copied());
    let mut total = 0;
    for _ in 0..2000 {
        let r = random_ray(&mut rng);
        let mut got = Vec::new();
        tree.cast(&r, |id, max_t| {
            got.push(id);
            max_t
        });
        got.sort_unstable();
        let before = got.len();
        got.dedup();
        assert_eq!(got.len(), before, "an id visited twice");
        // Every box the exact segment crosses is found...
        for &(id, b) in &boxes {
            let (lo, hi) = ([b.min.x, b.min.y], [b.max.x, b.max.y]);
            if enter64(r.origin, r.delta, r.max_t, r.extent, lo, hi).is_some() {
                assert!(got.binary_search(&id).is_ok(), "{r:?} missed {id}");
            }
        }
        // ...and nothing beyond the padded boxes, grown by a hair for rounding.
        for &id in &got {
            let (_, lo, hi) = stored[id as usize];
            let e = r.extent + Vec2::splat(1e-4);
            assert!(
                enter64(r.origin, r.delta, r.max_t * (1.0 + 1e-5), e, lo, hi).is_some(),
                "{r:?} found {id}, which it does not cross"
            );
        }
        total += got.len();
    }
    assert!(total > 20_000, "{total}");
}

#[test]
fn closest_hits_with_clipping_equal_the_brute_force_minimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let boxes = random_boxes(&mut rng, 3000);
    let tree = QueryTree::build(boxes.iter().copied());
    let (mut hits, mut visits) = (0, 0);
    for _ in 0..2000 {
        let r = random_ray(&mut rng);
        // The "shape" is the box itself: the hit is where the segment enters
        // it (in f32, from the f64 entry), ties to the lower id.
        let hit = |id: u32| {
            let b = boxes[id as usize].1;
            let (lo, hi) = ([b.min.x, b.min.y], [b.max.x, b.max.y]);
            enter64(r.origin, r.delta, r.max_t, r.extent, lo, hi).map(|t| (t as f32, id))
        };
        let mut best: Option<(f32, u32)> = None;
        tree.cast(&r, |id, max_t| {
            visits += 1;
            if let Some(h) = hit(id).filter(|h| h.0 <= max_t) {
                if best.is_none_or(|b| h < b) {
                    best = Some(h);
                }
            }
            best.map_or(max_t, |b| b.0)
        });
        let want = (0..boxes.len() as u32)
            .filter_map(hit)
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        assert_eq!(best, want, "{r:?}");
        hits += usize::from(best.is_some());
    }
    assert!(hits > 1000, "{hits}");
    // Clipping pays: far fewer boxes visited than the segments cross.
    assert!(visits < 2000 * 40, "{visits}");
}

#[test]
fn the_traversal_stack_is_last_in_first_out_past_its_fixed_part() {
    let mut s = Stack::new();
    let mut model = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for i in 0..5000u32 {
        if rng.random_bool(0.6) {
            s.push((i, i as f32));
            model.push((i, i as f32));
        } else {
            assert_eq!(s.pop(), model.pop());
        }
        assert!(model.len() <= STACK || !s.spill.is_empty());
    }
    while let Some(e) = model.pop() {
        assert_eq!(s.pop(), Some(e));
    }
    assert_eq!(s.pop(), None);
}

#[test]
fn boxes_spread_over_36_orders_of_magnitude() {
    // Boxes at x = 2^i: the top bins hold only the largest few, so the
    // splits peel them off and the tree is deep.
    let n = 120u32;
    let boxes: Vec<(u32, Aabb)> = (0..n)
        .map(|i| {
            let x = libm::powf(2.0, i as f32);
            (i, Aabb::new(Vec2::new(x, 0.0), Vec2::new(x * 1.5, 1.0)))
        })
        .collect();
    let tree = QueryTree::build(boxes.iter().copied());
    assert_eq!(walk(&tree).len(), n as usize);
    // A ray along the row from the left crosses every box.
    let r = TreeRay {
        origin: Vec2::new(0.0, 0.5),
        delta: Vec2::X,
        max_t: f32::MAX,
        extent: Vec2::ZERO,
    };
    let mut got = Vec::new();
    tree.cast(&r, |id, m| {
        got.push(id);
        m
    });
    got.sort_unstable();
    assert_eq!(got, (0..n).collect::<Vec<u32>>());
    let mut got = Vec::new();
    tree.query(&Aabb::new(Vec2::ZERO, Vec2::splat(f32::MAX)), |id| {
        got.push(id)
    });
    assert_eq!(got.len(), n as usize);
}

#[test]
fn the_same_boxes_give_the_same_tree() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let boxes = random_boxes(&mut rng, 1000);
    let a = QueryTree::build(boxes.iter().copied());
    let b = QueryTree::build(boxes.iter().copied());
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    // Bad segments visit nothing.
    for r in [
        TreeRay {
            origin: Vec2::new(f32::NAN, 0.0),
            delta: Vec2::X,
            max_t: 10.0,
            extent: Vec2::ZERO,
        },
        TreeRay {
            origin: Vec2::ZERO,
            delta: Vec2::X,
            max_t: -1.0,
            extent: Vec2::ZERO,
        },
    ] {
        a.cast(&r, |_, _| panic!("visited"));
    }
}
