//! Rigid-body dynamics: bodies and their shapes, materials, collision filters,
//! joints, the contact solver, the drag and sleeping.

pub(crate) mod block3;
pub mod body;
pub(crate) mod contact_solver;
pub mod drag;
mod filter;
mod id;
pub mod joint;
pub mod material;
pub(crate) mod schedule;
pub(crate) mod simd;
pub(crate) mod sleep;
pub(crate) mod solver_body;
pub(crate) mod stack_levels;
pub(crate) mod tree_order;

pub use body::{Body, BodyDef, BodyKind, Collider, ShapeDef};
pub use drag::DragJoint;
pub use filter::Filter;
pub use id::{BodyId, JointId};
pub use material::Material;
