//! The order the contact and joint passes visit the constraints in.
//!
//! Every contact pass (warm start, velocity iterations, position pass,
//! restitution) updates the two bodies of one constraint at a time, and a
//! constraint's result depends only on the current state of its two bodies.
//! So any visiting order that keeps, for every body, the sequence of
//! constraints that write it gives bit-identical results: each body sees the
//! same operations on the same values in the same order. Bodies that do not
//! respond to impulses (static, kinematic, not moving this step) are never
//! written and do not order anything.
//!
//! Contacts come sorted by body pair, so neighbours in that list mostly share
//! a body (two in three, in a box pyramid) and each constraint waits for the
//! previous one's result: the passes would run one long dependency chain.
//! The constraints are reordered within blocks of [`BLOCK`] consecutive
//! ones, which bound how far a constraint moves from its place in the given
//! order (each block is scheduled as soon as it is built, from contacts read
//! in sequence), in one of two ways:
//!
//! - **Packed into bundles** (contacts, [`Wavefront::pack_block`], in
//!   `pack`): each constraint goes into the first bundle of four (eight in
//!   AVX2 builds) lanes that comes after every bundle holding an earlier
//!   constraint of one of its bodies, and that has a free lane and the same
//!   point count. The solver solves a bundle's lanes at once (see
//!   `contact_solver::simd`).
//! - **By level** (joints, [`Wavefront::order_all`]): the length of the
//!   longest chain of earlier constraints of the block through shared
//!   bodies, keeping the given order within a level. The constraints of one
//!   level are independent.
//!
//! Packing fills the lanes better than cutting levels into bundles did
//! (until 2026-11-29): a level ends with a partial bundle of each point
//! count, and a body with many contacts (the drum of Box2D's `tumbler`)
//! makes one level per contact, each nearly empty, where a packed bundle
//! takes any constraint that is ready. The larger the block, the fuller the
//! bundles: with levels in blocks of 4,096, Box2D's large pyramid used
//! 81 % of its lanes and `tumbler` 60 %; packed in blocks of 4,096, 89 %
//! and 70 %; packed in blocks of 16,384, 97 % and 73 %
//! (`docs/2026-11-29-packed-bundles.md`). The solution is unchanged; the
//! reordering is a layer over whatever order the solver defines.
//!
//! A block's order or packing is a function of its input alone (its
//! constraints' bodies, which of them respond, and for the packing their
//! point counts), and a settled scene gives every block the same input step
//! after step: each block's last input and result are kept, and a repeated
//! input takes the stored one instead of being scheduled again.

use super::solver_body::SolverBody;

mod pack;
use pack::BlockPack;

/// Constraints reordered together.
pub(crate) const BLOCK: usize = 16384;

/// Scratch buffers for the wavefront order, and the orders of the last step's
/// blocks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wavefront {
    /// Per body: the block that last wrote it, and one past the level of the
    /// constraint that did (packing: one past its bundle).
    next_level: Vec<(u32, u32)>,
    /// The current block's number.
    block: u32,
    /// The current block's input: per constraint its bodies and which of
    /// them respond (bit 0: A, bit 1: B).
    keys: Vec<(u32, u32, u8)>,
    /// Per constraint of the block: its level.
    level: Vec<u32>,
    /// Per level: where its constraints start in the block's order.
    start: Vec<u32>,
    /// Per position of the block's order: its level.
    order_level: Vec<u32>,
    /// Per block number: the last input given for it and its order, which a
    /// repeated input takes (see the module docs).
    memo: Vec<BlockOrder>,
    /// Per block number: the last input given for it and its packing into
    /// bundles (see [`Wavefront::pack_block`]).
    packs: Vec<BlockPack>,
    /// The packing's pointers to the next bundle with a free lane, by kind
    /// (two points, one point; see `pack`).
    open: [Vec<u32>; 2],
}

/// One block's input and order (see [`Wavefront::order_block`]).
#[derive(Clone, Debug, Default)]
struct BlockOrder {
    keys: Vec<(u32, u32, u8)>,
    /// The block's order, and per position whether the next position has the
    /// same level (the two constraints are independent).
    order: Vec<u32>,
    with_next: Vec<bool>,
}

impl Wavefront {
    /// The wavefront order of a whole step's constraints (`items`, in the
    /// order the solver defines; `pair` gives an item's two bodies) into
    /// `out`: indices into `items`, in blocks of [`BLOCK`], and per position
    /// whether the next position is independent of it (`with_next`, as
    /// [`Wavefront::order_block`] gives; a block's last position is not).
    /// Resets the scratch. The joint passes visit independent joints one
    /// after another, and solve runs of independent plain hinges in lanes
    /// (`joint::lanes`).
    pub fn order_all<T>(
        &mut self,
        bodies: &[SolverBody],
        items: &[T],
        pair: impl Fn(&T) -> (u32, u32),
        out: &mut Vec<u32>,
        with_next: &mut Vec<bool>,
    ) {
        out.clear();
        with_next.clear();
        if items.is_empty() {
            return;
        }
        self.reset(bodies.len());
        for (k, block) in items.chunks(BLOCK).enumerate() {
            let (order, next) = self.order_block(bodies, block.iter().map(&pair));
            let base = (k * BLOCK) as u32;
            out.extend(order.iter().map(|&i| base + i));
            with_next.extend_from_slice(next);
        }
    }

    /// Starts a step with `bodies` solver bodies.
    pub fn reset(&mut self, bodies: usize) {
        self.next_level.clear();
        self.next_level.resize(bodies, (u32::MAX, 0));
        self.block = 0;
    }

    /// The order of one block of constraints, given by their bodies in the
    /// order the solver defines (blocks in sequence after [`Wavefront::reset`]):
    /// the indices sorted by level, stable within a level, and per position
    /// whether the constraint at the next position is independent of it.
    pub fn order_block(
        &mut self,
        bodies: &[SolverBody],
        pairs: impl Iterator<Item = (u32, u32)>,
    ) -> (&[u32], &[bool]) {
        let block = self.block;
        self.block += 1;
        self.keys.clear();
        self.keys.extend(pairs.map(|(a, b)| {
            let responds = |i: u32| bodies[i as usize].responds() as u8;
            (a, b, responds(a) | responds(b) << 1)
        }));
        let n = block as usize;
        if self.memo.len() <= n {
            self.memo.resize_with(n + 1, BlockOrder::default);
        }
        if self.memo[n].keys != self.keys {
            let mut memo = std::mem::take(&mut self.memo[n]);
            self.schedule(block, &mut memo);
            std::mem::swap(&mut memo.keys, &mut self.keys);
            self.memo[n] = memo;
        } else {
            debug_assert!(self.memo_matches(block), "stored order differs");
        }
        let memo = &self.memo[n];
        (&memo.order, &memo.with_next)
    }

    /// Schedules the constraints of `self.keys` as block number `block`
    /// into `out`'s order.
    fn schedule(&mut self, block: u32, out: &mut BlockOrder) {
        self.level.clear();
        self.start.clear();
        for &(a, b, responds) in &self.keys {
            let (a, b) = (a as usize, b as usize);
            let level_of = |e: (u32, u32)| if e.0 == block { e.1 } else { 0 };
            let (wa, wb) = (responds & 1 != 0, responds & 2 != 0);
            let mut level = 0;
            if wa {
                level = level_of(self.next_level[a]);
            }
            if wb {
                level = level.max(level_of(self.next_level[b]));
            }
            if wa {
                self.next_level[a] = (block, level + 1);
            }
            if wb {
                self.next_level[b] = (block, level + 1);
            }
            self.level.push(level);
            let l = level as usize;
            if self.start.len() <= l + 1 {
                self.start.resize(l + 2, 0);
            }
            self.start[l + 1] += 1;
        }
        // Counting sort: the start of each level, then place in input order.
        for l in 1..self.start.len() {
            self.start[l] += self.start[l - 1];
        }
        let n = self.level.len();
        out.order.clear();
        out.order.resize(n, 0);
        self.order_level.clear();
        self.order_level.resize(n, 0);
        for (i, &l) in self.level.iter().enumerate() {
            let slot = &mut self.start[l as usize];
            out.order[*slot as usize] = i as u32;
            self.order_level[*slot as usize] = l;
            *slot += 1;
        }
        out.with_next.clear();
        let levels = &self.order_level;
        out.with_next
            .extend((0..n).map(|p| levels.get(p + 1) == Some(&levels[p])));
    }

    /// Whether the stored order of block `block` is what scheduling its
    /// input again gives (a debug check of the memo).
    fn memo_matches(&mut self, block: u32) -> bool {
        let mut fresh = BlockOrder::default();
        self.schedule(block, &mut fresh);
        let memo = &self.memo[block as usize];
        fresh.order == memo.order && fresh.with_next == memo.with_next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `n` bodies; those in `fixed` do not respond (static, zero masses).
    pub(super) fn bodies(n: usize, fixed: &[usize]) -> Vec<SolverBody> {
        (0..n)
            .map(|i| SolverBody {
                inv_mass: if fixed.contains(&i) { 0.0 } else { 1.0 },
                inv_inertia: if fixed.contains(&i) { 0.0 } else { 1.0 },
                ..Default::default()
            })
            .collect()
    }

    pub(super) fn random_pairs(rng: &mut ChaCha8Rng, n: u32, count: usize) -> Vec<(u32, u32)> {
        (0..count)
            .map(|_| {
                let a = rng.random_range(0..n - 1);
                (a, rng.random_range(a + 1..n))
            })
            .collect()
    }

    /// One step's order of `pairs`, in blocks of `block` constraints.
    fn step_order(
        w: &mut Wavefront,
        bodies: &[SolverBody],
        pairs: &[(u32, u32)],
        block: usize,
    ) -> Vec<(Vec<u32>, Vec<bool>)> {
        w.reset(bodies.len());
        pairs
            .chunks(block)
            .map(|c| {
                let (order, with_next) = w.order_block(bodies, c.iter().copied());
                (order.to_vec(), with_next.to_vec())
            })
            .collect()
    }

    /// `order` is a permutation of `pairs`' indices in which every body that
    /// responds meets its constraints in input order.
    fn assert_keeps_sequences(order: &[u32], pairs: &[(u32, u32)], bodies: &[SolverBody]) {
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..pairs.len() as u32).collect::<Vec<_>>());
        for body in (0..bodies.len() as u32).filter(|&b| bodies[b as usize].responds()) {
            let seq: Vec<u32> = order
                .iter()
                .copied()
                .filter(|&i| pairs[i as usize].0 == body || pairs[i as usize].1 == body)
                .collect();
            assert!(seq.windows(2).all(|p| p[0] < p[1]), "body {body}: {seq:?}");
        }
    }

    #[test]
    fn the_order_keeps_each_bodys_sequence_and_levels_independent() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let fixed = [0, 1];
        let bodies = bodies(60, &fixed);
        let responds = |i: u32| !fixed.contains(&(i as usize));
        let mut w = Wavefront::default();
        for _ in 0..50 {
            let pairs = random_pairs(&mut rng, 60, 300);
            for (c, (order, with_next)) in pairs
                .chunks(97)
                .zip(step_order(&mut w, &bodies, &pairs, 97))
            {
                assert_keeps_sequences(&order, c, &bodies);
                // Neighbours marked independent share no responding body.
                for (p, &next) in with_next.iter().enumerate() {
                    if next {
                        let (x, y) = (c[order[p] as usize], c[order[p + 1] as usize]);
                        for body in [x.0, x.1] {
                            assert!(!responds(body) || (body != y.0 && body != y.1));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_repeated_block_reuses_its_order_and_a_changed_one_is_scheduled_again() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let pairs = random_pairs(&mut rng, 40, 200);
        let still = bodies(40, &[0]);
        let mut w = Wavefront::default();
        let first = step_order(&mut w, &still, &pairs, 64);
        assert_eq!(step_order(&mut w, &still, &pairs, 64), first);
        // A body stops responding (it fell asleep, say): the same pairs, but
        // it no longer orders anything, and every block must see that.
        let body = pairs[70].0 as usize;
        let changed = bodies(40, &[0, body]);
        let fresh = step_order(&mut Wavefront::default(), &changed, &pairs, 64);
        assert_ne!(fresh, first, "the test needs an input whose order changes");
        assert_eq!(step_order(&mut w, &changed, &pairs, 64), fresh);
        // A pair changes.
        let mut other = pairs.clone();
        other[5] = (pairs[6].0, pairs[5].1);
        let fresh = step_order(&mut Wavefront::default(), &still, &other, 64);
        assert_eq!(step_order(&mut w, &still, &other, 64), fresh);
        // Back to the first input.
        assert_eq!(step_order(&mut w, &still, &pairs, 64), first);
    }

    /// `order_all` (the joints' order) over more than one block: a
    /// permutation of the items that keeps, for every responding body, the
    /// order of its constraints; no items, no order.
    #[test]
    fn order_all_keeps_each_bodys_sequence_across_blocks() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let b = bodies(300, &[0, 5]);
        let pairs = random_pairs(&mut rng, 300, 2 * BLOCK + 123);
        let mut w = Wavefront::default();
        let (mut order, mut with_next) = (Vec::new(), Vec::new());
        w.order_all(&b, &pairs, |&p| p, &mut order, &mut with_next);
        assert_keeps_sequences(&order, &pairs, &b);
        assert!(
            order.windows(2).any(|s| s[0] > s[1]),
            "the order should differ from the input"
        );
        // Each run of positions flagged independent of the next shares no
        // responding body, and no run crosses a block's end.
        assert_eq!(with_next.len(), order.len());
        let mut run: Vec<u32> = Vec::new();
        let mut longest = 0;
        for (p, &i) in order.iter().enumerate() {
            let (x, y) = pairs[i as usize];
            for body in [x, y].into_iter().filter(|&k| b[k as usize].responds()) {
                assert!(!run.contains(&body), "position {p} shares body {body}");
                run.push(body);
            }
            longest = longest.max(run.len());
            if (p + 1) % BLOCK == 0 {
                assert!(!with_next[p], "a run crosses the end of a block");
            }
            if !with_next[p] {
                run.clear();
            }
        }
        assert!(longest >= 8, "runs of independent pairs ({longest} bodies)");
        w.order_all(&b, &[] as &[(u32, u32)], |&p| p, &mut order, &mut with_next);
        assert!(order.is_empty() && with_next.is_empty());
    }
}
