//! Box queries against the sweep-and-prune: all bodies (through the
//! regions) and the static-flagged ones (through a query tree).

use super::*;

impl SweepAndPrune {
    /// Writes into `out` (cleared first) the ids whose current fat box overlaps `aabb`
    /// (m), ascending. An invalid `aabb` gives no ids.
    pub fn query(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        if !aabb.is_valid() {
            return;
        }
        let q = canon_box(aabb);
        let (_, _, p0, p1) = self.split(&q);
        let (lo, hi) = (self.band_of(p0), self.band_of(p1));
        // The regions hold each body as of the last refresh; bodies changed since then
        // are skipped there and tested directly against their current fat box.
        self.visit(&q, lo, hi, |o| {
            if !self.dirty_bits.get(o) {
                out.push(o);
            }
        });
        for &d in &self.dirty {
            let b = &self.bodies[d as usize];
            if b.present && b.fat.is_some_and(|f| f.overlaps(&q)) {
                out.push(d);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Whether any registered body is flagged static (answered from the
    /// tree [`query_static`](Self::query_static) searches).
    pub fn has_static(&self) -> bool {
        !self.static_tree().is_empty()
    }

    /// The query tree over the static-flagged bodies, built on the first
    /// call after a static body changed.
    fn static_tree(&self) -> &QueryTree {
        self.static_tree.get_or_init(|| {
            QueryTree::build(self.bodies.iter().enumerate().filter_map(|(i, b)| {
                let listed = b.present && self.static_bits.get(i as u32);
                b.fat.filter(|_| listed).map(|f| (i as u32, f))
            }))
        })
    }

    /// [`query`](Self::query) over the static-flagged bodies only: the ids
    /// of static bodies whose current fat box overlaps `aabb`, ascending.
    /// Answered from a query tree over the static bodies, built on the first
    /// call after a static body changed: a fast body sweeping through a
    /// crowd meets its neighbours' boxes in the sweep-and-prune's regions,
    /// here only the few static ones.
    pub fn query_static(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        if !aabb.is_valid() {
            return;
        }
        let q = canon_box(aabb);
        let tree = self.static_tree();
        // The tree's boxes are padded: each candidate is tested exactly.
        tree.query(&q, |id| {
            if self.bodies[id as usize].fat.is_some_and(|f| f.overlaps(&q)) {
                out.push(id);
            }
        });
        out.sort_unstable();
    }
}
