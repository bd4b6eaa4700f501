//! Errors raised when a shape is built from bad input.

use thiserror::Error;

/// Why a shape could not be built. Every variant that concerns one vertex names
/// its index in the caller's input order.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ShapeError {
    /// A polygon needs at least three vertices.
    #[error("a polygon needs at least 3 vertices, got {count}")]
    TooFewVertices {
        /// Number of vertices given.
        count: usize,
    },
    /// More vertices than [`crate::shape::MAX_POLYGON_VERTICES`].
    #[error("a polygon may have at most {max} vertices, got {count}")]
    TooManyVertices {
        /// Number of vertices given.
        count: usize,
        /// The cap.
        max: usize,
    },
    /// A coordinate is NaN or infinite.
    #[error("vertex {index} has a non-finite coordinate")]
    NonFiniteVertex {
        /// Index of the vertex.
        index: usize,
    },
    /// A coordinate is absurdly large (beyond [`crate::shape::MAX_COORDINATE`]).
    #[error("vertex {index} lies too far from the origin (|coordinate| > {max} m)")]
    VertexOutOfRange {
        /// Index of the vertex.
        index: usize,
        /// The bound.
        max: f32,
    },
    /// Two vertices coincide (within a small tolerance).
    #[error("vertex {index} duplicates vertex {other}")]
    DuplicateVertex {
        /// Index of the later vertex.
        index: usize,
        /// Index of the earlier vertex it repeats.
        other: usize,
    },
    /// A concave outline where one convex shape is needed.
    #[error("the outline is concave ({pieces} convex pieces); give it as a body's shape or part")]
    Concave {
        /// Convex pieces it makes.
        pieces: usize,
    },
    /// The polygon encloses no area (all points collinear).
    #[error("the polygon has zero area (its vertices are collinear)")]
    ZeroArea,
    /// The vertex lies on the line through its neighbours.
    #[error(
        "vertex {index} is collinear with its neighbours (the polygon must be strictly convex)"
    )]
    CollinearVertex {
        /// Index of the vertex.
        index: usize,
    },
    /// The polygon turns the wrong way at this vertex: it is concave there.
    #[error("vertex {index} is reflex: the polygon is concave there")]
    ReflexVertex {
        /// Index of the vertex.
        index: usize,
    },
    /// Every turn has the same sign but the outline winds around more than once.
    #[error("the polygon outline crosses itself")]
    SelfIntersecting,
    /// Two edges of an outline cross or touch; edge `i` runs from vertex `i`
    /// to vertex `i + 1` (input order).
    #[error(
        "the outline crosses itself: edge {edge_a} (from vertex {edge_a}) meets edge {edge_b} (from vertex {edge_b})"
    )]
    CrossingEdges {
        /// The first edge.
        edge_a: usize,
        /// The second edge.
        edge_b: usize,
    },
    /// A size or radius that must be finite, positive and at most
    /// [`crate::shape::MAX_COORDINATE`] is not.
    #[error(
        "{what} must be finite, > 0 and at most {} m, got {value}",
        super::MAX_COORDINATE
    )]
    BadDimension {
        /// Which dimension (e.g. "radius").
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// A chain of several segments where one shape is needed.
    #[error("the chain makes {shapes} segments; give it as a body's shape or part")]
    ManyShapes {
        /// Segments it makes.
        shapes: usize,
    },
    /// A chain needs at least 2 points, a closed one (a loop) 3.
    #[error("a chain needs at least {min} points, got {count}")]
    ChainTooFewPoints {
        /// Number of points given.
        count: usize,
        /// The least allowed.
        min: usize,
    },
    /// Two consecutive points of a segment or chain (point `to` follows
    /// point `from`) are closer than [`crate::shape::MIN_SEGMENT_LENGTH`].
    #[error(
        "point {to} repeats point {from}: consecutive points must be at least {} m apart",
        super::MIN_SEGMENT_LENGTH
    )]
    ShortSegment {
        /// Index of the earlier point.
        from: usize,
        /// Index of the later point.
        to: usize,
    },
}
