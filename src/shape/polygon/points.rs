//! Where a polygon keeps its vertices and normals.

use crate::math::Vec2;

/// Vertex count up to which a polygon holds its vertices and normals in
/// itself (Box2D v3's largest polygon), where the narrowphase reads them
/// with the shape: behind pointers, they cost two more cache misses for
/// each polygon of each pair (in Box2D's `compounds` the narrowphase's
/// largest wait was on the vertices' load).
pub(super) const INLINE_VERTICES: usize = 8;

/// A polygon's vertices and normals: in place up to [`INLINE_VERTICES`]
/// vertices (the unused entries zero), on the heap beyond.
#[derive(Clone)]
pub(super) enum Points {
    Inline {
        count: u8,
        vertices: [Vec2; INLINE_VERTICES],
        normals: [Vec2; INLINE_VERTICES],
    },
    Heap {
        vertices: Vec<Vec2>,
        normals: Vec<Vec2>,
    },
}

impl Points {
    pub(super) fn new(vertices: Vec<Vec2>, normals: Vec<Vec2>) -> Points {
        debug_assert_eq!(vertices.len(), normals.len());
        let n = vertices.len();
        if n > INLINE_VERTICES {
            return Points::Heap { vertices, normals };
        }
        let mut inline = ([Vec2::ZERO; INLINE_VERTICES], [Vec2::ZERO; INLINE_VERTICES]);
        inline.0[..n].copy_from_slice(&vertices);
        inline.1[..n].copy_from_slice(&normals);
        Points::Inline {
            count: n as u8,
            vertices: inline.0,
            normals: inline.1,
        }
    }

    #[inline]
    pub(super) fn vertices(&self) -> &[Vec2] {
        match self {
            Points::Inline {
                count, vertices, ..
            } => &vertices[..*count as usize],
            Points::Heap { vertices, .. } => vertices,
        }
    }

    #[inline]
    pub(super) fn normals(&self) -> &[Vec2] {
        match self {
            Points::Inline { count, normals, .. } => &normals[..*count as usize],
            Points::Heap { normals, .. } => normals,
        }
    }
}
