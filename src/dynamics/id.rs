//! Generational body handles.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Handle to a body in a [`crate::World`]. It stays valid until the body is
/// removed; a removed body's slot may be reused, but the generation changes, so
/// an old handle never reaches the new body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BodyId {
    /// Slot index (dense, reused after removal).
    pub index: u32,
    /// Generation of the slot when the handle was made.
    pub generation: u32,
}

impl fmt::Display for BodyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.index)?;
        if self.generation > 0 {
            write!(f, "v{}", self.generation)?;
        }
        Ok(())
    }
}

/// Handle to a joint in a [`crate::World`]: valid until the joint is removed
/// or breaks, with the same generation rule as [`BodyId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JointId {
    /// Slot index (dense, reused after removal).
    pub index: u32,
    /// Generation of the slot when the handle was made.
    pub generation: u32,
}

impl fmt::Display for JointId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "joint #{}", self.index)?;
        if self.generation > 0 {
            write!(f, "v{}", self.generation)?;
        }
        Ok(())
    }
}
