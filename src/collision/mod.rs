//! Narrowphase geometry: bounding boxes, GJK, EPA, SAT and contact manifolds.

mod aabb;

pub use aabb::Aabb;
