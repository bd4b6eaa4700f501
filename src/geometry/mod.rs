//! Generic convex geometry over [`crate::shape::SupportMap`]: GJK distance and
//! intersection, EPA penetration, the separating-axis test for polygons, the
//! simplex they share, shape casts and the GJK ray cast (`cast`), and the time
//! of impact of turning shapes (`toi`). Nothing here knows the concrete shape kinds; the
//! narrowphase decides which kernel answers each pair.

pub mod cast;
pub mod epa;
pub mod gjk;
pub mod sat;
pub mod segment;
pub mod simplex;
pub mod toi;
