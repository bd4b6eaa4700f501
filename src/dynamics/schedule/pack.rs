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
    ///
    /// The first bundle of a kind with a free lane at or after a given one
    /// is found by following `skip` pointers (one list per kind: a bundle
    /// of the other kind, or a full one, points past itself), with path
    /// compression, so a long run of full bundles is crossed once.
    /// Bundles `j - 1` and `j` share a body exactly when a constraint in
    /// `j` has a body whose previous constraint is in `j - 1` (a body's
    /// bundles increase, and nothing lies between the two).
    fn pack(&mut self, block: u32, out: &mut Vec<Packed>) {
        out.clear();
        let mut skip = std::mem::take(&mut self.open);
        for s in &mut skip {
            s.clear();
            s.push(0);
        }
        for (i, &(a, b, bits)) in self.keys.iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let (wa, wb, single) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
            let after = |e: (u32, u32)| if e.0 == block { e.1 } else { 0 };
            let (after_a, after_b) = (
                if wa { after(self.next_level[a]) } else { 0 },
                if wb { after(self.next_level[b]) } else { 0 },
            );
            let kind = single as usize;
            let j = first_open(&mut skip[kind], after_a.max(after_b));
            if j as usize == out.len() {
                out.push(Packed {
                    single,
                    independent_of_next: true,
                    ..Default::default()
                });
                // Open for its kind, closed for the other; new sentinels.
                for (k, s) in skip.iter_mut().enumerate() {
                    s[j as usize] = if k == kind { j } else { j + 1 };
                    s.push(j + 1);
                }
            }
            let p = &mut out[j as usize];
            p.lanes[p.fill as usize] = i as u32;
            p.fill += 1;
            if p.fill as usize == LANES {
                skip[kind][j as usize] = j + 1;
            }
            if j > 0 && (after_a == j || after_b == j) {
                out[j as usize - 1].independent_of_next = false;
            }
            if wa {
                self.next_level[a] = (block, j + 1);
            }
            if wb {
                self.next_level[b] = (block, j + 1);
            }
        }
        self.open = skip;
        if let Some(last) = out.last_mut() {
            last.independent_of_next = false;
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

/// The first index at or after `from` whose `skip` entry points to itself
/// (the last entry, one past the bundles, always does), compressing the
/// path walked.
fn first_open(skip: &mut [u32], from: u32) -> u32 {
    let mut root = from;
    while skip[root as usize] != root {
        root = skip[root as usize];
    }
    let mut x = from;
    while skip[x as usize] != root {
        let next = skip[x as usize];
        skip[x as usize] = root;
        x = next;
    }
    root
}

#[cfg(test)]
mod tests;
