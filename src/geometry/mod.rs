//! Generic convex geometry over [`crate::shape::SupportMap`]: GJK distance and
//! intersection, EPA penetration, the separating-axis test for polygons, and
//! the simplex they share. Nothing here knows the concrete shape kinds; the
//! narrowphase decides which kernel answers each pair.

pub mod epa;
pub mod gjk;
pub mod sat;
pub mod simplex;
