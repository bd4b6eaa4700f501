//! Which kernel answers each shape pair, for each query: the one place that
//! says it.
//!
//! | pair | intersects | distance | penetration | contact manifold |
//! |---|---|---|---|---|
//! | small polygons (n, m ≤ 8, n·m ≤ 24) | SAT with early exit; closed-form SAT for two boxes (`pair/polygon.rs`) | SAT, then certified nearby features, else vertex–edge brute force | EPA | SAT + clipping (n, m ≤ 7: the `pair/polygon_manifold.rs` fast path, where a face-axis gap beyond the speculative distance gives the empty manifold, and a gap within it is measured by this row's distance kernel, GJK only where that has no answer) |
//! | other polygons with n, m ≤ 16 | GJK | SAT in O(n + m) by walking | EPA | SAT + clipping |
//! | larger polygons | GJK | GJK | EPA | SAT + clipping |
//! | circle / circle | closed form (`pair/circle.rs`) | closed form | closed form | GJK/EPA + witness point |
//! | circle / polygon (either order) | point projection | point projection | EPA | GJK/EPA + witness point |
//! | circle / capsule (either order) | GJK | point–segment | EPA | GJK/EPA + witness point |
//! | rounded polygon / polygon or rounded polygon (either order), cores n, m ≤ 16 | the polygon distance kernels above on the cores (`pair/rounded.rs`): cores within the radii | core distance minus the radii | cores overlapping (any size): SAT on the cores plus the radii; cores apart: EPA (GJK's core distance) | GJK/EPA on the cores, then clipping where faces align |
//! | circle / rounded polygon (either order) | point projection on the core | point projection on the core | EPA | GJK/EPA + witness point |
//! | ellipse / polygon (either order) | scaled edge–disc test (`pair/ellipse/`) | certified edge/vertex walk | SAT on the polygon's normals + normal-foot roots | GJK/EPA + witness point |
//! | ellipse / circle, capsule, rounded polygon (either order) | point–ellipse / segment–disc / edge–disc on the core, then the core's certified walk | certified walk on the core | EPA | GJK/EPA + witness point |
//! | segment or chain segment / segment or chain segment | GJK | GJK | EPA | none: shapes without area never collide |
//! | chain segment / any shape with area (either order) | GJK | GJK | EPA | one-sided, ghost-vertex filtered GJK/EPA (`pair/chain.rs`) |
//! | anything else (capsule / polygon or rounded polygon, capsule / capsule, larger rounded polygons, ellipse / ellipse, segment / shape with area) | GJK | GJK | EPA | GJK/EPA, then clipping where faces align |
//!
//! "SAT + clipping" applies with [`crate::WorldSettings::polygon_sat`] (the
//! default); without it polygon pairs take the GJK/EPA row. The ellipse
//! kernels hand back the pairs they cannot certify (`None`), which then take
//! the generic path; so does the rounded-polygon penetration kernel when the
//! cores are apart.
//!
//! Rounded shapes (capsules, rounded polygons) meet the generic path through
//! their cores: GJK and EPA run on the cores and add the radii, which keeps
//! flat contacts exact. A rounded polygon's face is its core's edge carrying
//! the radius, so a rounded box lying on any flat face clips to two points
//! (`manifold.rs`).
//!
//! A segment is a core with radius 0 and two faces (its sides), so a box
//! resting on one clips to two points on the generic path. A chain
//! segment's queries other than the manifold are two-sided; its manifold is
//! one-sided and judged against its ghost vertices so that bodies slide
//! across a chain's inner vertices (`pair/chain.rs`).
//!
//! Every kernel follows the generic path's contract (unit normal A→B, points on
//! the surfaces, the same `None` rules) and is exact up to f32 rounding; the
//! unit tests of `pair` compare each with GJK/EPA.

use super::manifold::{self, Manifold, PointFeature};
use super::pair::{chain, circle, ellipse, polygon, polygon_manifold, rounded};
use crate::geometry::epa::{self, Penetration};
use crate::geometry::gjk::{self, Closest, SimplexCache};
use crate::math::Iso;
use crate::shape::{Polygon, Shape};

/// SAT `intersects` is used when `n · m` is at most this. Measured with
/// `cargo bench --bench narrowphase`: SAT with early exit beats GJK for boxes;
/// for octagons (n · m = 64) GJK's few O(n + m) iterations win.
const SAT_INTERSECTS_MAX_PRODUCT: usize = 24;
/// The vertex–edge brute-force distance is used when `n · m` is at most this
/// (boxes and triangles); larger pairs keep GJK or the walk.
const BRUTE_DISTANCE_MAX_PRODUCT: usize = 24;

fn small_pair(a: &Polygon, b: &Polygon, max_product: usize) -> bool {
    let (n, m) = (a.vertices().len(), b.vertices().len());
    n <= polygon::SMALL && m <= polygon::SMALL && n * m <= max_product
}

/// `true` when the shapes touch or overlap.
pub fn intersects(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> bool {
    pair_intersects(a, xa, b, xb).unwrap_or_else(|| gjk::intersects(a, xa, b, xb))
}

/// Distance and closest points, or `None` when the shapes touch or overlap.
pub fn distance(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Closest> {
    pair_distance(a, xa, b, xb).unwrap_or_else(|| gjk::distance(a, xa, b, xb))
}

/// Penetration depth and normal, or `None` when the shapes are apart.
///
/// `Some` exactly when [`intersects`] says the shapes meet: that test decides,
/// and a pair it calls touching but the penetration kernel rounds to apart gets
/// depth 0 along the kernel's closest-feature normal.
pub fn penetration(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Penetration> {
    if !intersects(a, xa, b, xb) {
        return None;
    }
    pair_penetration(a, xa, b, xb)
        .unwrap_or_else(|| epa::penetration(a, xa, b, xb))
        .or_else(|| Some(touching(a, xa, b, xb)))
}

/// Depth 0 along the closest-feature normal, for a pair that rounds to apart.
fn touching(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Penetration {
    let c = epa::contact(a, xa, b, xb, None, None);
    let (pa, _) = c.points();
    let point = xa.apply(pa);
    Penetration {
        depth: 0.0,
        normal: xa.rot.apply(c.normal()),
        point_a: point,
        point_b: point,
    }
}

/// The `intersects` column: `Some(answer)` from a pair kernel, `None` for GJK.
pub(crate) fn pair_intersects(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<bool> {
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if small_pair(pa, pb, SAT_INTERSECTS_MAX_PRODUCT) =>
        {
            Some(polygon::polygons_meet(pa, xa, pb, xb))
        }
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            Some(circle::circles_intersect(*ra, xa, *rb, xb))
        }
        (Shape::Circle { radius }, Shape::Polygon(p)) => {
            Some(circle::circle_meets_polygon(*radius, xa, p, xb))
        }
        (Shape::Polygon(p), Shape::Circle { radius }) => {
            Some(circle::circle_meets_polygon(*radius, xb, p, xa))
        }
        (Shape::Circle { radius }, Shape::RoundedPolygon { core, radius: rp }) => {
            Some(circle::circle_meets_polygon(radius + rp, xa, core, xb))
        }
        (Shape::RoundedPolygon { core, radius: rp }, Shape::Circle { radius }) => {
            Some(circle::circle_meets_polygon(radius + rp, xb, core, xa))
        }
        (Shape::RoundedPolygon { .. }, Shape::Polygon(_) | Shape::RoundedPolygon { .. })
        | (Shape::Polygon(_), Shape::RoundedPolygon { .. }) => {
            let (ca, cb) = (rounded::polygon_core(a)?, rounded::polygon_core(b)?);
            rounded::meet(
                ca,
                xa,
                cb,
                xb,
                small_pair(ca.0, cb.0, BRUTE_DISTANCE_MAX_PRODUCT),
            )
        }
        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. }) => {
            ellipse::intersects(a, xa, b, xb)
        }
        _ => None,
    }
}

/// The `distance` column: `Some(answer)` from a pair kernel, `None` for GJK.
pub(crate) fn pair_distance(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Option<Closest>> {
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if small_pair(pa, pb, BRUTE_DISTANCE_MAX_PRODUCT) =>
        {
            Some(polygon::polygons_distance_sat(pa, xa, pb, xb))
        }
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if pa.vertices().len() <= polygon::WALK_MAX
                && pb.vertices().len() <= polygon::WALK_MAX =>
        {
            Some(polygon::polygons_distance_walk(pa, xa, pb, xb))
        }
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            Some(circle::circles_distance(*ra, xa, *rb, xb))
        }
        (Shape::Circle { radius }, Shape::Polygon(p)) => {
            Some(circle::circle_polygon_distance(*radius, xa, p, 0.0, xb))
        }
        (Shape::Polygon(p), Shape::Circle { radius }) => {
            Some(circle::polygon_circle_distance(p, 0.0, xa, *radius, xb))
        }
        (Shape::Circle { radius }, Shape::RoundedPolygon { core, radius: rp }) => {
            Some(circle::circle_polygon_distance(*radius, xa, core, *rp, xb))
        }
        (Shape::RoundedPolygon { core, radius: rp }, Shape::Circle { radius }) => {
            Some(circle::polygon_circle_distance(core, *rp, xa, *radius, xb))
        }
        (Shape::RoundedPolygon { .. }, Shape::Polygon(_) | Shape::RoundedPolygon { .. })
        | (Shape::Polygon(_), Shape::RoundedPolygon { .. }) => {
            let (ca, cb) = (rounded::polygon_core(a)?, rounded::polygon_core(b)?);
            rounded::distance(
                ca,
                xa,
                cb,
                xb,
                small_pair(ca.0, cb.0, BRUTE_DISTANCE_MAX_PRODUCT),
            )
        }
        (
            Shape::Circle { radius },
            Shape::Capsule {
                half_height,
                radius: rc,
            },
        ) => Some(circle::circle_capsule_distance(
            *radius,
            xa,
            *half_height,
            *rc,
            xb,
        )),
        (
            Shape::Capsule {
                half_height,
                radius: rc,
            },
            Shape::Circle { radius },
        ) => Some(circle::capsule_circle_distance(
            *half_height,
            *rc,
            xa,
            *radius,
            xb,
        )),
        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. }) => ellipse::distance(a, xa, b, xb),
        _ => None,
    }
}

/// The `penetration` column: `Some(answer)` from a pair kernel, `None` for EPA.
pub(crate) fn pair_penetration(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
) -> Option<Option<Penetration>> {
    match (a, b) {
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            circle::circles_penetration(*ra, xa, *rb, xb)
        }
        (Shape::RoundedPolygon { .. }, Shape::Polygon(_) | Shape::RoundedPolygon { .. })
        | (Shape::Polygon(_), Shape::RoundedPolygon { .. }) => {
            let (ca, cb) = (rounded::polygon_core(a)?, rounded::polygon_core(b)?);
            rounded::penetration(ca, xa, cb, xb)
        }
        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. }) => {
            ellipse::penetration(a, xa, b, xb)
        }
        _ => None,
    }
}

/// Builds the manifold of two placed shapes. Points farther apart than
/// `speculative` (m) are dropped. `cache` warm-starts GJK.
pub fn collide(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
) -> Manifold {
    collide_with_features(a, xa, b, xb, speculative, cache, false).0
}

/// The contact query of the pipeline without a cache, for tools and tests.
pub fn collide_uncached(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso, speculative: f32) -> Manifold {
    collide(a, xa, b, xb, speculative, &mut SimplexCache::default())
}

/// The contact-manifold column: [`collide`], with the geometry of each point
/// for the solver, and optionally the separating-axis path for overlapping
/// polygons (`polygon_sat`).
pub(crate) fn collide_with_features(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
    polygon_sat: bool,
) -> (Manifold, [PointFeature; 2]) {
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if polygon_sat
                && pa.vertices().len() <= polygon_manifold::SMALL_POLYGON
                && pb.vertices().len() <= polygon_manifold::SMALL_POLYGON =>
        {
            // Apart within reach: the distance column's kernel, in A's frame.
            let apart = |xf: &Iso| pair_distance(a, &Iso::IDENTITY, b, xf);
            polygon_manifold::collide_small_polygons(
                a,
                pa,
                xa,
                b,
                pb,
                xb,
                speculative,
                cache,
                apart,
            )
        }
        (Shape::Polygon(pa), Shape::Polygon(pb)) if polygon_sat => {
            let contact = polygon_manifold::polygon_overlap(pa, xa, pb, xb)
                .unwrap_or_else(|| epa::contact(a, xa, b, xb, Some(cache), None));
            manifold::from_contact(a, xa, b, xb, &contact, speculative)
        }
        _ if !a.has_area() && !b.has_area() => (Manifold::default(), Default::default()),
        (Shape::ChainSegment { .. }, _) => chain::collide_chain(a, xa, b, xb, speculative, cache),
        (_, Shape::ChainSegment { .. }) => {
            chain::flip(chain::collide_chain(b, xb, a, xa, speculative, cache))
        }
        _ => {
            let contact = epa::contact(a, xa, b, xb, Some(cache), None);
            manifold::from_contact(a, xa, b, xb, &contact, speculative)
        }
    }
}
