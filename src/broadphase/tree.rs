//! The query tree: a bounding volume hierarchy (BVH) over the broadphase's fat
//! boxes, for world queries (rays, shape casts, box and point overlaps).
//!
//! Pipeline stage: none of the step's. The sweep-and-prune answers "which boxes
//! overlap this box", which for a long diagonal ray means every box under the
//! ray's bounding box. The tree answers "which boxes does this segment cross",
//! front to back, so a closest-hit ray stops as soon as no box ahead can beat the
//! best hit so far. [`super::SweepAndPrune::tree`] builds it lazily, on the first
//! query after a fat box changed, so a step in which nobody asks costs nothing.
//!
//! # Build
//!
//! A top-down binned build with the surface area heuristic (SAH; in 2D the
//! "area" is the half-perimeter), after I. Wald, "On fast construction of
//! SAH-based bounding volume hierarchies" (2007): the centroids of a node's
//! boxes are dropped into [`BINS`] bins along each axis, and the split between
//! bins with the least `n_left·p_left + n_right·p_right` wins. Boxes with equal
//! centroids are halved in id order. Leaves hold at most [`LEAF_SIZE`] boxes.
//! The build is a pure function of the `(id, box)` list: no hashing, no
//! randomness, no threads, so the same boxes give the same tree on every run.
//! Cost: O(n log n) for n boxes; about 25 bytes per box for the items and 24
//! per node, 2n nodes at most.
//!
//! # Queries
//!
//! - [`QueryTree::query`]: every id whose box overlaps a box (closed intervals).
//! - [`QueryTree::cast`]: every id whose box the segment `origin + t·delta`,
//!   `t ∈ [0, max_t]`, crosses, with each box first grown by an `extent` (so a
//!   moving box is a ray against grown boxes: the Minkowski sum). Slab test per
//!   node, nearer child first, farther child on a stack with its entry `t`; the
//!   visitor returns the new `max_t`, and subtrees entered beyond it are
//!   skipped (entered exactly at it are still visited, so ties can be broken by
//!   the caller).
//!
//! Every stored box is padded outward by about 10⁻⁵ of its coordinates, so the
//! slab test's rounding can only add candidates, never drop one: callers test
//! each candidate exactly.

use crate::math::{Aabb, Vec2};

/// Centroid bins per axis in the SAH build.
const BINS: usize = 16;
/// Most boxes in one leaf.
pub const LEAF_SIZE: usize = 2;
/// Node depth kept on the call stack during a traversal; deeper trees spill
/// onto the heap.
const STACK: usize = 64;

/// One stored box: the padded fat box of broadphase id `id` (m).
#[derive(Clone, Copy, Debug)]
struct Item {
    lo: [f32; 2],
    hi: [f32; 2],
    id: u32,
}

/// A node: its box (m) and either two children (`count == 0`: nodes `first`
/// and `first + 1`) or `count` items from `first`.
#[derive(Clone, Copy, Debug)]
struct Node {
    lo: [f32; 2],
    hi: [f32; 2],
    first: u32,
    count: u32,
}

/// A segment for [`QueryTree::cast`]: the points `origin + t·delta` for
/// `t ∈ [0, max_t]`, swept against boxes grown by `extent` on each side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeRay {
    /// Start (world, m).
    pub origin: Vec2,
    /// Direction and scale of the parameter `t` (m per unit of `t`); need not
    /// be unit, may be zero (then the query is a point, or a box with `extent`).
    pub delta: Vec2,
    /// Largest `t` (units of `delta`); 0 or more.
    pub max_t: f32,
    /// Half extents added to every stored box (m, ≥ 0): the half size of a
    /// moving box centred on the segment.
    pub extent: Vec2,
}

/// A bounding volume hierarchy over `(id, box)` pairs; see the module notes.
///
/// ```
/// use minkowski::broadphase::{QueryTree, TreeRay};
/// use minkowski::{Aabb, Vec2};
/// let boxes = (0..10u32).map(|i| {
///     let x = 2.0 * i as f32;
///     (i, Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)))
/// });
/// let tree = QueryTree::build(boxes);
/// // A ray along y = 0.5 from x = 4.5 meets box 2 first (it starts inside).
/// let ray = TreeRay { origin: Vec2::new(4.5, 0.5), delta: Vec2::X, max_t: 100.0, extent: Vec2::ZERO };
/// let mut seen = Vec::new();
/// tree.cast(&ray, |id, max_t| { seen.push(id); max_t });
/// seen.sort();
/// assert_eq!(seen, [2, 3, 4, 5, 6, 7, 8, 9]); // not 0 and 1, behind it
/// let mut first = None;
/// tree.cast(&ray, |id, _| { first = Some(id); 0.0 }); // stop at the first
/// assert_eq!(first, Some(2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct QueryTree {
    nodes: Vec<Node>,
    items: Vec<Item>,
}

/// `v` moved outward by about 10⁻⁵ of its size (plus 10⁻⁵ m near 0).
#[inline]
fn pad(v: f32, outward: f32) -> f32 {
    v + outward * 1.0e-5 * (1.0 + v.abs())
}

/// Half-perimeter of a box: the 2D "surface area" of the SAH (m).
#[inline]
fn half_perimeter(lo: [f32; 2], hi: [f32; 2]) -> f32 {
    (hi[0] - lo[0]) + (hi[1] - lo[1])
}

/// The union of `a` and `b`.
#[inline]
fn grow(a: &mut ([f32; 2], [f32; 2]), lo: [f32; 2], hi: [f32; 2]) {
    for k in 0..2 {
        a.0[k] = a.0[k].min(lo[k]);
        a.1[k] = a.1[k].max(hi[k]);
    }
}

const EMPTY: ([f32; 2], [f32; 2]) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);

/// Centroid of an item along `axis`, doubled (the halving is not needed to
/// order or bin them).
#[inline]
fn centroid2(it: &Item, axis: usize) -> f32 {
    it.lo[axis] + it.hi[axis]
}

impl QueryTree {
    /// Builds the tree over `boxes` (`(id, box)`, boxes in m); invalid boxes
    /// ([`Aabb::is_valid`] false) are left out. The result depends only on the
    /// sequence given. Cost: O(n log n).
    pub fn build(boxes: impl IntoIterator<Item = (u32, Aabb)>) -> QueryTree {
        let mut items: Vec<Item> = boxes
            .into_iter()
            .filter(|(_, b)| b.is_valid())
            .map(|(id, b)| Item {
                lo: [pad(b.min.x, -1.0), pad(b.min.y, -1.0)],
                hi: [pad(b.max.x, 1.0), pad(b.max.y, 1.0)],
                id,
            })
            .collect();
        let mut nodes = Vec::new();
        if items.is_empty() {
            return QueryTree { nodes, items };
        }
        nodes.push(Node {
            lo: [0.0; 2],
            hi: [0.0; 2],
            first: 0,
            count: 0,
        });
        // (node, first item, end item): an explicit stack, as a skewed split
        // sequence could nest deeper than the call stack allows.
        let mut work = vec![(0usize, 0usize, items.len())];
        while let Some((ni, s, e)) = work.pop() {
            let mut b = EMPTY;
            for it in &items[s..e] {
                grow(&mut b, it.lo, it.hi);
            }
            let leaf = Node {
                lo: b.0,
                hi: b.1,
                first: s as u32,
                count: (e - s) as u32,
            };
            if e - s <= LEAF_SIZE {
                nodes[ni] = leaf;
                continue;
            }
            let mid = s + split(&mut items[s..e]);
            let left = nodes.len();
            nodes.push(leaf);
            nodes.push(leaf);
            nodes[ni] = Node {
                first: left as u32,
                count: 0,
                ..leaf
            };
            work.push((left + 1, mid, e));
            work.push((left, s, mid));
        }
        QueryTree { nodes, items }
    }

    /// Number of boxes stored.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// `true` when no box is stored.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Calls `visit` with the id of every stored box that overlaps `aabb`
    /// (m; closed intervals: touching counts), each once, in tree order. An
    /// invalid `aabb` visits nothing.
    pub fn query(&self, aabb: &Aabb, mut visit: impl FnMut(u32)) {
        if self.nodes.is_empty() || !aabb.is_valid() {
            return;
        }
        let (qlo, qhi) = ([aabb.min.x, aabb.min.y], [aabb.max.x, aabb.max.y]);
        let hits = |lo: [f32; 2], hi: [f32; 2]| (0..2).all(|k| lo[k] <= qhi[k] && qlo[k] <= hi[k]);
        let mut stack = Stack::new();
        let mut at = Some(0u32);
        while let Some(ni) = at.or_else(|| stack.pop().map(|e| e.0)) {
            at = None;
            let n = &self.nodes[ni as usize];
            if !hits(n.lo, n.hi) {
                continue;
            }
            if n.count == 0 {
                stack.push((n.first + 1, 0.0));
                at = Some(n.first);
                continue;
            }
            for it in &self.items[n.first as usize..(n.first + n.count) as usize] {
                if hits(it.lo, it.hi) {
                    visit(it.id);
                }
            }
        }
    }

    /// Walks the stored boxes (each grown by `ray.extent`) that the segment
    /// crosses, subtrees in order of entry (the nearer child first; the boxes
    /// of one leaf in stored order): `visit(id, max_t)` gets each such box's id
    /// and the current `max_t`, and returns the new `max_t` (normally the
    /// current one, or less once the caller has a hit). Boxes and subtrees
    /// entered beyond the current `max_t` are skipped; entered exactly at it
    /// they are still visited. Each id at most once. A segment with a
    /// non-finite input or a negative `max_t` visits nothing.
    pub fn cast(&self, ray: &TreeRay, mut visit: impl FnMut(u32, f32) -> f32) {
        let finite = ray.origin.is_finite()
            && ray.delta.is_finite()
            && ray.extent.is_finite()
            && ray.max_t.is_finite();
        if self.nodes.is_empty() || !finite || ray.max_t < 0.0 {
            return;
        }
        let o = [ray.origin.x, ray.origin.y];
        let e = [ray.extent.x.abs(), ray.extent.y.abs()];
        let inv = [1.0 / ray.delta.x, 1.0 / ray.delta.y];
        let mut max_t = ray.max_t;
        // Entry `t` of a box, `None` if the segment up to `max_t` misses it.
        // With `inv` infinite (the segment parallel to a slab) a product can be
        // NaN only on the grown box's boundary; `min`/`max` then keep the other
        // operand, which at worst keeps a box (callers test exactly).
        let enter = |lo: [f32; 2], hi: [f32; 2], max_t: f32| {
            let (mut t0, mut t1) = (0.0f32, max_t);
            for k in 0..2 {
                let a = (lo[k] - e[k] - o[k]) * inv[k];
                let b = (hi[k] + e[k] - o[k]) * inv[k];
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
            (t0 <= t1).then_some(t0)
        };
        let root = &self.nodes[0];
        let Some(t) = enter(root.lo, root.hi, max_t) else {
            return;
        };
        let mut stack = Stack::new();
        let mut at = Some((0u32, t));
        while let Some((ni, t)) = at.or_else(|| stack.pop()) {
            at = None;
            if t > max_t {
                continue;
            }
            let n = &self.nodes[ni as usize];
            if n.count == 0 {
                let (l, r) = (
                    &self.nodes[n.first as usize],
                    &self.nodes[n.first as usize + 1],
                );
                match (enter(l.lo, l.hi, max_t), enter(r.lo, r.hi, max_t)) {
                    (Some(tl), Some(tr)) if tr < tl => {
                        stack.push((n.first, tl));
                        at = Some((n.first + 1, tr));
                    }
                    (Some(tl), Some(tr)) => {
                        stack.push((n.first + 1, tr));
                        at = Some((n.first, tl));
                    }
                    (Some(tl), None) => at = Some((n.first, tl)),
                    (None, Some(tr)) => at = Some((n.first + 1, tr)),
                    (None, None) => {}
                }
                continue;
            }
            for it in &self.items[n.first as usize..(n.first + n.count) as usize] {
                if enter(it.lo, it.hi, max_t).is_some() {
                    max_t = visit(it.id, max_t).min(max_t);
                }
            }
        }
    }
}

/// Splits `items` (more than [`LEAF_SIZE`]) in place into two non-empty runs
/// by the binned SAH and returns the length of the first.
fn split(items: &mut [Item]) -> usize {
    let n = items.len();
    let mut cb = EMPTY;
    for it in items.iter() {
        let c = [centroid2(it, 0), centroid2(it, 1)];
        grow(&mut cb, c, c);
    }
    // (cost, axis, first bin of the right side)
    let mut best: Option<(f32, usize, usize)> = None;
    for axis in 0..2 {
        let extent = cb.1[axis] - cb.0[axis];
        if extent.is_nan() || extent <= 0.0 {
            continue;
        }
        let bin = binner(cb.0[axis], extent);
        let mut count = [0usize; BINS];
        let mut bounds = [EMPTY; BINS];
        for it in items.iter() {
            let k = bin(centroid2(it, axis));
            count[k] += 1;
            grow(&mut bounds[k], it.lo, it.hi);
        }
        // Right-hand sums from the top bin down, then a sweep from the left.
        let mut right_cost = [0.0f32; BINS];
        let (mut acc, mut cnt) = (EMPTY, 0usize);
        for k in (1..BINS).rev() {
            grow(&mut acc, bounds[k].0, bounds[k].1);
            cnt += count[k];
            right_cost[k] = if cnt == 0 {
                0.0
            } else {
                cnt as f32 * half_perimeter(acc.0, acc.1)
            };
        }
        let (mut acc, mut cnt) = (EMPTY, 0usize);
        for k in 1..BINS {
            grow(&mut acc, bounds[k - 1].0, bounds[k - 1].1);
            cnt += count[k - 1];
            if cnt == 0 || cnt == n {
                continue;
            }
            let cost = cnt as f32 * half_perimeter(acc.0, acc.1) + right_cost[k];
            if best.is_none_or(|b| cost < b.0) {
                best = Some((cost, axis, k));
            }
        }
    }
    let Some((_, axis, k)) = best else {
        // Every centroid is the same point: halve the run.
        return n / 2;
    };
    let bin = binner(cb.0[axis], cb.1[axis] - cb.0[axis]);
    // In-place partition; the order within each side is a pure function of
    // the input order, which is all determinism needs.
    let mut left = 0;
    for i in 0..n {
        if bin(centroid2(&items[i], axis)) < k {
            items.swap(i, left);
            left += 1;
        }
    }
    left
}

/// The bin of a (doubled) centroid coordinate, for centroids spanning
/// `[min, min + extent]`.
fn binner(min: f32, extent: f32) -> impl Fn(f32) -> usize {
    let scale = BINS as f32 / extent;
    move |c: f32| (((c - min) * scale) as usize).min(BINS - 1)
}

/// A traversal stack: the first [`STACK`] entries without allocating.
struct Stack {
    fixed: [(u32, f32); STACK],
    len: usize,
    spill: Vec<(u32, f32)>,
}

impl Stack {
    fn new() -> Stack {
        Stack {
            fixed: [(0, 0.0); STACK],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, e: (u32, f32)) {
        if self.len < STACK && self.spill.is_empty() {
            self.fixed[self.len] = e;
            self.len += 1;
        } else {
            self.spill.push(e);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, f32)> {
        if let Some(e) = self.spill.pop() {
            return Some(e);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.fixed[self.len])
    }
}

#[cfg(test)]
mod tests;
