//! One constraint's normal rows, read and written in the lane of the bundle
//! the schedule put it in, for the passes that work on constraints one at a
//! time across bundles (`super::super::forest`).

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
    /// Every constraint, in the scheduled order: where it lives, the index
    /// of the contact it came from (which orders constraints independently
    /// of how they were bundled), and its two bodies (solver slots).
    pub fn locations(&self) -> impl Iterator<Item = (RowsAt, u32, u32, u32)> + '_ {
        self.velocity()
            .iter()
            .zip(&self.info)
            .enumerate()
            .flat_map(|(k, (v, info))| {
                (0..v.fill as usize).map(move |l| {
                    let at = RowsAt {
                        bundle: k as u32,
                        lane: l as u8,
                    };
                    (at, info[l].contact, v.a[l], v.b[l])
                })
            })
    }

    /// The normal rows of the constraint at `at`.
    pub fn normal_rows(&self, at: RowsAt) -> NormalRows {
        let (v, s) = (
            &self.velocity[at.bundle as usize],
            &self.solve[at.bundle as usize],
        );
        let l = at.lane as usize;
        let mut rows = NormalRows {
            count: v.count[l] as usize,
            ..NormalRows::default()
        };
        let points = v.points.iter().zip(&s.points);
        for (i, (p, q)) in points.take(rows.count).enumerate() {
            rows.normal[i] = p.normal.lane(l);
            rows.arm_a[i] = get(&p.arm_na, l);
            rows.arm_b[i] = get(&p.arm_nb, l);
            rows.bias[i] = get(&q.bias, l);
            rows.impulse[i] = get(&p.normal_impulse, l);
        }
        rows
    }

    /// Sets the accumulated normal impulses (N·s) of the constraint at `at`
    /// (its first `count` points), raising their step maxima to match.
    pub fn set_normal_impulses(&mut self, at: RowsAt, impulses: [f32; 2]) {
        let (v, s) = (
            &mut self.velocity[at.bundle as usize],
            &mut self.solve[at.bundle as usize],
        );
        let l = at.lane as usize;
        let count = v.count[l] as usize;
        let points = v.points.iter_mut().zip(&mut s.points);
        for ((p, q), &x) in points.take(count).zip(&impulses) {
            put(&mut p.normal_impulse, l, x);
            let m = get(&q.max_normal_impulse, l).max(x);
            put(&mut q.max_normal_impulse, l, m);
        }
    }
}
