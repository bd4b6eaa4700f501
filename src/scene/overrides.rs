//! `--set KEY=VALUE`: changing one value of a scene from the command line.
//!
//! The scene is written out as a tree (serde's JSON data model, where a
//! generator or a shape is `{"Variant": {fields}}`), the value at the dotted
//! path is replaced, and the tree is read back into a scene and validated as
//! a file would be, so an override gets the same checks and messages as the
//! file. Keys are field names and list indices (`bodies.3.restitution`,
//! `generators.0.count`, `gravity`, `seed`); a variant's fields are reached
//! through it (`generators.0.count`, not `generators.0.Rain.count`), and a
//! field the file left to its default can be set. Values are RON: numbers,
//! `true`/`false`, strings, tuples and lists (`(0, -5)`), and variants
//! (`Static`, `Circle(r: 0.5)`).

use super::error::SceneError;
use super::format::Scene;
use serde_json::{Map, Value};

impl Scene {
    /// Applies `KEY=VALUE` (see the module documentation), then validates.
    /// On error the scene is unchanged.
    pub fn set(&mut self, assignment: &str, origin: &str) -> Result<(), SceneError> {
        let fail = |key: &str, message: String| SceneError::Override {
            origin: origin.to_string(),
            key: key.to_string(),
            message,
        };
        let Some((key, text)) = assignment.split_once('=') else {
            return Err(fail(assignment, "expected KEY=VALUE".to_string()));
        };
        let key = key.trim();
        let value = parse_value(text.trim()).map_err(|m| fail(key, m))?;
        let mut tree = serde_json::to_value(&*self).map_err(|e| fail(key, e.to_string()))?;
        let mut node = &mut tree;
        let mut path = String::new();
        for part in key.split('.') {
            node = step(node, part, &path).map_err(|m| fail(key, m))?;
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(part);
        }
        *node = value;
        let scene: Scene = serde_json::from_value(tree).map_err(|e| fail(key, e.to_string()))?;
        scene.validate(origin)?;
        *self = scene;
        Ok(())
    }
}

/// One step down the tree: a list index, a field, or a field inside the
/// single variant of an enum value. A missing field is created (the read
/// back rejects the unknown ones).
fn step<'v>(node: &'v mut Value, part: &str, at: &str) -> Result<&'v mut Value, String> {
    let here = if at.is_empty() { "the scene" } else { at };
    match node {
        Value::Array(items) => {
            let n = items.len();
            let i: usize = part
                .parse()
                .map_err(|_| format!("`{here}` is a list: `{part}` is not an index"))?;
            items
                .get_mut(i)
                .ok_or_else(|| format!("`{here}` has {n} entries: no index {i}"))
        }
        Value::Object(map) => {
            let wrapper = (!map.contains_key(part) && map.len() == 1)
                .then(|| map.iter().next())
                .flatten()
                .filter(|(k, v)| k.starts_with(|c: char| c.is_ascii_uppercase()) && v.is_object())
                .map(|(k, _)| k.clone());
            match wrapper {
                Some(variant) => step(map.get_mut(&variant).expect("the one key"), part, at),
                None => Ok(map.entry(part.to_string()).or_insert(Value::Null)),
            }
        }
        Value::String(variant) if variant.starts_with(|c: char| c.is_ascii_uppercase()) => Err(
            format!("`{here}` is `{variant}`, which has no field `{part}`"),
        ),
        _ => Err(format!(
            "`{here}` is a single value, not a list or a structure"
        )),
    }
}

/// A RON value as a tree: `Name` is a unit variant, `Name(…)` a variant
/// with fields; anything else goes through RON as is.
fn parse_value(text: &str) -> Result<Value, String> {
    let ident_end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (ident, rest) = text.split_at(ident_end);
    let is_variant = ident.starts_with(|c: char| c.is_ascii_uppercase());
    if is_variant && rest.is_empty() {
        return Ok(Value::String(ident.to_string()));
    }
    if is_variant && rest.starts_with('(') {
        let inner = parse_ron(rest)?;
        let mut m = Map::new();
        m.insert(ident.to_string(), inner);
        return Ok(Value::Object(m));
    }
    parse_ron(text)
}

fn parse_ron(text: &str) -> Result<Value, String> {
    super::load::ron_options()
        .from_str::<Value>(text)
        .map_err(|e| format!("bad value `{text}`: {}", e.code))
}
