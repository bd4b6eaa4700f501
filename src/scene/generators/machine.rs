//! The machine generators' arms of [`Generator::validate`] and
//! [`Generator::generate`] (the machines themselves are in `scene::machines`).

use super::*;
use crate::scene::human::Humans;
use crate::scene::machines::{
    bridge, car, chain, check_bridge, check_car, check_chain, check_ragdoll, ragdolls,
};

impl Generator {
    /// [`Generator::validate`] for the machines.
    pub(super) fn validate_machine(&self) -> Result<(), FieldError> {
        match self {
            Generator::Chain {
                start,
                links,
                link_length,
                thickness,
                direction,
                density,
                friction,
                ..
            } => {
                check_material(*density, *friction, 0.0)?;
                check_chain(*start, *links, *link_length, *thickness, *direction)
            }
            Generator::Bridge {
                start,
                end,
                planks,
                sag,
                thickness,
                density,
                friction,
            } => {
                check_material(*density, *friction, 0.0)?;
                check_bridge(*start, *end, *planks, *sag, *thickness)
            }
            Generator::Ragdoll {
                origin,
                count,
                spacing,
                scale,
                density,
                friction,
            } => check_ragdoll(*origin, *count, *spacing, *scale, *density, *friction),
            Generator::Humans { .. } => self.humans().map_or(Ok(()), |h| h.validate()),
            Generator::Car {
                origin,
                scale,
                speed,
                max_torque,
                hertz,
                density,
            } => check_car(*origin, *scale, *speed, *max_torque, *hertz, *density),
            _ => Ok(()),
        }
    }

    /// [`Generator::generate`] for the machines.
    pub(super) fn generate_machine(&self, out: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
        match self {
            Generator::Chain {
                start,
                links,
                link_length,
                thickness,
                direction,
                fixed_end,
                density,
                friction,
            } => chain(
                *start,
                *links,
                *link_length,
                *thickness,
                *direction,
                *fixed_end,
                *density,
                *friction,
                out,
                joints,
            ),
            Generator::Bridge {
                start,
                end,
                planks,
                sag,
                thickness,
                density,
                friction,
            } => bridge(
                *start, *end, *planks, *sag, *thickness, *density, *friction, out, joints,
            ),
            Generator::Ragdoll {
                origin,
                count,
                spacing,
                scale,
                density,
                friction,
            } => ragdolls(
                *origin, *count, *spacing, *scale, *density, *friction, out, joints,
            ),
            Generator::Car {
                origin,
                scale,
                speed,
                max_torque,
                hertz,
                density,
            } => car(
                *origin,
                *scale,
                *speed,
                *max_torque,
                *hertz,
                *density,
                out,
                joints,
            ),
            Generator::Humans { .. } => {
                if let Some(h) = self.humans() {
                    h.generate(out, joints);
                }
            }
            Generator::Box2D(b) => b.generate(out, joints),
            _ => {}
        }
    }
}

impl Generator {
    /// A `Humans` generator's parameters.
    fn humans(&self) -> Option<Humans> {
        match *self {
            Generator::Humans {
                origin,
                count,
                spacing,
                scale,
                friction_torque,
                hertz,
                damping_ratio,
                first_group,
            } => Some(Humans {
                origin,
                count,
                spacing,
                scale,
                friction_torque,
                hertz,
                damping_ratio,
                first_group,
            }),
            _ => None,
        }
    }
}
