//! Islands and sleeping: bodies linked by contacts rest together and sleep
//! together once every one of them has been slow for `time_to_sleep`.
//!
//! Islands are rebuilt every step with a union-find over the contacts between
//! awake dynamic bodies (static bodies do not join islands, so two piles on one
//! floor sleep independently). Deterministic: bodies and contacts are visited in
//! index order.

/// Union-find with path halving and union by index (the smaller index becomes
/// the root, which keeps roots deterministic).
#[derive(Clone, Debug, Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = self.parent[x as usize];
        }
        x
    }

    pub fn union(&mut self, a: u32, b: u32) {
        let ra = self.find(a);
        let rb = self.find(b);
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi as usize] = lo;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_pick_smallest_root() {
        let mut uf = UnionFind::default();
        uf.reset(6);
        uf.union(4, 2);
        uf.union(5, 4);
        uf.union(1, 3);
        assert_eq!(uf.find(5), 2);
        assert_eq!(uf.find(3), 1);
        assert_ne!(uf.find(0), uf.find(1));
    }
}
