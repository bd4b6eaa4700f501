//! Joints of a scene against its bodies: body names, references by index or
//! name, the rules on ends (two different bodies, one that can move), every
//! number, and adding the joints to a built world.

use super::error::{FieldError, SceneError};
use super::joint_spec::{BodyRef, JointSpec};
use super::spec::BodySpec;
use crate::dynamics::{BodyId, BodyKind};
use crate::math::Iso;
use crate::world::World;
use std::collections::BTreeMap;

/// Most joints a scene may make, explicit and generated together.
pub const MAX_JOINTS: usize = 100_000;

/// Body names must be unique.
pub(crate) fn check_names(origin: &str, bodies: &[BodySpec]) -> Result<(), SceneError> {
    name_map(origin, bodies).map(|_| ())
}

pub(crate) fn name_map<'s>(
    origin: &str,
    bodies: &'s [BodySpec],
) -> Result<BTreeMap<&'s str, usize>, SceneError> {
    let mut map = BTreeMap::new();
    for (index, b) in bodies.iter().enumerate() {
        let Some(name) = b.name.as_deref() else {
            continue;
        };
        if name.is_empty() {
            return Err(SceneError::body(
                origin,
                index,
                FieldError::new("name", "must not be empty"),
            ));
        }
        if let Some(first) = map.insert(name, index) {
            return Err(SceneError::body(
                origin,
                index,
                FieldError::new(
                    "name",
                    format!("\"{name}\" is already the name of body {first}"),
                ),
            ));
        }
    }
    Ok(map)
}

fn joint_error(origin: &str, index: usize, j: &JointSpec, e: FieldError) -> SceneError {
    SceneError::Joint {
        origin: origin.to_string(),
        index,
        kind: j.kind_name(),
        field: e.field,
        message: e.message,
    }
}

pub(crate) fn find_body(
    field: &str,
    r: &BodyRef,
    bodies: &[BodySpec],
    names: &BTreeMap<&str, usize>,
) -> Result<usize, FieldError> {
    match r {
        BodyRef::Index(i) if (*i as usize) < bodies.len() => Ok(*i as usize),
        BodyRef::Index(i) => Err(FieldError::new(
            field,
            format!(
                "there is no body {i}: the scene has {} bodies (0 to {})",
                bodies.len(),
                bodies.len().saturating_sub(1)
            ),
        )),
        BodyRef::Name(n) => names
            .get(n.as_str())
            .copied()
            .ok_or_else(|| FieldError::new(field, format!("no body is named \"{n}\""))),
    }
}

/// The joint's ends as body indices (`None`: the world), checked: known
/// bodies, two different ones, at least one dynamic.
pub(crate) fn ends_of(
    j: &JointSpec,
    bodies: &[BodySpec],
    names: &BTreeMap<&str, usize>,
) -> Result<(Option<usize>, usize), FieldError> {
    let (a, b) = j.ends();
    let b = find_body("b", b, bodies, names)?;
    let a = a.map(|a| find_body("a", a, bodies, names)).transpose()?;
    if a == Some(b) {
        return Err(FieldError::new(
            "b",
            format!("a joint needs two different bodies; `a` and `b` are both body {b}"),
        ));
    }
    let kind = |i: Option<usize>| i.map_or(BodyKind::Static, |i| bodies[i].kind);
    if kind(a) != BodyKind::Dynamic && kind(Some(b)) != BodyKind::Dynamic {
        return Err(FieldError::new(
            "b",
            "a joint needs a dynamic body at one end; neither end is dynamic",
        ));
    }
    Ok((a, b))
}

fn start_pose(b: &BodySpec) -> Iso {
    Iso::new(b.pos, b.angle)
}

/// Checks every joint: names, references, ends and numbers.
pub(crate) fn check_joints(
    origin: &str,
    bodies: &[BodySpec],
    joints: &[JointSpec],
) -> Result<(), SceneError> {
    let names = name_map(origin, bodies)?;
    if joints.len() > MAX_JOINTS {
        return Err(SceneError::Setting {
            origin: origin.to_string(),
            field: "joints".to_string(),
            message: format!(
                "the scene makes {} joints (explicit and generated); at most {MAX_JOINTS} are allowed",
                joints.len()
            ),
        });
    }
    for (index, j) in joints.iter().enumerate() {
        let fail = |e| joint_error(origin, index, j, e);
        let (a, b) = ends_of(j, bodies, &names).map_err(fail)?;
        // Placeholder handles: only the numbers are checked here.
        let id = |i: usize| BodyId {
            index: i as u32,
            generation: 0,
        };
        let def = j
            .to_def(
                a.map(|a| (id(a), start_pose(&bodies[a]))),
                (id(b), start_pose(&bodies[b])),
            )
            .map_err(fail)?;
        def.validate()
            .map_err(|e| fail(FieldError::new("joint", e.to_string())))?;
    }
    Ok(())
}

/// Adds the (checked) joints to a world whose bodies were added in order.
pub(crate) fn add_joints(
    world: &mut World,
    origin: &str,
    bodies: &[BodySpec],
    joints: &[JointSpec],
) -> Result<(), SceneError> {
    if joints.is_empty() {
        return Ok(());
    }
    let names = name_map(origin, bodies)?;
    let ids: Vec<BodyId> = world.bodies().map(|(id, _)| id).collect();
    for (index, j) in joints.iter().enumerate() {
        let fail = |e| joint_error(origin, index, j, e);
        let (a, b) = ends_of(j, bodies, &names).map_err(fail)?;
        let end = |i: usize| -> Result<(BodyId, Iso), SceneError> {
            let id = *ids
                .get(i)
                .ok_or_else(|| fail(FieldError::new("b", format!("body {i} was not built"))))?;
            let xf = world
                .body(id)
                .map(|body| body.transform())
                .ok_or_else(|| fail(FieldError::new("b", format!("body {i} was not built"))))?;
            Ok((id, xf))
        };
        let ea = a.map(end).transpose()?;
        let eb = end(b)?;
        let def = j.to_def(ea, eb).map_err(fail)?;
        world
            .add_joint(def)
            .map_err(|e| fail(FieldError::new("joint", e.to_string())))?;
    }
    Ok(())
}
