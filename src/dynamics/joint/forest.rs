//! The rigid rows of the joints (a hinge's point, a rigid weld's point and
//! angle), solved exactly on a spanning forest of the joint graph.
//!
//! Gauss–Seidel passes one joint at a time converge slowly along a chain
//! that carries a heavy load: each pass moves the error one link, and a mass
//! ratio of a few hundred needs thousands of passes. Here the joints of each
//! tree are solved together, in time linear in their number, by D. Baraff's
//! block LDLᵀ factorisation of
//!
//! ```text
//! ⎡  M   −Jᵀ ⎤ ⎡ Δv ⎤   ⎡  0  ⎤
//! ⎣ −J    0  ⎦ ⎣ λ  ⎦ = ⎣ J·v ⎦
//! ```
//!
//! whose graph (bodies and joints as nodes, an edge where a joint holds a
//! body) is a tree once static bodies and the world frame, which do not
//! respond, are left out ("Linear-Time Dynamics using Lagrange Multipliers",
//! SIGGRAPH 1996). Eliminating each tree from its leaves in a fixed order
//! gives the impulses that zero the rows' velocity error at once, after each
//! velocity iteration's one-at-a-time pass (which also handles limits,
//! motors and springs). Positions keep the one-at-a-time NGS pass: an exact
//! projection there ignores the contacts and fights them (a pile of
//! ragdolls never slept with it). A joint that would close a loop between
//! moving bodies stays with the one-at-a-time passes, and so does a second
//! joint from a tree to the ground (a bridge pinned at both ends): the
//! ground is one node of the loop check, and the one joint a tree has to
//! the ground is its root (eliminated last; as a leaf its pivot would be
//! zero). Only trees whose heaviest body is [`MASS_RATIO`] times the
//! lightest or more are solved: a load on a chain or a bridge, a heavy
//! chassis on light links. Among equal masses the passes do well enough,
//! and in Box2D's `joint_grid` the solve would double the solver's time.
//! Every block is 3×3 (a joint's unused rows are decoupled), in f64.

use super::constraint::JointConstraint;
use crate::dynamics::block3::{inverse, M3, ZERO3};
use crate::dynamics::sleep::UnionFind;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::dynamics::tree_order::{solve_tree, Node, TreeOrder, MASS_RATIO};
use crate::math::Vec2;

/// The forest of one step, and its factorisation's storage.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointForest {
    /// The elimination order; a constraint node is a joint (index into the
    /// step's joint constraints).
    tree: TreeOrder,
    /// Per entry: `D⁻¹`, the off-diagonal block to the parent `H(i, p)`
    /// (as the joint's coupling to the body), `L = D⁻¹·H(i, p)`, the
    /// right-hand side and the solution.
    d_inv: Vec<M3>,
    h_up: Vec<Coupling>,
    l_up: Vec<M3>,
    x: Vec<[f64; 3]>,
    /// Scratch for choosing the forest: union–find over bodies, and the
    /// chosen joints with their bodies.
    loops: UnionFind,
    chosen: Vec<(u32, u32, u32)>,
    /// Scratch: the chosen joints' trees (union–find over bodies) and, per
    /// tree, the smallest and largest inverse mass.
    trees: UnionFind,
    inv_mass_range: Vec<(f32, f32)>,
    /// Whether the factorisation is ready for this substep.
    factored: bool,
}

/// `−J` of a joint's rigid rows on one body (joint rows × body columns,
/// anchor `r`, `sign` −1 for body A): the point's rows `[−s, 0, s·ry]`,
/// `[0, −s, −s·rx]` and the angle's `[0, 0, −s]`, unused rows zero. Only
/// the five entries that are not always zero are kept; the products below
/// skip the others, which leaves every sum as the dense 3×3 products give
/// it (a term that is exactly zero does not change a sum).
#[derive(Clone, Copy, Debug, Default)]
struct Coupling {
    g00: f64,
    g02: f64,
    g11: f64,
    g12: f64,
    g22: f64,
}

fn coupling(r: Vec2, rows: (bool, bool), sign: f64) -> Coupling {
    let (rx, ry) = (r.x as f64, r.y as f64);
    // J's entries (0,0), (0,2), (1,1), (1,2), (2,2).
    let mut j = [0.0f64; 5];
    if rows.0 {
        j[0] = sign;
        j[1] = -sign * ry;
        j[2] = sign;
        j[3] = sign * rx;
    }
    if rows.1 {
        j[4] = sign;
    }
    Coupling {
        g00: -j[0],
        g02: -j[1],
        g11: -j[2],
        g12: -j[3],
        g22: -j[4],
    }
}

impl Coupling {
    /// `L = D⁻¹·H` and the parent's update `Hᵀ·L`, with `H = G` when the
    /// joint is the child and `H = Gᵀ` when the body is.
    #[inline(always)]
    fn eliminate(&self, inv: &M3, body_is_child: bool) -> (M3, M3) {
        let g = self;
        let mut l = ZERO3;
        let mut u = ZERO3;
        if body_is_child {
            for k in 0..3 {
                let v = inv[k];
                l[k] = [
                    v[0] * g.g00 + v[2] * g.g02,
                    v[1] * g.g11 + v[2] * g.g12,
                    v[2] * g.g22,
                ];
            }
            for c in 0..3 {
                u[0][c] = g.g00 * l[0][c] + g.g02 * l[2][c];
                u[1][c] = g.g11 * l[1][c] + g.g12 * l[2][c];
                u[2][c] = g.g22 * l[2][c];
            }
        } else {
            for k in 0..3 {
                let v = inv[k];
                l[k] = [
                    v[0] * g.g00,
                    v[1] * g.g11,
                    v[0] * g.g02 + v[1] * g.g12 + v[2] * g.g22,
                ];
            }
            for c in 0..3 {
                u[0][c] = g.g00 * l[0][c];
                u[1][c] = g.g11 * l[1][c];
                u[2][c] = g.g02 * l[0][c] + g.g12 * l[1][c] + g.g22 * l[2][c];
            }
        }
        (l, u)
    }

    /// `Hᵀ·y`, the child's contribution to its parent's right-hand side.
    #[inline(always)]
    fn up(&self, y: &[f64; 3], body_is_child: bool) -> [f64; 3] {
        let g = self;
        if body_is_child {
            [
                g.g00 * y[0] + g.g02 * y[2],
                g.g11 * y[1] + g.g12 * y[2],
                g.g22 * y[2],
            ]
        } else {
            [
                g.g00 * y[0],
                g.g11 * y[1],
                g.g02 * y[0] + g.g12 * y[1] + g.g22 * y[2],
            ]
        }
    }
}

/// Whether a solver body is a node: it responds to impulses in every
/// direction. Static, kinematic and sleeping bodies (and the world frame)
/// are ground.
fn moves(b: &SolverBody) -> bool {
    b.inv_mass > 0.0 && b.inv_inertia > 0.0
}

impl JointForest {
    /// Chooses the forest for this step's joints: each joint with rigid
    /// rows between bodies that are not yet connected joins it, in joint
    /// order; the rest close loops and are left out.
    pub fn build(&mut self, joints: &[JointConstraint], bodies: &[SolverBody]) {
        self.tree.order.clear();
        let n = bodies.len();
        // Union–find over bodies, to skip joints that close loops. Ground
        // (every body that does not move) is one more element, `n`: a second
        // joint from a tree to the ground closes a loop through it (a bridge
        // pinned at both ends), as a joint between two grounded trees does.
        self.loops.reset(n + 1);
        let ground = n as u32;
        self.chosen.clear();
        for (k, j) in joints.iter().enumerate() {
            let rows = j.rigid_rows();
            if !(rows.0 || rows.1) {
                continue;
            }
            let (a, b) = j.bodies();
            let (ma, mb) = (moves(&bodies[a as usize]), moves(&bodies[b as usize]));
            if !(ma || mb) {
                continue;
            }
            let (x, y) = (if ma { a } else { ground }, if mb { b } else { ground });
            if self.loops.find(x) == self.loops.find(y) {
                continue;
            }
            self.loops.union(x, y);
            self.chosen.push((k as u32, a, b));
        }
        // Only trees of mixed masses (a load on a chain, a heavy chassis on
        // light links): per tree, the lightest and heaviest moving body.
        self.trees.reset(n);
        for &(_, a, b) in &self.chosen {
            if moves(&bodies[a as usize]) && moves(&bodies[b as usize]) {
                self.trees.union(a, b);
            }
        }
        self.inv_mass_range.clear();
        self.inv_mass_range.resize(n, (f32::INFINITY, 0.0));
        for &(_, a, b) in &self.chosen {
            for s in [a, b] {
                let m = bodies[s as usize].inv_mass;
                if moves(&bodies[s as usize]) {
                    let r = &mut self.inv_mass_range[self.trees.find(s) as usize];
                    *r = (r.0.min(m), r.1.max(m));
                }
            }
        }
        let (trees, range) = (&mut self.trees, &self.inv_mass_range);
        self.chosen.retain(|&(_, a, b)| {
            let s = if moves(&bodies[a as usize]) { a } else { b };
            let (lo, hi) = range[trees.find(s) as usize];
            hi >= MASS_RATIO * lo
        });
        if self.chosen.is_empty() {
            return;
        }
        // Trees grown from each joint not yet reached: first from the
        // joints to the ground, then the others, each in joint order. A
        // joint to the ground has one body; eliminated as a leaf its pivot
        // would be zero, so it must be its tree's root (each tree has at most
        // one, see above).
        let moves_at = |s: u32| moves(&bodies[s as usize]);
        let chosen = &self.chosen;
        let grounded = |k: &usize| {
            let (_, a, b) = chosen[*k];
            !(moves_at(a) && moves_at(b))
        };
        let starts = (0..chosen.len())
            .filter(grounded)
            .chain((0..chosen.len()).filter(|k| !grounded(k)));
        self.tree.build(n, chosen, moves_at, starts);
    }

    /// No joint is in the forest this step.
    pub fn is_empty(&self) -> bool {
        self.tree.order.is_empty()
    }

    /// Factorises `H` at the current poses; `false` (nothing solved) when a
    /// pivot is singular, e.g. two hinges on the same point of one body.
    /// Factorises the forest at the substep's poses, for every velocity
    /// iteration of the substep (the matrix depends only on the poses and
    /// the masses).
    pub fn prepare(
        &mut self,
        joints: &[JointConstraint],
        bodies: &[SolverBody],
        poses: &[SolverPose],
    ) {
        self.factored = !self.tree.order.is_empty() && self.factor(joints, bodies, poses);
    }

    fn factor(
        &mut self,
        joints: &[JointConstraint],
        bodies: &[SolverBody],
        poses: &[SolverPose],
    ) -> bool {
        let m = self.tree.order.len();
        // Every entry's D and each non-root's H and L are written below, so
        // the storage is only resized, not cleared.
        self.d_inv.resize(m, ZERO3);
        self.h_up.resize(m, Coupling::default());
        self.l_up.resize(m, ZERO3);
        // H(i, parent) for each entry: −J of the joint on the body, oriented
        // joint-rows × body-columns, transposed when the body is the child.
        for (i, e) in self.tree.order.iter().enumerate() {
            if e.parent == u32::MAX {
                continue;
            }
            let p = self.tree.order[e.parent as usize].node;
            let (joint, body) = match (e.node, p) {
                (Node::Constraint(j), Node::Body(b)) => (j, b),
                (Node::Body(b), Node::Constraint(j)) => (j, b),
                _ => unreachable!("the forest alternates bodies and joints"),
            };
            let c = &joints[joint as usize];
            let (ra, rb) = c.current_anchors(poses);
            let (a, _) = c.bodies();
            let rows = c.rigid_rows();
            self.h_up[i] = if body == a {
                coupling(ra, rows, -1.0)
            } else {
                coupling(rb, rows, 1.0)
            };
        }
        // D_i = H_ii − Σ_children H(c, i)ᵀ·D_c⁻¹·H(c, i), built in `d_inv`
        // and inverted in place once its children are eliminated.
        for (e, d) in self.tree.order.iter().zip(self.d_inv.iter_mut()) {
            *d = match e.node {
                Node::Body(s) => {
                    let b = &bodies[s as usize];
                    let mut blk = ZERO3;
                    blk[0][0] = 1.0 / b.inv_mass as f64;
                    blk[1][1] = 1.0 / b.inv_mass as f64;
                    blk[2][2] = 1.0 / b.inv_inertia as f64;
                    blk
                }
                Node::Constraint(j) => {
                    let rows = joints[j as usize].rigid_rows();
                    let mut blk = ZERO3;
                    if !rows.0 {
                        blk[0][0] = -1.0;
                        blk[1][1] = -1.0;
                    }
                    if !rows.1 {
                        blk[2][2] = -1.0;
                    }
                    blk
                }
            };
        }
        for i in 0..m {
            let Some(inv) = inverse(&self.d_inv[i]) else {
                return false;
            };
            self.d_inv[i] = inv;
            let p = self.tree.order[i].parent;
            if p != u32::MAX {
                let body_is_child = matches!(self.tree.order[i].node, Node::Body(_));
                let (l, update) = self.h_up[i].eliminate(&inv, body_is_child);
                let dp = &mut self.d_inv[p as usize];
                for r in 0..3 {
                    for c in 0..3 {
                        dp[r][c] -= update[r][c];
                    }
                }
                self.l_up[i] = l;
            }
        }
        true
    }

    /// Solves `H·x = b` in place on `x` (`b` given in `x`); `H(i, p)ᵀ·y`
    /// from the sparse coupling.
    fn solve(&mut self) {
        let (order, h_up) = (&self.tree.order, &self.h_up);
        solve_tree(order, &self.d_inv, &self.l_up, &mut self.x, |i, y| {
            h_up[i].up(y, matches!(order[i].node, Node::Body(_)))
        });
    }

    /// Impulses that zero the forest's rigid rows' velocity error, applied
    /// to the bodies and added to the joints' impulses.
    pub fn solve_velocity(
        &mut self,
        joints: &mut [JointConstraint],
        bodies: &mut [SolverBody],
        poses: &[SolverPose],
    ) {
        if self.tree.order.is_empty() || !self.factored {
            return;
        }
        self.x.clear();
        for e in &self.tree.order {
            self.x.push(match e.node {
                Node::Body(_) => [0.0; 3],
                Node::Constraint(j) => joints[j as usize].rigid_velocity_error(bodies, poses),
            });
        }
        self.solve();
        for (e, x) in self.tree.order.iter().zip(&self.x) {
            if let Node::Constraint(j) = e.node {
                joints[j as usize].apply_rigid(bodies, poses, *x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::block3::{mul, mul_t_vec, transpose};

    /// The dense `−J` that [`coupling`] keeps five entries of.
    fn dense(g: &Coupling) -> M3 {
        [
            [g.g00, -0.0, g.g02],
            [-0.0, g.g11, g.g12],
            [-0.0, -0.0, g.g22],
        ]
    }

    /// The sparse elimination gives the dense 3×3 products' numbers (equal
    /// as numbers: a sum of exact zeros may differ in the sign of zero).
    #[test]
    fn sparse_elimination_matches_dense_products() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        };
        for case in 0..400 {
            let rows = [(true, false), (true, true), (false, true)][case % 3];
            let sign = if case % 2 == 0 { 1.0 } else { -1.0 };
            let r = Vec2::new(rand() as f32, rand() as f32);
            let g = coupling(r, rows, sign);
            let mut inv = ZERO3;
            for row in &mut inv {
                for v in row.iter_mut() {
                    *v = rand();
                }
            }
            let y = [rand(), rand(), rand()];
            for body_is_child in [false, true] {
                let h = if body_is_child {
                    transpose(&dense(&g))
                } else {
                    dense(&g)
                };
                let (l, u) = g.eliminate(&inv, body_is_child);
                let l_dense = mul(&inv, &h);
                assert_eq!(l, l_dense);
                assert_eq!(u, mul(&transpose(&h), &l_dense));
                assert_eq!(g.up(&y, body_is_child), mul_t_vec(&h, &y));
            }
        }
    }
}
