//! Narrowphase geometry: bounding boxes, GJK, EPA, SAT and contact manifolds.

mod aabb;
mod ellipse;
pub mod epa;
mod fast;
pub mod gjk;
pub mod manifold;
pub(crate) mod reuse;
pub mod sat;
pub mod simplex;

pub use aabb::Aabb;
