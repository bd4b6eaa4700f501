//! One constraint's normal rows, read and written wherever the schedule put
//! it (a lane of a planar bundle, or the scalar lists), for the passes that
//! work on constraints one at a time across bundles (`super::super::forest`).

use super::{get, put, ContactBundles};
use crate::math::Vec2;

/// Where a constraint lives in the scheduled list: its bundle and lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowsAt {
    bundle: u32,
    lane: u8,
}

/// A constraint's normal rows this substep: per point (the first `count`),
/// the normal (A → B), the lever arms `rA × n` and `rB × n`, the velocity
/// bias (the row's target is `vn = −bias`) and the accumulated impulse (N·s).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NormalRows {
    pub count: usize,
    pub normal: [Vec2; 2],
    pub arm_a: [f32; 2],
    pub arm_b: [f32; 2],
    pub bias: [f32; 2],
    pub impulse: [f32; 2],
}

impl ContactBundles {
    /// Every constraint in the solver's order: where it lives, and its two
    /// bodies (solver slots).
    pub fn locations(&self) -> impl Iterator<Item = (RowsAt, u32, u32)> + '_ {
        self.velocity.iter().enumerate().flat_map(move |(k, v)| {
            (0..v.fill as usize).map(move |l| {
                let at = RowsAt {
                    bundle: k as u32,
                    lane: l as u8,
                };
                match v.scalar {
                    Some(start) => {
                        let c = &self.scalar_velocity[start as usize + l];
                        (at, c.a, c.b)
                    }
                    None => (at, v.a[l], v.b[l]),
                }
            })
        })
    }

    /// The normal rows of the constraint at `at`.
    pub fn normal_rows(&self, at: RowsAt) -> NormalRows {
        let v = &self.velocity[at.bundle as usize];
        let l = at.lane as usize;
        let mut rows = NormalRows::default();
        match v.scalar {
            Some(start) => {
                let c = &self.scalar_velocity[start as usize + l];
                rows.count = c.count as usize;
                for (i, p) in c.points[..rows.count].iter().enumerate() {
                    rows.normal[i] = p.normal;
                    rows.arm_a[i] = p.arm_na;
                    rows.arm_b[i] = p.arm_nb;
                    rows.bias[i] = p.bias;
                    rows.impulse[i] = p.normal_impulse;
                }
            }
            None => {
                rows.count = v.count[l] as usize;
                for (i, p) in v.points[..rows.count].iter().enumerate() {
                    rows.normal[i] = p.normal.lane(l);
                    rows.arm_a[i] = get(&p.arm_na, l);
                    rows.arm_b[i] = get(&p.arm_nb, l);
                    rows.bias[i] = get(&p.bias, l);
                    rows.impulse[i] = get(&p.normal_impulse, l);
                }
            }
        }
        rows
    }

    /// Sets the accumulated normal impulses (N·s) of the constraint at `at`
    /// (its first `count` points), raising their step maxima to match.
    pub fn set_normal_impulses(&mut self, at: RowsAt, impulses: [f32; 2]) {
        let v = &mut self.velocity[at.bundle as usize];
        let l = at.lane as usize;
        match v.scalar {
            Some(start) => {
                let c = &mut self.scalar_velocity[start as usize + l];
                let count = c.count as usize;
                for (p, &x) in c.points[..count].iter_mut().zip(&impulses) {
                    p.normal_impulse = x;
                    p.max_normal_impulse = p.max_normal_impulse.max(x);
                }
            }
            None => {
                let count = v.count[l] as usize;
                for (p, &x) in v.points[..count].iter_mut().zip(&impulses) {
                    put(&mut p.normal_impulse, l, x);
                    let m = get(&p.max_normal_impulse, l).max(x);
                    put(&mut p.max_normal_impulse, l, m);
                }
            }
        }
    }
}
