//! The narrowphase: which kernel answers each shape pair ([`dispatch`]), the
//! pair kernels, contact manifolds and their reuse across steps.

pub mod dispatch;
pub mod manifold;
pub(crate) mod manifold_cache;
pub(crate) mod pair;

pub use dispatch::{collide, collide_uncached, distance, intersects, penetration};
