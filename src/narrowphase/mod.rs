//! The narrowphase: which kernel answers each shape pair, the pair kernels,
//! contact manifolds and their reuse across steps.

mod dispatch;
mod ellipse;
mod fast;
pub mod manifold;
pub(crate) mod reuse;

pub use dispatch::{distance, intersects, penetration};
