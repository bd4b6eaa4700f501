//! Convex polygons: validation, convex hull, support function.
//!
//! Vertices are stored counter-clockwise in the body frame, with one outward unit
//! normal per edge: edge `i` runs from vertex `i` to vertex `i + 1`.
//!
//! ```text
//!        v3 ------ v2
//!        |          |      normal[1] points right (edge v1 -> v2)
//!        |          |
//!        v0 ------ v1      normal[0] points down  (edge v0 -> v1)
//! ```

use super::error::ShapeError;
use super::{MAX_COORDINATE, MAX_POLYGON_VERTICES};
use crate::math::{cross, Vec2};
use points::Points;
#[cfg(test)]
use points::INLINE_VERTICES;
use serde::{Deserialize, Serialize};

mod points;

/// A strictly convex polygon with counter-clockwise vertices.
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "Vec<Vec2>", into = "Vec<Vec2>")]
pub struct Polygon {
    points: Points,
    /// Largest distance of a vertex from the origin (m), computed once: the
    /// narrowphase asks for it for every contact every step.
    bounding_radius: f32,
}

/// Equal vertices, normals and bounding radius, wherever they are kept.
impl PartialEq for Polygon {
    fn eq(&self, other: &Polygon) -> bool {
        self.vertices() == other.vertices()
            && self.normals() == other.normals()
            && self.bounding_radius == other.bounding_radius
    }
}

/// As a derived `Debug` of the three fields, wherever they are kept.
impl std::fmt::Debug for Polygon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Polygon")
            .field("vertices", &self.vertices())
            .field("normals", &self.normals())
            .field("bounding_radius", &self.bounding_radius)
            .finish()
    }
}

impl TryFrom<Vec<Vec2>> for Polygon {
    type Error = ShapeError;
    fn try_from(points: Vec<Vec2>) -> Result<Self, ShapeError> {
        Polygon::new(&points)
    }
}

impl From<Polygon> for Vec<Vec2> {
    fn from(p: Polygon) -> Self {
        p.vertices().to_vec()
    }
}

/// Tolerance for "two points coincide", relative to the polygon's size.
const WELD_RELATIVE: f32 = 1e-5;
/// Minimum sine of the turning angle at a vertex for it to count as strictly convex.
const MIN_TURN_SINE: f32 = 1e-5;

fn check_points(points: &[Vec2]) -> Result<(), ShapeError> {
    for (index, p) in points.iter().enumerate() {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return Err(ShapeError::NonFiniteVertex { index });
        }
        if p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE {
            return Err(ShapeError::VertexOutOfRange {
                index,
                max: MAX_COORDINATE,
            });
        }
    }
    Ok(())
}

fn weld_tolerance(points: &[Vec2]) -> f32 {
    let extent = points
        .iter()
        .fold(0.0f32, |m, p| m.max(p.x.abs()).max(p.y.abs()));
    WELD_RELATIVE * extent.max(1e-3)
}

/// [`weld_tolerance`] along each axis, from that axis's coordinates.
fn axis_welds(points: &[Vec2]) -> (f32, f32) {
    let (x, y) = points.iter().fold((0.0f32, 0.0f32), |(x, y), p| {
        (x.max(p.x.abs()), y.max(p.y.abs()))
    });
    (WELD_RELATIVE * x.max(1e-3), WELD_RELATIVE * y.max(1e-3))
}

/// The half extents of `points` when they are exactly the corners that
/// [`Polygon::rect`] makes, in its order, both half extents positive.
fn rect_corners(points: &[Vec2]) -> Option<Vec2> {
    let h = *points.get(2)?;
    let corners = [
        Vec2::new(-h.x, -h.y),
        Vec2::new(h.x, -h.y),
        h,
        Vec2::new(-h.x, h.y),
    ];
    let exact = points.len() == 4
        && points
            .iter()
            .zip(&corners)
            .all(|(p, q)| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits());
    (exact && h.x > 0.0 && h.y > 0.0).then_some(h)
}

fn signed_area2(points: &[Vec2]) -> f32 {
    // Shoelace formula relative to the first point, for precision.
    let o = points[0];
    let mut a = 0.0;
    for i in 1..points.len() - 1 {
        a += cross(points[i] - o, points[i + 1] - o);
    }
    a
}

impl Polygon {
    /// Validates and stores a convex polygon given in either winding.
    ///
    /// Fails with a [`ShapeError`] naming the offending vertex (input order) when the
    /// input has fewer than 3 or more than [`MAX_POLYGON_VERTICES`] points, a
    /// non-finite or out-of-range coordinate, duplicate points, zero area, a
    /// collinear or reflex vertex, or a self-crossing outline. The exact
    /// corners of a box that [`Shape::rect`](crate::Shape::rect) makes are
    /// that box at any aspect, as [`crate::Shape::validate`] accepts it.
    pub fn new(points: &[Vec2]) -> Result<Polygon, ShapeError> {
        let n = points.len();
        if n < 3 {
            return Err(ShapeError::TooFewVertices { count: n });
        }
        if n > MAX_POLYGON_VERTICES {
            return Err(ShapeError::TooManyVertices {
                count: n,
                max: MAX_POLYGON_VERTICES,
            });
        }
        check_points(points)?;
        // The box that `rect` makes, which `Shape::validate` accepts at any
        // aspect: taken as it is, so that every box a world holds restores
        // from its snapshot (a 1 m plank 1 nm thick would fail the tests
        // below). Any other box is the same polygon either way.
        if let Some(h) = rect_corners(points) {
            return Ok(Polygon::rect(h.x, h.y));
        }
        // Two points coincide when they do along both axes, each to the
        // precision of its own coordinates: a slender wall (1 cm by 2 km)
        // has short edges that are exact, and a snapshot of one restores.
        let (wx, wy) = axis_welds(points);
        for i in 1..n {
            for j in 0..i {
                let d = points[i] - points[j];
                if d.x.abs() <= wx && d.y.abs() <= wy {
                    return Err(ShapeError::DuplicateVertex { index: i, other: j });
                }
            }
        }
        let area2 = signed_area2(points);
        let extent = weld_tolerance(points) / WELD_RELATIVE;
        if area2.abs() <= 1e-6 * extent * extent {
            return Err(ShapeError::ZeroArea);
        }
        let sign = area2.signum();
        // Every vertex must turn the same way as the whole outline, strictly.
        let mut turning = 0.0f32;
        for i in 0..n {
            let prev = points[(i + n - 1) % n];
            let next = points[(i + 1) % n];
            let e0 = points[i] - prev;
            let e1 = next - points[i];
            let c = sign * cross(e0, e1);
            let s = c / (e0.length() * e1.length());
            if s.abs() < MIN_TURN_SINE && e0.dot(e1) > 0.0 {
                return Err(ShapeError::CollinearVertex { index: i });
            }
            if c <= 0.0 {
                return Err(ShapeError::ReflexVertex { index: i });
            }
            turning += libm::atan2f(c, e0.dot(e1));
        }
        // A convex outline turns exactly once (2π); a star turns 4π or more.
        if turning > 3.0 * std::f32::consts::PI {
            return Err(ShapeError::SelfIntersecting);
        }
        let mut vertices = points.to_vec();
        if sign < 0.0 {
            vertices.reverse();
        }
        Ok(Polygon::from_ccw_unchecked(vertices))
    }

    /// The convex hull of a point cloud (Andrew's monotone chain). Interior,
    /// duplicate and collinear points are dropped. Fails when the points are not
    /// finite, fewer than 3, all (nearly) collinear, or the hull has more than
    /// [`MAX_POLYGON_VERTICES`] vertices.
    pub fn convex_hull(points: &[Vec2]) -> Result<Polygon, ShapeError> {
        if points.len() < 3 {
            return Err(ShapeError::TooFewVertices {
                count: points.len(),
            });
        }
        check_points(points)?;
        let weld = weld_tolerance(points);
        let mut pts = points.to_vec();
        pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        pts.dedup_by(|a, b| a.distance(*b) <= weld);
        if pts.len() < 3 {
            return Err(ShapeError::ZeroArea);
        }
        // A point is kept only if the chain turns left there by a clear margin.
        let keeps = |h: &[Vec2], p: Vec2| -> bool {
            let a = h[h.len() - 2];
            let b = h[h.len() - 1];
            let e0 = b - a;
            let e1 = p - b;
            cross(e0, e1) > MIN_TURN_SINE * e0.length() * e1.length()
        };
        let mut hull: Vec<Vec2> = Vec::with_capacity(2 * pts.len());
        for &p in &pts {
            while hull.len() >= 2 && !keeps(&hull, p) {
                hull.pop();
            }
            hull.push(p);
        }
        let lower_len = hull.len() + 1;
        for &p in pts.iter().rev().skip(1) {
            while hull.len() >= lower_len && !keeps(&hull, p) {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the last point repeats the first
                    // Welding and the collinearity margin can leave a vertex that fails the
                    // strict test at the wrap-around; validate the result like user input.
        if hull.len() < 3 {
            return Err(ShapeError::ZeroArea);
        }
        if hull.len() > MAX_POLYGON_VERTICES {
            return Err(ShapeError::TooManyVertices {
                count: hull.len(),
                max: MAX_POLYGON_VERTICES,
            });
        }
        Polygon::new(&hull)
    }

    /// An axis-aligned box with half extents `hx`, `hy`, centred on the origin.
    pub(crate) fn rect(hx: f32, hy: f32) -> Polygon {
        Polygon::from_ccw_unchecked(vec![
            Vec2::new(-hx, -hy),
            Vec2::new(hx, -hy),
            Vec2::new(hx, hy),
            Vec2::new(-hx, hy),
        ])
    }

    fn from_ccw_unchecked(vertices: Vec<Vec2>) -> Polygon {
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                Vec2::new(e.y, -e.x).normalize()
            })
            .collect();
        let bounding_radius = vertices.iter().fold(0.0f32, |m, v| m.max(v.length()));
        Polygon {
            points: Points::new(vertices, normals),
            bounding_radius,
        }
    }

    /// `(hx, hy)` when the vertices are exactly those of
    /// [`Polygon::rect`]`(hx, hy)`, compared bit for bit (NaN included): a
    /// box, whose half extents [`Polygon::rect`] takes on trust.
    pub(crate) fn box_half_extents(&self) -> Option<Vec2> {
        let h = *self.vertices().get(2)?;
        let same = |a: &[Vec2], b: &[Vec2]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(p, q)| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits())
        };
        let corners = [
            Vec2::new(-h.x, -h.y),
            Vec2::new(h.x, -h.y),
            h,
            Vec2::new(-h.x, h.y),
        ];
        same(self.vertices(), &corners).then_some(h)
    }

    /// Largest distance of a vertex from the origin (m).
    #[inline]
    pub fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    /// Counter-clockwise vertices in the body frame.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        self.points.vertices()
    }

    /// Outward unit normals; `normals()[i]` belongs to the edge from vertex `i` to `i + 1`.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        self.points.normals()
    }

    /// Index of the vertex farthest along `dir` (the first one on ties).
    #[inline]
    pub fn support_index(&self, dir: Vec2) -> usize {
        let mut best = 0;
        let vertices = self.vertices();
        let mut best_d = vertices[0].dot(dir);
        for (i, v) in vertices.iter().enumerate().skip(1) {
            let d = v.dot(dir);
            if d > best_d {
                best = i;
                best_d = d;
            }
        }
        best
    }

    /// Area (m²), centroid and second moment of area about the centroid (m⁴).
    pub fn area_centroid_moment(&self) -> (f32, Vec2, f32) {
        // Triangle fan from the first vertex; work relative to it for precision.
        let vertices = self.vertices();
        let o = vertices[0];
        let mut area = 0.0;
        let mut center = Vec2::ZERO;
        let mut moment = 0.0;
        for i in 1..vertices.len() - 1 {
            let e1 = vertices[i] - o;
            let e2 = vertices[i + 1] - o;
            let d = cross(e1, e2);
            let tri_area = 0.5 * d;
            area += tri_area;
            center += tri_area * (e1 + e2) / 3.0;
            // Second moment of the triangle (o, e1, e2) about o.
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
            moment += (0.25 / 3.0) * d * (intx2 + inty2);
        }
        let c = center / area;
        // Shift the moment from the fan origin to the centroid.
        let moment_c = moment - area * c.dot(c);
        (area, c + o, moment_c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Regular polygons held in place (up to `INLINE_VERTICES` vertices)
    /// and on the heap (beyond) keep their vertices and normals, compare,
    /// print and serialize alike.
    #[test]
    fn inline_and_heap_polygons_behave_alike() {
        for n in [
            3,
            4,
            INLINE_VERTICES,
            INLINE_VERTICES + 1,
            MAX_POLYGON_VERTICES,
        ] {
            let ring: Vec<Vec2> = (0..n)
                .map(|i| {
                    let a = i as f32 / n as f32 * std::f32::consts::TAU;
                    v(libm::cosf(a), libm::sinf(a))
                })
                .collect();
            let p = Polygon::new(&ring).unwrap();
            assert_eq!(
                matches!(p.points, Points::Inline { .. }),
                n <= INLINE_VERTICES
            );
            assert_eq!(p.vertices(), &ring[..], "{n}");
            assert_eq!(p.normals().len(), n);
            for (i, normal) in p.normals().iter().enumerate() {
                let e = ring[(i + 1) % n] - ring[i];
                assert_eq!(*normal, Vec2::new(e.y, -e.x).normalize(), "{n} {i}");
            }
            let text = ron::to_string(&p).unwrap();
            assert_eq!(ron::from_str::<Polygon>(&text).unwrap(), p, "{n}");
            let shown = format!("{p:?}");
            let expected = format!(
                "Polygon {{ vertices: {:?}, normals: {:?}, bounding_radius: {:?} }}",
                p.vertices(),
                p.normals(),
                p.bounding_radius()
            );
            assert_eq!(shown, expected);
            let mut other = ring.clone();
            other[1] *= 0.999;
            assert_ne!(Polygon::new(&other).unwrap(), p, "{n}");
        }
    }

    #[test]
    fn clockwise_input_is_stored_ccw() {
        let p = Polygon::new(&[v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)]).unwrap();
        assert!(signed_area2(p.vertices()) > 0.0);
        for (i, n) in p.normals().iter().enumerate() {
            let mid = (p.vertices()[i] + p.vertices()[(i + 1) % 4]) * 0.5;
            assert!(n.dot(mid - v(0.5, 0.5)) > 0.0, "normal {i} points inward");
        }
    }

    #[test]
    fn each_failure_names_its_vertex() {
        use ShapeError::*;
        assert_eq!(
            Polygon::new(&[v(0., 0.), v(1., 0.)]),
            Err(TooFewVertices { count: 2 })
        );
        assert_eq!(
            Polygon::new(&[v(0., 0.), v(1., f32::NAN), v(0., 1.)]),
            Err(NonFiniteVertex { index: 1 })
        );
        assert_eq!(
            Polygon::new(&[v(0., 0.), v(1., 0.), v(1., 0.), v(0., 1.)]),
            Err(DuplicateVertex { index: 2, other: 1 })
        );
        assert_eq!(
            Polygon::new(&[v(0., 0.), v(1., 0.), v(2., 0.)]),
            Err(ZeroArea)
        );
        assert_eq!(
            Polygon::new(&[v(0., 0.), v(1., 0.), v(2., 0.), v(1., 1.)]),
            Err(CollinearVertex { index: 1 })
        );
        assert_eq!(
            Polygon::new(&[v(0., 0.), v(2., 0.), v(1., 0.5), v(2., 2.), v(0., 2.)]),
            Err(ReflexVertex { index: 2 })
        );
        let many: Vec<Vec2> = (0..MAX_POLYGON_VERTICES + 1)
            .map(|i| {
                let a = i as f32 / (MAX_POLYGON_VERTICES + 1) as f32 * std::f32::consts::TAU;
                v(a.cos(), a.sin())
            })
            .collect();
        assert!(matches!(Polygon::new(&many), Err(TooManyVertices { .. })));
    }

    /// A slender box validates as the box `rect` makes (a snapshot of a
    /// 1 cm by 2 km wall restores), while points that coincide along both
    /// axes still fail, however slender the polygon.
    #[test]
    fn slender_boxes_validate_and_near_duplicates_do_not() {
        let wall = [
            v(-0.005, -1000.),
            v(0.005, -1000.),
            v(0.005, 1000.),
            v(-0.005, 1000.),
        ];
        assert_eq!(Polygon::new(&wall), Ok(Polygon::rect(0.005, 1000.)));
        let twin = [
            v(-0.005, -1000.),
            v(0.005, -1000.),
            v(0.005, 1000.),
            v(0.005, 1000.001),
        ];
        assert_eq!(
            Polygon::new(&twin),
            Err(ShapeError::DuplicateVertex { index: 3, other: 2 })
        );
    }

    /// Every box of half extents from 1 mm to 1 km (aspect up to a
    /// million), on a grid of quarter decades, validates as `rect` makes
    /// it: what a snapshot stores of a box, it restores.
    #[test]
    fn boxes_of_any_aspect_validate_as_rect_makes_them() {
        let size = |k: i32| 10f32.powf(k as f32 / 4.0);
        for a in -12..=12 {
            for b in -12..=12 {
                let r = Polygon::rect(size(a), size(b));
                assert_eq!(Polygon::new(r.vertices()), Ok(r.clone()), "{a} {b}");
            }
        }
    }

    /// Boxes as thin as `Shape::validate` accepts (half extents from 1 nm
    /// to the largest coordinate, aspect up to 10^13) validate as `rect`
    /// makes them, where the zero-area and duplicate tests refused those
    /// thinner than about 1/2,000,000 of their length. An outline that is
    /// not exactly such a box is still refused.
    #[test]
    fn boxes_as_thin_as_validate_accepts_restore() {
        for a in -9..=4 {
            for b in -9..=4 {
                let (hx, hy) = (10f32.powi(a), 10f32.powi(b));
                assert!(crate::Shape::rect(hx, hy).validate().is_ok());
                let r = Polygon::rect(hx, hy);
                assert_eq!(Polygon::new(r.vertices()), Ok(r.clone()), "{hx} {hy}");
            }
        }
        let plank = Polygon::rect(1.0, 1e-9);
        let v = plank.vertices();
        // The same corners from another start, and a sliver triangle.
        let turned = [v[1], v[2], v[3], v[0]];
        assert_eq!(
            Polygon::new(&turned),
            Err(ShapeError::DuplicateVertex { index: 1, other: 0 })
        );
        let sliver = [v[0], v[1], v[2]];
        assert!(Polygon::new(&sliver).is_err());
    }

    #[test]
    fn pentagram_is_rejected() {
        let star: Vec<Vec2> = (0..5)
            .map(|i| {
                let a = (i * 2) as f32 / 5.0 * std::f32::consts::TAU;
                v(a.cos(), a.sin())
            })
            .collect();
        assert_eq!(Polygon::new(&star), Err(ShapeError::SelfIntersecting));
    }

    #[test]
    fn hull_drops_interior_and_collinear_points() {
        let pts = [
            v(0., 0.),
            v(0.5, 0.),
            v(1., 0.),
            v(1., 1.),
            v(0.5, 0.5),
            v(0., 1.),
            v(0., 1.),
        ];
        let h = Polygon::convex_hull(&pts).unwrap();
        assert_eq!(h.vertices().len(), 4);
        assert_eq!(
            Polygon::convex_hull(&[v(0., 0.), v(1., 1.), v(2., 2.)]),
            Err(ShapeError::ZeroArea)
        );
    }

    #[test]
    fn unit_square_moments() {
        let p = Polygon::rect(0.5, 1.0);
        let (area, c, i) = p.area_centroid_moment();
        assert!((area - 2.0).abs() < 1e-6);
        assert!(c.length() < 1e-6);
        // I/ρ = A (w² + h²) / 12 with w = 1, h = 2.
        assert!((i - 2.0 * 5.0 / 12.0).abs() < 1e-5);
    }
}
