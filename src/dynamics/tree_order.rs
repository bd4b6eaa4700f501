//! The elimination order of a spanning forest of constraints, for the exact
//! tree solves (the joints' rigid rows, `joint::forest`; the contacts'
//! normal rows, `contact_solver::forest`).
//!
//! The graph has a node per moving body and per constraint, and an edge
//! where a constraint holds a moving body; bodies that do not move are not
//! nodes. The caller has already left out the constraints that would close
//! a loop, so the graph is a forest. Each tree is searched depth first from
//! a starting constraint the caller names, and the pre-order reversed: every
//! node comes before its parent, leaves first, each tree's entries
//! contiguous and ending at its root. Everything is visited in the order
//! given, so the order is a function of the input alone.

/// Trees whose heaviest moving body is at least this many times the
/// lightest get an exact solve; with comparable masses the one-at-a-time
/// passes converge well enough, and the solve would cost time for nothing.
/// Ten boxes of alternating densities 1 : 3 already stand 1 cm off their
/// places under the passes alone (`docs/2026-11-26-mass-ratio-forest.md`).
pub(crate) const MASS_RATIO: f32 = 3.0;

use super::block3::{mul_vec, M3};

/// A node: a body (solver slot) or a constraint (the caller's id).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Node {
    Body(u32),
    Constraint(u32),
}

/// One elimination step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub node: Node,
    /// Index of the parent entry, or `u32::MAX` for a root.
    pub parent: u32,
}

/// The order, and the search's scratch.
#[derive(Clone, Debug, Default)]
pub(crate) struct TreeOrder {
    /// Leaves first: every entry comes before its parent.
    pub order: Vec<Entry>,
    /// The entries of `order` that are roots: each tree is the range of
    /// entries after the previous root up to its own.
    pub roots: Vec<u32>,
    adjacency: Vec<u32>,
    adjacency_start: Vec<u32>,
    fill: Vec<u32>,
    body_seen: Vec<bool>,
    done: Vec<bool>,
    /// Per stacked node: the node (a constraint by its position in the
    /// list) and its parent entry.
    stack: Vec<(Node, u32)>,
    pre: Vec<Entry>,
}

impl TreeOrder {
    /// Orders the forest of `constraints` (each: the caller's id and its
    /// two bodies) over `bodies` solver slots, where `moves(s)` says whether
    /// body `s` is a node. Trees are grown from the constraints at the
    /// positions `starts` yields, in that order, skipping those already
    /// reached; `starts` must name at least one constraint of every tree.
    pub fn build(
        &mut self,
        bodies: usize,
        constraints: &[(u32, u32, u32)],
        moves: impl Fn(u32) -> bool,
        starts: impl Iterator<Item = usize>,
    ) {
        self.order.clear();
        self.roots.clear();
        // Body → constraints adjacency (CSR), in the given order.
        self.adjacency_start.clear();
        self.adjacency_start.resize(bodies + 1, 0);
        for &(_, a, b) in constraints {
            for s in [a, b] {
                if moves(s) {
                    self.adjacency_start[s as usize + 1] += 1;
                }
            }
        }
        for i in 0..bodies {
            self.adjacency_start[i + 1] += self.adjacency_start[i];
        }
        self.adjacency.clear();
        self.adjacency
            .resize(self.adjacency_start[bodies] as usize, u32::MAX);
        self.fill.clear();
        self.fill.extend_from_slice(&self.adjacency_start[..bodies]);
        for (k, &(_, a, b)) in constraints.iter().enumerate() {
            for s in [a, b] {
                if moves(s) {
                    self.adjacency[self.fill[s as usize] as usize] = k as u32;
                    self.fill[s as usize] += 1;
                }
            }
        }
        self.body_seen.clear();
        self.body_seen.resize(bodies, false);
        self.done.clear();
        self.done.resize(constraints.len(), false);
        self.pre.clear();
        for start in starts {
            if self.done[start] {
                continue;
            }
            self.done[start] = true;
            self.stack.clear();
            self.stack.push((Node::Constraint(start as u32), u32::MAX));
            while let Some((node, parent)) = self.stack.pop() {
                let me = self.pre.len() as u32;
                match node {
                    Node::Constraint(k) => {
                        let (id, a, b) = constraints[k as usize];
                        self.pre.push(Entry {
                            node: Node::Constraint(id),
                            parent,
                        });
                        for s in [a, b] {
                            if moves(s) && !self.body_seen[s as usize] {
                                self.body_seen[s as usize] = true;
                                self.stack.push((Node::Body(s), me));
                            }
                        }
                    }
                    Node::Body(s) => {
                        self.pre.push(Entry { node, parent });
                        let (lo, hi) = (
                            self.adjacency_start[s as usize] as usize,
                            self.adjacency_start[s as usize + 1] as usize,
                        );
                        for &k in &self.adjacency[lo..hi] {
                            if !self.done[k as usize] {
                                self.done[k as usize] = true;
                                self.stack.push((Node::Constraint(k), me));
                            }
                        }
                    }
                }
            }
        }
        // Reverse: entry i of `order` is entry `len − 1 − i` of `pre`.
        let len = self.pre.len() as u32;
        self.order.extend(self.pre.iter().rev().map(|e| Entry {
            node: e.node,
            parent: if e.parent == u32::MAX {
                u32::MAX
            } else {
                len - 1 - e.parent
            },
        }));
        self.roots.extend(
            self.order
                .iter()
                .enumerate()
                .filter(|(_, e)| e.parent == u32::MAX)
                .map(|(i, _)| i as u32),
        );
    }
}

/// Solves `H·x = b` in place on `x` (`b` given in `x`), from a block LDLᵀ
/// factorisation over `order`: per entry `D⁻¹` and `L = D⁻¹·H(i, parent)`.
/// `up(i, y)` is `H(i, parent)ᵀ·y`, which each forest forms from its own
/// coupling blocks. Up the tree, an entry's right-hand side is complete
/// when reached (its children come first), so `D⁻¹·x` is taken once and
/// kept; then down from the roots.
pub(crate) fn solve_tree(
    order: &[Entry],
    d_inv: &[M3],
    l_up: &[M3],
    x: &mut [[f64; 3]],
    up: impl Fn(usize, &[f64; 3]) -> [f64; 3],
) {
    for i in 0..order.len() {
        let y = mul_vec(&d_inv[i], &x[i]);
        let p = order[i].parent;
        if p != u32::MAX {
            for (x, u) in x[p as usize].iter_mut().zip(up(i, &y)) {
                *x -= u;
            }
        }
        x[i] = y;
    }
    for i in (0..order.len()).rev() {
        let p = order[i].parent;
        if p != u32::MAX {
            let down = mul_vec(&l_up[i], &x[p as usize]);
            for (x, d) in x[i].iter_mut().zip(down) {
                *x -= d;
            }
        }
    }
}
