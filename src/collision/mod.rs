//! Narrowphase geometry: bounding boxes, GJK, EPA, SAT and contact manifolds.

mod aabb;
pub mod epa;
mod fast;
pub mod gjk;
pub mod manifold;
pub mod sat;
pub mod simplex;

pub use aabb::Aabb;
