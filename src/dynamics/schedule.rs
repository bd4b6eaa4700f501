//! The order the contact passes visit the constraints in.
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
//! previous one's result: the passes run one long dependency chain.
//! [`Wavefront`] reorders them, within blocks of [`BLOCK`] consecutive
//! constraints, by *level*: the length of the longest chain of earlier
//! constraints of the block through shared bodies, keeping the given order
//! within a level. The constraints of one level are independent, and the
//! solver cuts each level into bundles of four that it solves at once, one
//! lane each (see `contact_solver::bundles`). Blocks bound how far a
//! constraint moves from its place in the given order (each block is
//! scheduled as soon as it is built, from contacts read in sequence); the
//! larger they are, the longer the levels: in Box2D's large pyramid, blocks
//! of 256 constraints leave 45 % of them in full bundles, blocks of 4,096
//! leave 90 %. The solution is unchanged; the reordering is a layer over
//! whatever order the solver defines.

use super::solver_body::SolverBody;

/// Constraints reordered together.
pub(crate) const BLOCK: usize = 4096;

/// Scratch buffers for the wavefront order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wavefront {
    /// Per body: the block that last wrote it, and one past the level of the
    /// constraint that did.
    next_level: Vec<(u32, u32)>,
    /// The current block's number.
    block: u32,
    /// Per constraint of the block: its level.
    level: Vec<u32>,
    /// Per level: where its constraints start in the block's order.
    start: Vec<u32>,
    /// The block's order, and per position its level.
    order: Vec<u32>,
    order_level: Vec<u32>,
    /// Per position: whether the next position has the same level (the two
    /// constraints are independent).
    with_next: Vec<bool>,
}

impl Wavefront {
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
        self.level.clear();
        self.start.clear();
        for (a, b) in pairs {
            let (a, b) = (a as usize, b as usize);
            let level_of = |e: (u32, u32)| if e.0 == block { e.1 } else { 0 };
            let (wa, wb) = (bodies[a].responds(), bodies[b].responds());
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
        self.order.clear();
        self.order.resize(n, 0);
        self.order_level.clear();
        self.order_level.resize(n, 0);
        for (i, &l) in self.level.iter().enumerate() {
            let slot = &mut self.start[l as usize];
            self.order[*slot as usize] = i as u32;
            self.order_level[*slot as usize] = l;
            *slot += 1;
        }
        self.with_next.clear();
        let levels = &self.order_level;
        self.with_next
            .extend((0..n).map(|p| levels.get(p + 1) == Some(&levels[p])));
        (&self.order, &self.with_next)
    }
}
