//! The normal rows of contacts in stacks of very different masses, solved
//! exactly on a spanning forest of the contact graph.
//!
//! A light box carrying one a thousand times heavier is the hard case of
//! sequential impulses: the top contact's impulse is bounded by the light
//! box's effective mass, so each pass takes about 1/1000 of the heavy box's
//! fall out of it, and the light box is pressed into the ground. Here the
//! contacts of such an island are solved together after each velocity
//! iteration's one-at-a-time pass, by the same block LDLᵀ elimination as the
//! joints' rigid rows (`joint::forest`, after D. Baraff, "Linear-Time
//! Dynamics using Lagrange Multipliers", 1996):
//!
//! ```text
//! ⎡  M   −Jᵀ ⎤ ⎡ Δv ⎤   ⎡     0      ⎤
//! ⎣ −J    0  ⎦ ⎣ Δλ ⎦ = ⎣ J·v + bias ⎦
//! ```
//!
//! over a tree whose nodes are the moving bodies and the contacts (each
//! manifold one node of one or two normal rows). Static and kinematic
//! bodies are not nodes, so a contact with the ground has one body and
//! never closes a loop; a contact that would close a loop between moving
//! bodies stays with the one-at-a-time passes. Each solved row has a tiny
//! compliance ([`COMPLIANCE`]), which keeps every pivot of the elimination
//! definite.
//!
//! Contacts are inequalities; the exact solve treats as equalities the rows
//! that carry load when the substep starts (a positive accumulated impulse,
//! usually warm started) or are closing faster than their target allows (a
//! body landing), and leaves the others out. Its impulses are added to the
//! rows' accumulated impulses; where that would pull a row, the whole tree
//! takes only the part of its step that leaves the row at zero (see
//! [`ContactForest::solve_velocity`]). The next iteration's one-at-a-time
//! pass sorts out any row that the guess got wrong. Friction, rolling
//! resistance and the position pass are unchanged.
//!
//! Only islands that rest on the ground (a contact with a static or
//! kinematic body; a sleeping body is no ground, see
//! [`ContactForest::build`]), whose heaviest and lightest bodies differ by
//! [`MASS_RATIO`] or more, and that hold at most [`MAX_ISLAND_CONTACTS`]
//! contacts get a forest. With comparable masses the passes converge well
//! enough, and the solve would cost time for nothing; an island touching no
//! ground (a drum turned by its motor, bodies colliding in free fall) has no
//! load to carry down; and in a very large island the exact step is all but
//! always cut to nothing by some pulled row.

use super::simd::{ContactBundles, NormalRows, RowsAt};
use super::{apply, pair, write_back};
use crate::dynamics::block3::{inverse, mul, mul_t_vec, transpose, M3, ZERO3};
use crate::dynamics::sleep::UnionFind;
use crate::dynamics::solver_body::SolverBody;
use crate::dynamics::tree_order::{solve_tree, Node, TreeOrder, MASS_RATIO};

/// Each solved row's compliance, relative to its own effective mass's
/// inverse `k = J·M⁻¹·Jᵀ` (the row alone): the row gives way by
/// `COMPLIANCE·k·λ` under the impulse `λ`. With it every pivot of the
/// elimination is definite (bodies positive, contacts negative), in any
/// order: a tree may touch the ground through several contacts (each a leaf
/// whose pivot would otherwise be zero), and redundant rows (a box on two
/// static bodies, or two points of a manifold nearly coincident) share
/// their load instead of making the system singular. The error it leaves
/// in a row's target speed is about `COMPLIANCE` relative, and the next
/// iteration's solve, on the residual, takes most of that out again.
const COMPLIANCE: f64 = 1e-6;

/// The most contacts an island may hold and still get a forest.
///
/// A tree takes its exact step only as far as its first pulled row allows
/// (see [`ContactForest::solve_velocity`]), and the larger the tree, the
/// surer some row is pulled. Over 600 steps of each shipped scene, the
/// largest tree that took any step had 183 entries (bodies and contacts,
/// in `default`); trees of more than 32 entries took one in 3 (`default`)
/// to 53 (`rain`) of their solves. A whole mixing drum, by contrast, is one
/// grounded island of up to 12,000 contacts (`spinner`): built every step
/// and factorised every substep, it never took a step, at 9 % of the
/// scene's instructions (`docs/2026-11-29-forest-cap.md`). The cap leaves
/// every shipped scene's forests as they were.
pub(crate) const MAX_ISLAND_CONTACTS: u32 = 1024;

/// A contact of the forest.
#[derive(Clone, Copy, Debug)]
struct ContactNode {
    at: RowsAt,
    a: u32,
    b: u32,
}

/// The forest of one step and its factorisation's storage.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactForest {
    contacts: Vec<ContactNode>,
    /// The elimination order; a constraint node is a contact (index into
    /// `contacts`).
    tree: TreeOrder,
    /// Per contact: its rows at the substep's start, and which of them are
    /// solved as equalities this substep.
    rows: Vec<NormalRows>,
    active: Vec<[bool; 2]>,
    /// Per contact: its accumulated impulses, during a solve.
    impulse: Vec<[f32; 2]>,
    /// Per entry: `D⁻¹`, the off-diagonal block to the parent `H(i, p)`,
    /// `L = D⁻¹·H(i, p)`, and the right-hand side and solution.
    d_inv: Vec<M3>,
    h_up: Vec<M3>,
    l_up: Vec<M3>,
    x: Vec<[f64; 3]>,
    /// Scratch: islands and trees (union–find over bodies), whether each
    /// island touches the ground and how many contacts it holds, the
    /// candidate contacts, per island the smallest and largest inverse
    /// mass, the forest's contacts as edges.
    islands: UnionFind,
    trees: UnionFind,
    grounded: Vec<bool>,
    island_contacts: Vec<u32>,
    candidates: Vec<(u32, ContactNode)>,
    inv_mass_range: Vec<(f32, f32)>,
    edges: Vec<(u32, u32, u32)>,
    /// This substep: which contacts' rows were read, and which entries'
    /// blocks set up (see [`ContactForest::prepare`]).
    read: Vec<bool>,
    ready: Vec<bool>,
    /// Whether the factorisation is ready for this substep.
    factored: bool,
}

/// Whether a solver body is a node: it responds to impulses. Static,
/// kinematic and sleeping bodies are not (only the first two ground an
/// island).
fn moves(b: &SolverBody) -> bool {
    b.inv_mass > 0.0
}

/// Speed of B relative to A along row `i`'s normal at its anchor.
fn row_speed(rows: &NormalRows, i: usize, ba: &SolverBody, bb: &SolverBody) -> f32 {
    (bb.v - ba.v).dot(rows.normal[i]) + bb.w * rows.arm_b[i] - ba.w * rows.arm_a[i]
}

impl ContactForest {
    /// Chooses this step's forest from the scheduled constraints, in contact
    /// order: the contacts of grounded islands with a mass ratio of
    /// [`MASS_RATIO`] or more and at most [`MAX_ISLAND_CONTACTS`] contacts,
    /// each joining unless it closes a loop between moving bodies.
    /// `sleeping(body)`: the body is a sleeping dynamic one.
    ///
    /// A contact with a sleeping body does not ground its island: every
    /// contact point a moving body has with a sleeping one wakes it before
    /// the solve (see `World::collide`), so what is left carries no load.
    /// Counted as ground (under an older wake rule), a few of them at the
    /// front of `smash`'s debris made the whole impact (its 512 kg box and
    /// thousands of 0.16 kg boxes, no gravity) one forest of up to 7,000
    /// contacts, solved exactly at every iteration.
    pub fn build(
        &mut self,
        constraints: &ContactBundles,
        bodies: &[SolverBody],
        sleeping: impl Fn(u32) -> bool,
    ) {
        self.tree.order.clear();
        self.contacts.clear();
        let n = bodies.len();
        let pair = |a: u32, b: u32| moves(&bodies[a as usize]) && moves(&bodies[b as usize]);
        // No island can qualify when no two moving bodies do: the common case
        // (pyramids, stacks and piles of one kind) costs one pass over the
        // bodies.
        let (lo, hi) = bodies
            .iter()
            .filter(|b| moves(b))
            .fold((f32::INFINITY, 0.0f32), |(lo, hi), b| {
                (lo.min(b.inv_mass), hi.max(b.inv_mass))
            });
        if hi < MASS_RATIO * lo {
            return;
        }
        // Nor can one without ground: a drum turning its load (`tumbler`),
        // or bodies colliding in free fall (`smash`) cost one pass over the
        // constraints.
        let ground = |a: u32, b: u32| {
            let (ma, mb) = (moves(&bodies[a as usize]), moves(&bodies[b as usize]));
            ma != mb && !sleeping(if ma { b } else { a })
        };
        if !constraints.locations().any(|(_, _, a, b)| ground(a, b)) {
            return;
        }
        // Islands through contacts between moving bodies, and their mass
        // range.
        self.islands.reset(n);
        let mut any_pair = false;
        for (_, _, a, b) in constraints.locations() {
            if pair(a, b) {
                self.islands.union(a, b);
                any_pair = true;
            }
        }
        if !any_pair {
            return;
        }
        self.inv_mass_range.clear();
        self.inv_mass_range.resize(n, (f32::INFINITY, 0.0));
        for (i, b) in bodies.iter().enumerate() {
            if moves(b) {
                let range = &mut self.inv_mass_range[self.islands.find(i as u32) as usize];
                *range = (range.0.min(b.inv_mass), range.1.max(b.inv_mass));
            }
        }
        // Which islands rest on the ground (a load has somewhere to go), and
        // their sizes.
        self.grounded.clear();
        self.grounded.resize(n, false);
        self.island_contacts.clear();
        self.island_contacts.resize(n, 0);
        for (_, _, a, b) in constraints.locations() {
            let (ma, mb) = (moves(&bodies[a as usize]), moves(&bodies[b as usize]));
            if !(ma || mb) {
                continue;
            }
            let root = self.islands.find(if ma { a } else { b }) as usize;
            self.island_contacts[root] += 1;
            if ground(a, b) {
                self.grounded[root] = true;
            }
        }
        // The forest: a second union–find, over moving bodies only (a ground
        // contact has one moving body and never closes a loop).
        // Candidates are taken in contact order (body pairs sorted), which
        // does not depend on how the schedule bundled them.
        self.candidates.clear();
        for (at, contact, a, b) in constraints.locations() {
            let body = if moves(&bodies[a as usize]) { a } else { b };
            if !moves(&bodies[body as usize]) {
                continue;
            }
            let island = self.islands.find(body) as usize;
            let (lo, hi) = self.inv_mass_range[island];
            if self.grounded[island]
                && hi >= MASS_RATIO * lo
                && self.island_contacts[island] <= MAX_ISLAND_CONTACTS
            {
                self.candidates.push((contact, ContactNode { at, a, b }));
            }
        }
        self.candidates.sort_unstable_by_key(|c| c.0);
        self.trees.reset(n);
        for &(_, node) in &self.candidates {
            let (a, b) = (node.a, node.b);
            if pair(a, b) {
                if self.trees.find(a) == self.trees.find(b) {
                    continue;
                }
                self.trees.union(a, b);
            }
            self.contacts.push(node);
        }
        if !self.contacts.is_empty() {
            self.order_forest(bodies);
        }
    }

    /// The elimination order of the chosen contacts: each tree grown from
    /// its first ground contact (or from its first contact, when it has
    /// none).
    fn order_forest(&mut self, bodies: &[SolverBody]) {
        let moves_at = |s: u32| moves(&bodies[s as usize]);
        self.edges.clear();
        self.edges.extend(
            self.contacts
                .iter()
                .enumerate()
                .map(|(k, c)| (k as u32, c.a, c.b)),
        );
        let grounded = |&(_, a, b): &(u32, u32, u32)| !(moves_at(a) && moves_at(b));
        let edges = &self.edges;
        let starts = (0..edges.len())
            .filter(|&k| grounded(&edges[k]))
            .chain((0..edges.len()).filter(|&k| !grounded(&edges[k])));
        self.tree.build(bodies.len(), edges, moves_at, starts);
    }

    /// The contacts in this step's forest.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.contacts.len()
    }

    /// Factorises the forest on the contacts' rows at the substep's start
    /// (after the anchor update and the warm start), solving the rows that
    /// carry load or are closing faster than their target allows (a body
    /// landing on the stack: solved from its first substep).
    ///
    /// Each contact's rows are read, and each entry's block set up, only
    /// when the elimination first needs them, so that a factorisation that
    /// stops at a singular pivot stops there; one that goes through has
    /// read every contact, as a read in advance would have.
    pub fn prepare(&mut self, constraints: &ContactBundles, bodies: &[SolverBody]) {
        self.factored = false;
        if self.tree.order.is_empty() {
            return;
        }
        let n = self.contacts.len();
        if self.rows.len() < n {
            self.rows.resize(n, NormalRows::default());
            self.active.resize(n, [false; 2]);
        }
        self.read.clear();
        self.read.resize(n, false);
        self.factored = self.factor(constraints, bodies);
    }

    /// Reads contact `k`'s rows and which of them are solved, once a
    /// substep.
    fn read_rows(&mut self, k: u32, constraints: &ContactBundles, bodies: &[SolverBody]) {
        let k = k as usize;
        if self.read[k] {
            return;
        }
        self.read[k] = true;
        let c = &self.contacts[k];
        let rows = constraints.normal_rows(c.at);
        let (ba, bb) = (&bodies[c.a as usize], &bodies[c.b as usize]);
        self.active[k] = [0, 1].map(|i| {
            i < rows.count
                && (rows.impulse[i] > 0.0 || row_speed(&rows, i, ba, bb) + rows.bias[i] < 0.0)
        });
        self.rows[k] = rows;
    }

    /// `−J` of contact `k`'s active rows on body `s` (contact rows × body
    /// columns); the third row, and inactive rows, are zero.
    fn coupling(&self, k: u32, s: u32, bodies: &[SolverBody]) -> M3 {
        let (c, rows, active) = (
            &self.contacts[k as usize],
            &self.rows[k as usize],
            &self.active[k as usize],
        );
        let turns = bodies[s as usize].inv_inertia > 0.0;
        let mut g = ZERO3;
        for i in 0..2 {
            if !active[i] {
                continue;
            }
            let (sign, arm) = if s == c.b {
                (-1.0, rows.arm_b[i])
            } else {
                (1.0, rows.arm_a[i])
            };
            let n = rows.normal[i];
            g[i] = [
                sign * n.x as f64,
                sign * n.y as f64,
                if turns { sign * arm as f64 } else { 0.0 },
            ];
        }
        g
    }

    /// Entry `i`'s block before elimination, `H_ii`, set once a substep
    /// (before its first child's update is taken off it).
    fn set_up(&mut self, i: usize, constraints: &ContactBundles, bodies: &[SolverBody]) {
        if self.ready[i] {
            return;
        }
        self.ready[i] = true;
        self.d_inv[i] = match self.tree.order[i].node {
            Node::Body(s) => {
                let b = &bodies[s as usize];
                let mut d = ZERO3;
                d[0][0] = 1.0 / b.inv_mass as f64;
                d[1][1] = d[0][0];
                // A body that cannot turn: its angle's column is
                // decoupled (every coupling's is zero).
                d[2][2] = if b.inv_inertia > 0.0 {
                    1.0 / b.inv_inertia as f64
                } else {
                    1.0
                };
                d
            }
            Node::Constraint(k) => {
                // Rows that are not solved are decoupled; solved rows get a
                // compliance far below their effective mass's inverse (see
                // [`COMPLIANCE`]).
                self.read_rows(k, constraints, bodies);
                let (c, rows) = (&self.contacts[k as usize], &self.rows[k as usize]);
                let active = self.active[k as usize];
                let (ba, bb) = (&bodies[c.a as usize], &bodies[c.b as usize]);
                let mut d = ZERO3;
                for r in 0..3 {
                    d[r][r] = if r < 2 && active[r] {
                        let k = ba.inv_mass
                            + bb.inv_mass
                            + ba.inv_inertia * rows.arm_a[r] * rows.arm_a[r]
                            + bb.inv_inertia * rows.arm_b[r] * rows.arm_b[r];
                        -COMPLIANCE * k as f64
                    } else {
                        -1.0
                    };
                }
                d
            }
        };
    }

    /// Block LDLᵀ in the tree's order:
    /// `D_i = H_ii − Σ_children H(c, i)ᵀ·D_c⁻¹·H(c, i)`, inverted in place
    /// once its children are eliminated. `false` at a singular pivot.
    fn factor(&mut self, constraints: &ContactBundles, bodies: &[SolverBody]) -> bool {
        let m = self.tree.order.len();
        self.d_inv.resize(m, ZERO3);
        self.h_up.resize(m, ZERO3);
        self.l_up.resize(m, ZERO3);
        self.ready.clear();
        self.ready.resize(m, false);
        for i in 0..m {
            self.set_up(i, constraints, bodies);
            let Some(inv) = inverse(&self.d_inv[i]) else {
                return false;
            };
            self.d_inv[i] = inv;
            let e = self.tree.order[i];
            if e.parent == u32::MAX {
                continue;
            }
            let p = e.parent as usize;
            self.h_up[i] = match (e.node, self.tree.order[p].node) {
                (Node::Constraint(k), Node::Body(s)) => self.coupling(k, s, bodies),
                (Node::Body(s), Node::Constraint(k)) => {
                    self.read_rows(k, constraints, bodies);
                    transpose(&self.coupling(k, s, bodies))
                }
                _ => unreachable!("the forest alternates bodies and contacts"),
            };
            let l = mul(&inv, &self.h_up[i]);
            let update = mul(&transpose(&self.h_up[i]), &l);
            self.set_up(p, constraints, bodies);
            let dp = &mut self.d_inv[p];
            for r in 0..3 {
                for c in 0..3 {
                    dp[r][c] -= update[r][c];
                }
            }
            self.l_up[i] = l;
        }
        true
    }

    /// Impulses that bring the forest's active rows to their targets at
    /// once, applied to the bodies and added to the rows' accumulated
    /// impulses. A row that the step would pull (its accumulated impulse
    /// below zero) stops the step of its whole tree there: the tree takes
    /// the fraction `α` of its step that leaves that row at zero. Clamping
    /// the row alone would keep the others' share of a load it no longer
    /// carries, and a heavy body's load shifted onto one corner that way is
    /// thrown off. The next pass, one constraint at a time, goes on from
    /// there.
    pub fn solve_velocity(&mut self, constraints: &mut ContactBundles, bodies: &mut [SolverBody]) {
        if !self.factored {
            return;
        }
        self.x.clear();
        self.impulse.clear();
        for c in &self.contacts {
            self.impulse.push(constraints.normal_rows(c.at).impulse);
        }
        for e in &self.tree.order {
            self.x.push(match e.node {
                Node::Body(_) => [0.0; 3],
                Node::Constraint(k) => {
                    let (c, rows) = (&self.contacts[k as usize], &self.rows[k as usize]);
                    let (ba, bb) = (&bodies[c.a as usize], &bodies[c.b as usize]);
                    let mut x = [0.0; 3];
                    for (i, xi) in x.iter_mut().take(2).enumerate() {
                        if self.active[k as usize][i] {
                            *xi = (row_speed(rows, i, ba, bb) + rows.bias[i]) as f64;
                        }
                    }
                    x
                }
            });
        }
        self.solve();
        let mut start = 0;
        for &root in &self.tree.roots {
            let tree = start..root as usize + 1;
            start = root as usize + 1;
            let mut alpha = 1.0f64;
            for (e, x) in self.tree.order[tree.clone()]
                .iter()
                .zip(&self.x[tree.clone()])
            {
                if let Node::Constraint(k) = e.node {
                    let k = k as usize;
                    for ((&lambda, &active), &dx) in
                        self.impulse[k].iter().zip(&self.active[k]).zip(x)
                    {
                        let lambda = lambda as f64;
                        if active && lambda + dx < 0.0 {
                            alpha = alpha.min(lambda / -dx);
                        }
                    }
                }
            }
            if alpha <= 0.0 {
                continue;
            }
            for (e, x) in self.tree.order[tree.clone()].iter().zip(&self.x[tree]) {
                let Node::Constraint(k) = e.node else {
                    continue;
                };
                let (c, rows) = (self.contacts[k as usize], &self.rows[k as usize]);
                let impulse = &mut self.impulse[k as usize];
                for i in 0..rows.count {
                    if !self.active[k as usize][i] {
                        continue;
                    }
                    let new = (impulse[i] + (alpha * x[i]) as f32).max(0.0);
                    let delta = new - impulse[i];
                    impulse[i] = new;
                    let (mut ba, mut bb) = pair(bodies, c.a, c.b);
                    let (n, arm_a, arm_b) = (rows.normal[i], rows.arm_a[i], rows.arm_b[i]);
                    apply(&mut ba, &mut bb, n, arm_a, arm_b, delta);
                    write_back(bodies, c.a, c.b, ba, bb);
                }
                constraints.set_normal_impulses(c.at, *impulse);
            }
        }
    }

    /// Solves `H·x = b` in place on `x` (`b` given in `x`).
    fn solve(&mut self) {
        let h_up = &self.h_up;
        solve_tree(
            &self.tree.order,
            &self.d_inv,
            &self.l_up,
            &mut self.x,
            |i, y| mul_t_vec(&h_up[i], y),
        );
    }
}
