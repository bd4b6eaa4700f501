//! Packing a block of contact constraints into bundles (see the parent
//! module): the first bundle of the constraint's kind with a free lane after
//! every bundle that holds an earlier constraint of one of its responding
//! bodies.

use super::super::simd::LANES;
use super::super::solver_body::SolverBody;
use super::Wavefront;

/// One bundle of a block's packing: up to [`LANES`] positions in the block,
/// of one kind (one-point manifolds or two), whose constraints share no
/// responding body; and whether the next bundle of the block shares none
/// with it either.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Packed {
    pub lanes: [u32; LANES],
    pub fill: u8,
    pub single: bool,
    pub independent_of_next: bool,
}

/// One block's input and packing (see [`Wavefront::pack_block`]).
#[derive(Clone, Debug, Default)]
pub(super) struct BlockPack {
    keys: Vec<(u32, u32, u8)>,
    bundles: Vec<Packed>,
}

impl Wavefront {
    /// The bundles of one block of constraints, given by their bodies and
    /// kinds `(a, b, single)` in the order the solver defines (blocks in
    /// sequence after [`Wavefront::reset`]), in the sequence the passes
    /// visit them. Each constraint goes into the first bundle of its kind
    /// with a free lane that comes after every bundle holding an earlier
    /// constraint of one of its responding bodies, so every body meets its
    /// constraints in the given order, and the results are those of that
    /// order, bit for bit. A repeated input takes the stored packing.
    pub fn pack_block(
        &mut self,
        bodies: &[SolverBody],
        items: impl Iterator<Item = (u32, u32, bool)>,
    ) -> &[Packed] {
        let block = self.block;
        self.block += 1;
        self.keys.clear();
        self.keys.extend(items.map(|(a, b, single)| {
            let responds = |i: u32| bodies[i as usize].responds() as u8;
            (a, b, responds(a) | responds(b) << 1 | (single as u8) << 2)
        }));
        let n = block as usize;
        if self.packs.len() <= n {
            self.packs.resize_with(n + 1, BlockPack::default);
        }
        if self.packs[n].keys != self.keys {
            let mut memo = std::mem::take(&mut self.packs[n]);
            self.pack(block, &mut memo.bundles);
            std::mem::swap(&mut memo.keys, &mut self.keys);
            self.packs[n] = memo;
        } else {
            debug_assert!(self.pack_matches(block), "stored packing differs");
        }
        &self.packs[n].bundles
    }

    /// Packs the constraints of `self.keys` as block number `block` into
    /// `out` (see [`Wavefront::pack_block`]).
    fn pack(&mut self, block: u32, out: &mut Vec<Packed>) {
        out.clear();
        let mut open = std::mem::take(&mut self.open);
        for o in &mut open {
            o.clear();
        }
        for (i, &(a, b, bits)) in self.keys.iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let (wa, wb, single) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
            let after = |e: (u32, u32)| if e.0 == block { e.1 } else { 0 };
            let mut earliest = 0;
            if wa {
                earliest = after(self.next_level[a]);
            }
            if wb {
                earliest = earliest.max(after(self.next_level[b]));
            }
            let kind = &mut open[single as usize];
            let at = kind.partition_point(|&j| j < earliest);
            let j = if let Some(&j) = kind.get(at) {
                let p = &mut out[j as usize];
                p.lanes[p.fill as usize] = i as u32;
                p.fill += 1;
                if p.fill as usize == LANES {
                    kind.remove(at);
                }
                j
            } else {
                let j = out.len() as u32;
                let mut p = Packed {
                    single,
                    fill: 1,
                    ..Default::default()
                };
                p.lanes[0] = i as u32;
                out.push(p);
                kind.push(j);
                j
            };
            if wa {
                self.next_level[a] = (block, j + 1);
            }
            if wb {
                self.next_level[b] = (block, j + 1);
            }
        }
        self.open = open;
        // Neighbours that share no responding body.
        if self.written.len() < self.next_level.len() {
            self.written.resize(self.next_level.len(), (u32::MAX, 0));
        }
        for j in 0..out.len() {
            let p = out[j];
            if j > 0 {
                let previous = (block, j as u32 - 1);
                let shared = written_bodies(&self.keys, &p).any(|x| self.written[x] == previous);
                out[j - 1].independent_of_next = !shared;
            }
            for x in written_bodies(&self.keys, &p) {
                self.written[x] = (block, j as u32);
            }
        }
    }

    /// Whether the stored packing of block `block` is what packing its
    /// input (`self.keys`, equal to the stored one) again gives: a debug
    /// check of the memo.
    fn pack_matches(&mut self, block: u32) -> bool {
        let mut fresh = Vec::new();
        self.pack(block, &mut fresh);
        fresh == self.packs[block as usize].bundles
    }
}

/// The responding bodies of bundle `p`'s constraints (`keys` as in
/// [`Wavefront::pack_block`]).
fn written_bodies<'k>(
    keys: &'k [(u32, u32, u8)],
    p: &'k Packed,
) -> impl Iterator<Item = usize> + 'k {
    p.lanes[..p.fill as usize].iter().flat_map(move |&i| {
        let (a, b, bits) = keys[i as usize];
        [(a, bits & 1 != 0), (b, bits & 2 != 0)]
            .into_iter()
            .filter_map(|(x, w)| w.then_some(x as usize))
    })
}

#[cfg(test)]
mod tests;
