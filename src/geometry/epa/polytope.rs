//! The polytope EPA grows inside B − A: a ring of support points in
//! counter-clockwise order, and a heap of its sides by distance from the
//! origin. Fixed capacity, no allocation per query.

use super::CAPACITY;
use crate::geometry::simplex::SimplexVertex;
use crate::math::{cross, Rot, Vec2};

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Edge {
    pub distance: f32,
    pub normal: Vec2,
    pub i: u8,
    pub j: u8,
    seq: u16,
}

impl Edge {
    #[inline]
    fn before(&self, other: &Edge) -> bool {
        // Strict order for determinism: nearer first, then older first.
        self.distance < other.distance || (self.distance == other.distance && self.seq < other.seq)
    }
}

/// Fixed-capacity binary min-heap of edges (no allocation per query).
pub(super) struct EdgeHeap {
    items: [Edge; 2 * CAPACITY],
    len: usize,
}

impl EdgeHeap {
    pub fn new() -> Self {
        EdgeHeap {
            items: [Edge::default(); 2 * CAPACITY],
            len: 0,
        }
    }

    pub fn push(&mut self, e: Edge) {
        if self.len == self.items.len() {
            return; // Cannot happen within MAX_ITERATIONS; dropping is safe.
        }
        let mut k = self.len;
        self.items[k] = e;
        self.len += 1;
        while k > 0 {
            let parent = (k - 1) / 2;
            if self.items[k].before(&self.items[parent]) {
                self.items.swap(k, parent);
                k = parent;
            } else {
                break;
            }
        }
    }

    pub fn pop(&mut self) -> Option<Edge> {
        if self.len == 0 {
            return None;
        }
        let top = self.items[0];
        self.len -= 1;
        self.items[0] = self.items[self.len];
        let mut k = 0;
        loop {
            let (l, r) = (2 * k + 1, 2 * k + 2);
            let mut m = k;
            if l < self.len && self.items[l].before(&self.items[m]) {
                m = l;
            }
            if r < self.len && self.items[r].before(&self.items[m]) {
                m = r;
            }
            if m == k {
                break;
            }
            self.items.swap(k, m);
            k = m;
        }
        Some(top)
    }
}

pub(super) struct Polytope {
    pub verts: [SimplexVertex; CAPACITY],
    /// `next[i]`: the vertex after `i` counter-clockwise.
    pub next: [u8; CAPACITY],
    /// `prev[i]`: the vertex before `i` counter-clockwise.
    pub prev: [u8; CAPACITY],
    /// Whether vertex `i` is still on the polytope's boundary.
    pub alive: [bool; CAPACITY],
    pub len: usize,
    pub heap: EdgeHeap,
    pub seq: u16,
}

impl Polytope {
    pub fn add_vertex(&mut self, v: SimplexVertex) -> u8 {
        self.verts[self.len] = v;
        self.alive[self.len] = true;
        self.len += 1;
        (self.len - 1) as u8
    }

    pub fn add_edge(&mut self, i: u8, j: u8) {
        self.next[i as usize] = j;
        self.prev[j as usize] = i;
        let (a, b) = (self.verts[i as usize].w, self.verts[j as usize].w);
        let e = b - a;
        let len = e.length();
        if len <= f32::EPSILON * a.length().max(b.length()).max(f32::MIN_POSITIVE) {
            return; // A zero-length edge has no normal; its neighbours cover it.
        }
        // Outward normal of a counter-clockwise edge is its right perpendicular.
        let normal = Vec2::new(e.y, -e.x) / len;
        self.seq = self.seq.wrapping_add(1);
        self.heap.push(Edge {
            distance: normal.dot(a),
            normal,
            i,
            j,
            seq: self.seq,
        });
    }

    /// Whether a popped edge is still a side of the polytope (an insertion can
    /// swallow edges that stay in the heap).
    pub fn is_side(&self, e: &Edge) -> bool {
        self.alive[e.i as usize] && self.next[e.i as usize] == e.j
    }

    /// Inserts the support point `w` found beyond side `e`, keeping the
    /// polytope convex: every side that `w` also lies beyond is removed with it.
    /// With exact support points only `e` is ever beyond `w`, but the start
    /// simplex may hold points inside B − A (GJK warm-started from last step's
    /// simplex), and a polytope that turned concave there would lose the
    /// origin and with it every bound.
    pub fn insert(&mut self, e: &Edge, w: SimplexVertex) {
        let beyond = |p: &Polytope, a: u8, b: u8| {
            let (a, b) = (p.verts[a as usize].w, p.verts[b as usize].w);
            cross(b - a, w.w - a) < 0.0
        };
        let (mut i, mut j) = (e.i, e.j);
        loop {
            let h = self.prev[i as usize];
            if h == j || !beyond(self, h, i) {
                break;
            }
            self.alive[i as usize] = false;
            i = h;
        }
        loop {
            let l = self.next[j as usize];
            if l == i || !beyond(self, j, l) {
                break;
            }
            self.alive[j as usize] = false;
            j = l;
        }
        let k = self.add_vertex(w);
        self.add_edge(i, k);
        self.add_edge(k, j);
    }

    pub fn ccw_points(&self, start: u8, rot: Rot) -> Vec<Vec2> {
        let mut out = Vec::with_capacity(self.len);
        let mut k = start;
        for _ in 0..self.len {
            out.push(rot.apply(self.verts[k as usize].w));
            k = self.next[k as usize];
            if k == start {
                break;
            }
        }
        out
    }
}
