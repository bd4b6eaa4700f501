//! Surface and bulk properties of a body, and how two materials combine at a contact.

use serde::{Deserialize, Serialize};

/// Density, friction and restitution of a body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Material {
    /// Mass per unit area (kg/m²).
    pub density: f32,
    /// Coulomb friction coefficient (dimensionless, ≥ 0).
    pub friction: f32,
    /// Coefficient of restitution (0 = no bounce, 1 = elastic).
    pub restitution: f32,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
        }
    }
}

/// Friction at a contact: the geometric mean `sqrt(μa · μb)`, so a frictionless
/// surface makes the contact frictionless (as in Box2D).
#[inline]
pub fn mix_friction(a: f32, b: f32) -> f32 {
    (a * b).sqrt()
}

/// Restitution at a contact: the larger of the two, so a bouncy ball bounces on
/// any floor (as in Box2D).
#[inline]
pub fn mix_restitution(a: f32, b: f32) -> f32 {
    a.max(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_rules() {
        assert_eq!(mix_friction(0.0, 0.9), 0.0);
        assert!((mix_friction(0.4, 0.9) - 0.6).abs() < 1e-6);
        assert_eq!(mix_restitution(0.2, 0.8), 0.8);
    }
}
