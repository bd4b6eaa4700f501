//! 3×3 blocks in `f64` for the solvers that eliminate a tree of constraints
//! exactly (the joints' rigid rows, `joint::forest`; the contacts' normal
//! rows, `contact_solver::forest`): products, transpose and the inverse.

/// A 3×3 block, row-major.
pub(crate) type M3 = [[f64; 3]; 3];

/// The zero block.
pub(crate) const ZERO3: M3 = [[0.0; 3]; 3];

/// `a·b`.
pub(crate) fn mul(a: &M3, b: &M3) -> M3 {
    let mut c = ZERO3;
    for (ci, ai) in c.iter_mut().zip(a) {
        for (j, cij) in ci.iter_mut().enumerate() {
            *cij = ai[0] * b[0][j] + ai[1] * b[1][j] + ai[2] * b[2][j];
        }
    }
    c
}

/// `aᵀ`.
pub(crate) fn transpose(a: &M3) -> M3 {
    let mut t = ZERO3;
    for (i, ti) in t.iter_mut().enumerate() {
        for (j, tij) in ti.iter_mut().enumerate() {
            *tij = a[j][i];
        }
    }
    t
}

/// `a·x`.
pub(crate) fn mul_vec(a: &M3, x: &[f64; 3]) -> [f64; 3] {
    [
        a[0][0] * x[0] + a[0][1] * x[1] + a[0][2] * x[2],
        a[1][0] * x[0] + a[1][1] * x[1] + a[1][2] * x[2],
        a[2][0] * x[0] + a[2][1] * x[1] + a[2][2] * x[2],
    ]
}

/// `aᵀ·x`.
pub(crate) fn mul_t_vec(a: &M3, x: &[f64; 3]) -> [f64; 3] {
    [
        a[0][0] * x[0] + a[1][0] * x[1] + a[2][0] * x[2],
        a[0][1] * x[0] + a[1][1] * x[1] + a[2][1] * x[2],
        a[0][2] * x[0] + a[1][2] * x[1] + a[2][2] * x[2],
    ]
}

/// The inverse by cofactors; `None` when singular (the determinant NaN, or
/// at most 1e-12 of the cube of the largest entry).
pub(crate) fn inverse(a: &M3) -> Option<M3> {
    let c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    let c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    let c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    let det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    let scale = a.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
    let tiny = 1e-12 * scale * scale * scale;
    if det.is_nan() || det.abs() <= tiny {
        return None;
    }
    let inv = 1.0 / det;
    Some([
        [
            c00 * inv,
            (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * inv,
            (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * inv,
        ],
        [
            c01 * inv,
            (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * inv,
            (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * inv,
        ],
        [
            c02 * inv,
            (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * inv,
            (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * inv,
        ],
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inverse times the block is the identity, over seeded random
    /// well-conditioned blocks; a rank-2 block has none.
    #[test]
    fn inverse_inverts_and_refuses_singular_blocks() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for _ in 0..500 {
            let mut a = ZERO3;
            for (i, row) in a.iter_mut().enumerate() {
                for v in row.iter_mut() {
                    *v = rand();
                }
                row[i] += 4.0;
            }
            let p = mul(&a, &inverse(&a).expect("diagonally dominant"));
            for (i, row) in p.iter().enumerate() {
                for (j, v) in row.iter().enumerate() {
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((v - want).abs() < 1e-12, "{p:?}");
                }
            }
            let mut s = a;
            s[2] = [a[0][0] + a[1][0], a[0][1] + a[1][1], a[0][2] + a[1][2]];
            assert!(inverse(&s).is_none(), "{s:?}");
            let x = [rand(), rand(), rand()];
            assert_eq!(mul_t_vec(&a, &x), mul_vec(&transpose(&a), &x));
        }
    }
}
