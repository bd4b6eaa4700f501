//! The exact ellipse/polygon penetration: SAT on the polygon's normals plus,
//! per vertex, the roots of Eberly's normal-foot equation on the other side of
//! its pole (see [`super`]).

use super::{polygon_meets, support_value};
use crate::geometry::epa::Penetration;
use crate::math::{Iso, Vec2};
use crate::shape::Shape;

/// Newton iterations at most for the penetration's normal-foot roots.
const PEN_MAX_NEWTON: usize = 24;
/// The normal-foot Newton stops once a step is below this fraction of the
/// iterate (quadratic convergence: the remaining error is then ~1e-10 of it).
const PEN_NEWTON_STOP: f32 = 1e-5;
/// A vertex within this much of the ellipse (in `x²/rx² + y²/ry²`) proves
/// neither overlap nor separation at f32 rounding: such pairs go to GJK/EPA.
const PEN_BOUNDARY_BAND: f32 = 1e-5;

/// The certified penetration, in the ellipse's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CorePen {
    /// Depth (≥ 0): moving the core by `depth · normal` separates the shapes.
    pub depth: f32,
    /// Unit normal from the ellipse toward the core.
    pub normal: Vec2,
    /// Deepest point of the ellipse (its support point along `normal`).
    pub point_e: Vec2,
    /// Deepest point of the core, `point_e − depth · normal`.
    pub point_c: Vec2,
}

/// The foot parameter `w` of a normal of the ellipse through the point `p`, in
/// coordinates where axis 0 is the major one (`c = r₀² − r₁² ≥ 0`,
/// `sa = r₀|p₀|`, `sb = r₁|p₁|`).
///
/// A point `x` of the ellipse whose normal line passes through `p` at
/// `p = x − s·∇(x)/2` (`s ≥ 0`: `p` on the inward side) satisfies
/// `xᵢ = aᵢ pᵢ / (aᵢ − s)` and `G(s) = Σ aᵢ pᵢ² / (aᵢ − s)² = 1`. With
/// `u = a₁ − s` the two roots that can be local minima of the distance `|x − p|`
/// along the ellipse are the ones next to the pole `u = 0`:
///
/// * `near = true`: `u = w ∈ (0, a₁)`, `G = sa²/(c + w)² + sb²/w²`; it exists
///   exactly when `p` is inside the ellipse (`G` falls from `+∞` to
///   `G(a₁) = p₀²/a₀ + p₁²/a₁ < 1`), and is `p`'s nearest boundary point;
/// * `near = false`: `u = −w`, `w ∈ (0, c)`, `G = sa²/(c − w)² + sb²/w²`, the
///   smaller of the two roots in that interval, which exist when `p` is inside
///   the evolute (the far-side foot, e.g. the top of a flat ellipse for a point
///   below it).
///
/// Newton runs on `φ(w) = G^{−1/2} − 1`, a power mean of exponent −2 of the
/// affine functions `(c ± w)/sa` and `w/sb`, hence concave; from the lower bound
/// `w₀ = max(sb, sa − c)` (resp. `sb`) the iterates increase monotonically to
/// the first root, and the tangent, which lies above `φ`, proves that no root
/// was skipped. For `near = false` a non-positive slope before reaching the root
/// proves there is none (`φ` is concave). `Ok(None)`: no far-side root;
/// `Err`: not proven (not converged, or a degenerate pole root with `p` exactly
/// on an axis), and the caller hands the pair to GJK/EPA.
#[inline]
fn normal_root(sa: f32, sb: f32, c: f32, near: bool) -> Result<Option<f32>, ()> {
    let mut w = if near { sb.max(sa - c) } else { sb };
    if !(w > 0.0 && w.is_finite()) {
        // p on the minor axis' line through the pole: degenerate, unproven.
        return Err(());
    }
    // The root also satisfies c − w ≥ sa for the far-side root.
    let wmax = if near { f32::INFINITY } else { c - sa };
    for _ in 0..PEN_MAX_NEWTON {
        if w >= wmax {
            return if near { Err(()) } else { Ok(None) };
        }
        let p = if near { c + w } else { c - w };
        // 1/p and 1/w from one division.
        let inv = 1.0 / (p * w);
        let (ip, iw) = (w * inv, p * inv);
        let (gp, gq) = (sa * ip, sb * iw);
        let (gp2, gq2) = (gp * gp, gq * gq);
        let g = gp2 + gq2;
        if g <= 1.0 {
            // Reached the root (to rounding) from below.
            return Ok(Some(w));
        }
        // −dG/dw / 2.
        let slope = gq2 * iw + if near { gp2 * ip } else { -gp2 * ip };
        if slope.is_nan() || slope <= 0.0 {
            return if near { Err(()) } else { Ok(None) };
        }
        let step = g * (g.sqrt() - 1.0) / slope;
        if !step.is_finite() {
            return Err(());
        }
        w += step;
        if step <= PEN_NEWTON_STOP * w {
            return if w < wmax {
                Ok(Some(w))
            } else if near {
                Err(())
            } else {
                Ok(None)
            };
        }
    }
    Err(())
}

/// Penetration of the ellipse (semi-axes `rx`, `ry`, at the origin) and a convex
/// polygon (counter-clockwise `verts`, outward edge `normals`, own frame) placed
/// by `xf` in the ellipse's frame.
///
/// The depth is the distance from the origin to the boundary of the Minkowski
/// difference `K = E − P`, i.e. `min over unit n of F(n)`, with
/// `F(n) = h_E(n) − min_j n·v_j` (`h_E` the ellipse's support function): moving
/// the polygon by `F(n)·n` is the least translation along `n` that separates.
/// On the cone of directions `n` for which vertex `k` is the polygon's lowest
/// (`−n` in the vertex's normal cone) `F = f_k = h_E(n) − n·v_k`, smooth, so a
/// minimum of `F` is either at a cone boundary, i.e. an edge normal (the SAT
/// candidates `h_E(mᵢ) + mᵢ·(vᵢ − c)`, exact), or a critical point of some `f_k`
/// inside its cone. There `x_E(n) − v_k` is parallel to `n` with the positive
/// factor `f_k ≥ 0` (the shapes overlap, so `F ≥ 0`): `v_k` lies on the inward
/// normal line of the ellipse at `x_E(n)`, and, since `f_k'' = ρ − f_k` (`ρ`
/// the radius of curvature), a minimum is a local minimum of the distance from
/// `v_k` along the ellipse. Those are the roots of [`normal_root`]: the nearest
/// boundary point of an inside vertex and the far-side foot of a vertex inside
/// the evolute. (The other local minimum of an outside vertex, its nearest
/// point, has `f_k < 0` and cannot be in its cone when the shapes overlap.)
///
/// Each candidate's value is evaluated as `F(n)` (its cone checked), an exact
/// upper bound on the depth, and the smallest is the depth. A vertex is skipped
/// when a lower bound of `f_k` over its cone, `min(n_a·(x − v_k), n_b·(x − v_k))`
/// at the cone's end directions for the ellipse point `x` supporting its middle
/// direction (`h_E(n) ≥ n·x`, and `n·(x − v_k)` is smallest at an end), is not
/// below the best candidate.
///
/// Overlap is proved first: by the ellipse's centre inside the polygon, a vertex
/// inside the ellipse, or an edge crossing it ([`polygon_meets`] with every
/// vertex outside); `Some(None)` when apart. `None` (use GJK/EPA) for vertices
/// within rounding of the ellipse, pole roots (a vertex exactly on an axis
/// inside the evolute) and anything not finite.
pub(crate) fn core_penetration(
    rx: f32,
    ry: f32,
    verts: &[Vec2],
    normals: &[Vec2],
    xf: &Iso,
) -> Option<Option<CorePen>> {
    let n = verts.len();
    let sane = |r: f32| r > 0.0 && r.is_finite();
    if n < 3 || normals.len() != n || !xf.is_finite() || !(sane(rx) && sane(ry)) {
        return None;
    }
    let (a0, a1) = (rx * rx, ry * ry);
    // In the polygon's frame: the ellipse's centre `c` and its support value
    // h(n) = √(nᵀ M n), M = Rᵀ diag(rx², ry²) R.
    let (co, si) = (xf.rot.cos, xf.rot.sin);
    let c = xf.apply_inv(Vec2::ZERO);
    let m00 = a0 * co * co + a1 * si * si;
    let m11 = a0 * si * si + a1 * co * co;
    let m01 = (a1 - a0) * co * si;
    let quad = |d: Vec2| m00 * d.x * d.x + 2.0 * m01 * d.x * d.y + m11 * d.y * d.y;

    // Edge candidates (SAT on the polygon's normals).
    let mut best = f32::INFINITY;
    let mut best_normal = Vec2::ZERO;
    let mut centre_inside = true;
    for (v, m) in verts.iter().zip(normals) {
        let behind = m.dot(*v - c);
        centre_inside &= behind >= 0.0;
        let s = quad(*m).sqrt() + behind;
        if s < best {
            best = s;
            best_normal = -*m;
        }
    }
    if !best.is_finite() {
        return None;
    }
    if best < 0.0 {
        // A separating axis.
        return Some(None);
    }
    if !centre_inside {
        // Overlap needs a vertex inside or an edge crossing the ellipse.
        let mut inside = false;
        for v in verts {
            let p = xf.apply(*v);
            let z = p.x * p.x / a0 + p.y * p.y / a1;
            if z <= 1.0 - PEN_BOUNDARY_BAND {
                inside = true;
                break;
            }
            if z.is_nan() || z < 1.0 + PEN_BOUNDARY_BAND {
                return None;
            }
        }
        if !inside && !polygon_meets(rx, ry, verts, normals, xf) {
            return Some(None);
        }
    }
    // A normal of the ellipse's frame from the major-axis-first coordinates.
    let swap = rx < ry;
    let (amax, amin) = if swap { (a1, a0) } else { (a0, a1) };
    let (rmax, rmin) = if swap { (ry, rx) } else { (rx, ry) };
    let cc = amax - amin;

    let mut best_vertex: Option<Vec2> = None;
    for k in 0..n {
        let kp = if k == 0 { n - 1 } else { k - 1 };
        let kn = if k + 1 == n { 0 } else { k + 1 };
        let v = verts[k];
        // Lower bound of f_k over the cone between −m_{k−1} and −m_k.
        let (na, nb) = (-normals[kp], -normals[k]);
        let mid = na + nb;
        let q = quad(mid);
        if q > 1e-12 * quad(na) {
            let h = q.sqrt();
            let x = c + Vec2::new(m00 * mid.x + m01 * mid.y, m01 * mid.x + m11 * mid.y) / h;
            let lower = na.dot(x - v).min(nb.dot(x - v));
            if lower >= best {
                continue;
            }
        }
        let p = xf.apply(v);
        let (p0, p1) = if swap { (p.y, p.x) } else { (p.x, p.y) };
        let (sa, sb) = (rmax * p0.abs(), rmin * p1.abs());
        let z = p.x * p.x / a0 + p.y * p.y / a1;
        let mut consider = |w: f32, near: bool, best: &mut f32| {
            let (u0, u1) = if near {
                (p0 / (cc + w), p1 / w)
            } else {
                (p0 / (cc - w), -p1 / w)
            };
            let len = (u0 * u0 + u1 * u1).sqrt();
            let ne = if swap {
                Vec2::new(u1, u0) / len
            } else {
                Vec2::new(u0, u1) / len
            };
            // In the cone: vertex k is the polygon's lowest along n.
            let nl = xf.rot.apply_inv(ne);
            if nl.dot(verts[kn] - v) < 0.0 || nl.dot(verts[kp] - v) < 0.0 {
                return;
            }
            let f = support_value(a0, a1, ne) - ne.dot(p);
            if f < *best {
                *best = f;
                best_vertex = Some(ne);
            }
        };
        // An inside vertex is on the ellipse scaled by λ = √z, and λE ⊕
        // disc((1 − λ)·r_min) ⊆ E: every normal foot through it, near or far,
        // is at least (1 − λ)·r_min away.
        if z < 1.0 && best < rmin && z <= (1.0 - best / rmin) * (1.0 - best / rmin) {
            continue;
        }
        // Each root's normal is, up to a positive factor, `(p₀ w, p₁ (c + w))`
        // (near) or `(p₀ w, −p₁ (c − w))` (far), which turns monotonically with
        // `w`: it lies on the arc between its values at the ends of the root's
        // bracket, `[w₀, a₁]` and `[sb, c − sa]`. No root is solved whose arc
        // misses the vertex's cone `[n_a, n_b]` (a direction exactly on the
        // cone's boundary is an edge normal, a candidate already).
        let meets_cone = |u: Vec2, w: Vec2| {
            let to_l = |u: Vec2| xf.rot.apply_inv(if swap { Vec2::new(u.y, u.x) } else { u });
            let (mut u, mut w) = (to_l(u), to_l(w));
            if u.perp_dot(w) < 0.0 {
                std::mem::swap(&mut u, &mut w);
            }
            (na.perp_dot(u) >= 0.0 && u.perp_dot(nb) >= 0.0)
                || (u.perp_dot(na) >= 0.0 && na.perp_dot(w) >= 0.0)
        };
        if z < 1.0 {
            let w0 = sb.max(sa - cc);
            let (lo, hi) = (
                Vec2::new(p0 * w0, p1 * (cc + w0)),
                Vec2::new(p0 * amin, p1 * amax),
            );
            if meets_cone(lo, hi) {
                match normal_root(sa, sb, cc, true) {
                    Ok(Some(w)) => consider(w, true, &mut best),
                    Ok(None) => {}
                    Err(()) => return None,
                }
            }
        }
        if sa + sb < cc {
            let (lo, hi) = (
                Vec2::new(p0 * sb, -p1 * (cc - sb)),
                Vec2::new(p0 * (cc - sa), -p1 * sa),
            );
            if meets_cone(lo, hi) {
                match normal_root(sa, sb, cc, false) {
                    Ok(Some(w)) => consider(w, false, &mut best),
                    Ok(None) => {}
                    Err(()) => return None,
                }
            }
        }
    }
    let normal = best_vertex.unwrap_or_else(|| xf.rot.apply(best_normal));
    let depth = best;
    if !(depth >= 0.0 && depth.is_finite() && normal.is_finite()) {
        return None;
    }
    let h = support_value(a0, a1, normal);
    let point_e = Vec2::new(a0 * normal.x / h, a1 * normal.y / h);
    Some(Some(CorePen {
        depth,
        normal,
        point_e,
        point_c: point_e - depth * normal,
    }))
}

/// `Some(answer)` when one shape is an ellipse and the other a polygon and the
/// exact routine certified its answer.
pub(crate) fn penetration(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Option<Penetration>> {
    match (a, b) {
        (Shape::Ellipse { rx, ry }, Shape::Polygon(p)) => {
            let hit = core_penetration(*rx, *ry, p.vertices(), p.normals(), &xa.inv_mul(xb))?;
            Some(hit.map(|h| Penetration {
                depth: h.depth,
                normal: xa.rot.apply(h.normal),
                point_a: xa.apply(h.point_e),
                point_b: xa.apply(h.point_c),
            }))
        }
        (Shape::Polygon(p), Shape::Ellipse { rx, ry }) => {
            let hit = core_penetration(*rx, *ry, p.vertices(), p.normals(), &xb.inv_mul(xa))?;
            Some(hit.map(|h| Penetration {
                depth: h.depth,
                normal: -xb.rot.apply(h.normal),
                point_a: xb.apply(h.point_c),
                point_b: xb.apply(h.point_e),
            }))
        }
        _ => None,
    }
}
