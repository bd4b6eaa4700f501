//! Rounded polygons: a convex polygon *core* dilated by a disc of radius `r`
//! (their Minkowski sum), as Box2D's `b2MakePolygon(&hull, radius)` and
//! `b2MakeRoundedBox`. The collision code sees only the core and the radius
//! (see `support.rs`); this file holds what needs the whole region: mass
//! properties and point containment, in closed form (the ray cast is in
//! `ray.rs` with the other shapes').
//!
//! The region is the union of three kinds of pieces, which overlap only
//! along their boundaries:
//!
//! ```text
//!      sector ╭─────────────────╮ sector      edge i pushed out by r along n_i:
//!             │   rectangle     │             a rectangle L_i × r;
//!             ├─────────────────┤             vertex i: a sector of radius r
//!   rectangle │      core       │ rectangle   between the normals of its two
//!             ├─────────────────┤             edges (the sectors' angles add
//!             │   rectangle     │             up to one full turn).
//!      sector ╰─────────────────╯ sector
//! ```
//!
//! Its boundary is the offset edges (each edge moved out by `r`) joined by
//! the corner arcs, so a point is inside when it lies within `r` of the core.

use super::polygon::Polygon;
use crate::math::Vec2;
use glam::DVec2;

fn wide(v: Vec2) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64)
}

/// Area (m²), centroid (local frame) and polar second moment of area about the
/// centroid (m⁴) of `core` dilated by `r`, summed in f64 over the pieces of
/// the module header, all about the core's first vertex `o`:
///
/// * core triangle `(o, a, b)` (a fan), with `d = a × b`: area `d/2`, first
///   moment `d/2 · (a + b)/3`, second moment `d/12 · (a·a + a·b + b·b)`;
/// * rectangle on edge `a → b` (length `L`, outward normal `n`): area `L r`,
///   centroid `m = (a + b)/2 + n r/2`, second moment `L r (L² + r²)/12 + L r |m|²`;
/// * sector at vertex `p` from normal `n₀` to `n₁`, angle `θ`: area `θ r²/2`;
///   its first moment about `p` is `∫∫ ρ (cos φ, sin φ) ρ dρ dφ =
///   r³/3 · (n₁ − n₀) turned by −90°`, and its second moment about `p` is
///   `θ r⁴/4`, moved to `o` by `|x|² = |x − p|² + 2 p·(x − p) + |p|²`.
pub(super) fn area_centroid_moment(core: &Polygon, r: f32) -> (f32, Vec2, f32) {
    let r = r as f64;
    let o = wide(core.vertices()[0]);
    let verts: Vec<DVec2> = core.vertices().iter().map(|v| wide(*v) - o).collect();
    let n = verts.len();
    // Unit outward normals recomputed in f64: normals[i] belongs to edge i → i+1.
    let normals: Vec<DVec2> = (0..n)
        .map(|i| {
            let e = verts[(i + 1) % n] - verts[i];
            DVec2::new(e.y, -e.x).normalize()
        })
        .collect();
    let (mut area, mut first, mut second) = (0.0f64, DVec2::ZERO, 0.0f64);
    for i in 1..n - 1 {
        let (a, b) = (verts[i], verts[i + 1]);
        let d = a.perp_dot(b);
        area += 0.5 * d;
        first += (0.5 * d / 3.0) * (a + b);
        second += d / 12.0 * (a.dot(a) + a.dot(b) + b.dot(b));
    }
    for i in 0..n {
        let (a, b) = (verts[i], verts[(i + 1) % n]);
        let len = (b - a).length();
        let rect = len * r;
        let m = 0.5 * (a + b) + 0.5 * r * normals[i];
        area += rect;
        first += rect * m;
        second += rect * (len * len + r * r) / 12.0 + rect * m.dot(m);

        // The sector at vertex i + 1, between edge i's normal and edge i+1's.
        let p = b;
        let (n0, n1) = (normals[i], normals[(i + 1) % n]);
        let theta = libm::atan2(n0.perp_dot(n1), n0.dot(n1));
        let sector = 0.5 * theta * r * r;
        let dn = n1 - n0;
        let apex_first = (r * r * r / 3.0) * DVec2::new(dn.y, -dn.x);
        area += sector;
        first += sector * p + apex_first;
        second += 0.25 * theta * r * r * r * r + 2.0 * p.dot(apex_first) + sector * p.dot(p);
    }
    let c = first / area;
    let moment = second - area * c.dot(c);
    let centroid = c + o;
    (
        area as f32,
        Vec2::new(centroid.x as f32, centroid.y as f32),
        moment as f32,
    )
}

/// Squared distance from `p` to the core polygon (0 inside or on it), in the
/// core's frame: the smallest point–segment distance over its edges.
fn distance_squared_to_core(core: &Polygon, p: Vec2) -> f32 {
    let (vs, ns) = (core.vertices(), core.normals());
    if vs.iter().zip(ns).all(|(v, n)| n.dot(p - *v) <= 0.0) {
        return 0.0;
    }
    let mut best = f32::INFINITY;
    for (i, a) in vs.iter().enumerate() {
        let b = vs[(i + 1) % vs.len()];
        let e = b - *a;
        let t = ((p - *a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        best = best.min(p.distance_squared(*a + t * e));
    }
    best
}

/// `true` when `p` (the shape's frame) lies within `r` of the core.
pub(super) fn contains(core: &Polygon, r: f32, p: Vec2) -> bool {
    distance_squared_to_core(core, p) <= r * r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_square_closed_form() {
        // A 2a × 2a square rounded by r: area 4a² + 8ar + πr²; the centroid
        // stays at the centre; the polar moment is the sum of the square's
        // (4a²·2a²/6 ... i.e. (2a)⁴/6), four rectangles and four quarter discs.
        let (a, r) = (1.0f64, 0.25f64);
        let core = Polygon::rect(a as f32, a as f32);
        let (area, c, j) = area_centroid_moment(&core, r as f32);
        let pi = std::f64::consts::PI;
        let want_area = 4.0 * a * a + 8.0 * a * r + pi * r * r;
        let square = (2.0 * a).powi(4) / 6.0;
        // Rectangle 2a × r at distance a + r/2: own (2a r)(4a² + r²)/12.
        let rect = 2.0 * a * r;
        let rects = 4.0 * (rect * (4.0 * a * a + r * r) / 12.0 + rect * (a + 0.5 * r).powi(2));
        // Quarter disc at corner (a, a): about its apex π r⁴/8, first moment
        // r³/3 · (1, 1), so about the centre π r⁴/8 + 2 (a, a)·(r³/3)(1, 1) + (π r²/4) 2a².
        let quarter =
            pi * r.powi(4) / 8.0 + 4.0 * a * r.powi(3) / 3.0 + pi * r * r / 4.0 * 2.0 * a * a;
        let want_j = square + rects + 4.0 * quarter;
        assert!((area as f64 - want_area).abs() < 1e-6 * want_area);
        assert!(c.length() < 1e-6);
        assert!((j as f64 - want_j).abs() < 1e-6 * want_j, "{j} vs {want_j}");
    }

    #[test]
    fn containment_follows_the_offset_edges_and_arcs() {
        let core = Polygon::rect(1.0, 0.5);
        let r = 0.2;
        assert!(contains(&core, r, Vec2::new(1.19, 0.0)));
        assert!(!contains(&core, r, Vec2::new(1.21, 0.0)));
        // Beyond the corner (1, 0.5): inside the arc, outside it.
        let diag = Vec2::new(1.0, 1.0).normalize();
        assert!(contains(&core, r, Vec2::new(1.0, 0.5) + 0.19 * diag));
        assert!(!contains(&core, r, Vec2::new(1.0, 0.5) + 0.21 * diag));
        // The bounding box's corner is outside.
        assert!(!contains(&core, r, Vec2::new(1.19, 0.69)));
    }
}
