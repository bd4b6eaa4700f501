//! `minkowski run --trace`: one row per sampled step, as CSV or JSON lines.
//!
//! Columns, in order: `step`, `time` (s, step × dt), `kinetic`, `potential`, `total`
//! (J; potential is `−m·g·c` summed over the bodies, 0 at the origin),
//! `momentum_x`, `momentum_y` (kg·m/s), `angular_momentum` (about the
//! origin, kg·m²/s), `contacts` (points), `bodies`, `awake` (bodies),
//! `max_penetration` (m, the deepest contact point, 0 if none), `step_ms`
//! (wall clock: the one column that is not deterministic), then for each
//! chosen body `b<ID>_x`, `b<ID>_y`, `b<ID>_angle`, `b<ID>_vx`, `b<ID>_vy`,
//! `b<ID>_angvel` (its origin's position and velocity).

use minkowski::scene::Scene;
use minkowski::{BodyId, World};
use std::io::Write;
use std::path::Path;

pub use minkowski::measure::{world_columns, WORLD_COLUMNS};

/// Output format, from the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.csv`: a header line, then comma-separated numbers.
    Csv,
    /// `.jsonl`: one JSON object per line.
    Jsonl,
}

/// A trace being written.
pub struct Trace {
    out: std::io::BufWriter<std::fs::File>,
    format: Format,
    every: u64,
    bodies: Vec<(BodyId, u32)>,
    columns: Vec<String>,
}

/// Body ids from `--bodies`: indices or names, comma-separated.
pub fn resolve_bodies(
    list: &str,
    scene: &Scene,
    world: &World,
) -> Result<Vec<(BodyId, u32)>, String> {
    let specs = scene.body_specs();
    let ids: Vec<BodyId> = world.bodies().map(|(id, _)| id).collect();
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let index = match item.parse::<usize>() {
            Ok(i) => i,
            Err(_) => specs
                .iter()
                .position(|b| b.name.as_deref() == Some(item))
                .ok_or_else(|| format!("--bodies: no body is named {item:?}"))?,
        };
        let id = *ids.get(index).ok_or_else(|| {
            format!(
                "--bodies: there is no body {index} (the scene has {})",
                ids.len()
            )
        })?;
        out.push((id, index as u32));
    }
    Ok(out)
}

impl Trace {
    /// Opens `path` (`.csv` or `.jsonl`) for a run of `scene`'s world.
    pub fn create(
        path: &Path,
        every: u64,
        bodies: Option<&str>,
        scene: &Scene,
        world: &World,
    ) -> Result<Trace, String> {
        let format = match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => Format::Csv,
            Some("jsonl") => Format::Jsonl,
            _ => {
                return Err(format!(
                    "--trace {}: the file must end in .csv or .jsonl",
                    path.display()
                ))
            }
        };
        let bodies = match bodies {
            Some(list) => resolve_bodies(list, scene, world)?,
            None => Vec::new(),
        };
        let file =
            std::fs::File::create(path).map_err(|e| format!("--trace {}: {e}", path.display()))?;
        let mut columns: Vec<String> = WORLD_COLUMNS.iter().map(|s| s.to_string()).collect();
        columns.push("step_ms".to_string());
        for (_, i) in &bodies {
            for c in ["x", "y", "angle", "vx", "vy", "angvel"] {
                columns.push(format!("b{i}_{c}"));
            }
        }
        let mut t = Trace {
            out: std::io::BufWriter::new(file),
            format,
            every: every.max(1),
            bodies,
            columns,
        };
        if format == Format::Csv {
            let header = t.columns.join(",");
            writeln!(t.out, "{header}").map_err(|e| e.to_string())?;
        }
        Ok(t)
    }

    /// Writes a row if this step is sampled (step 0 always is).
    pub fn sample(&mut self, world: &World, step_ms: f64) -> Result<(), String> {
        let step = world.step_index();
        if step % self.every != 0 {
            return Ok(());
        }
        let mut row: Vec<f64> = world_columns(world).to_vec();
        row.push(step_ms);
        for (id, _) in &self.bodies {
            match world.body(*id) {
                Some(b) => {
                    let (pos, v) = (b.position(), b.linear_velocity());
                    row.extend(
                        [pos.x, pos.y, b.angle(), v.x, v.y, b.angular_velocity()].map(f64::from),
                    );
                }
                None => row.extend([f64::NAN; 6]),
            }
        }
        let line = match self.format {
            Format::Csv => row
                .iter()
                .map(|v| {
                    if v.is_finite() {
                        format!("{v}")
                    } else {
                        String::new()
                    }
                })
                .collect::<Vec<_>>()
                .join(","),
            Format::Jsonl => {
                let map: serde_json::Map<String, serde_json::Value> = self
                    .columns
                    .iter()
                    .zip(&row)
                    .map(|(k, v)| {
                        let count = matches!(k.as_str(), "step" | "contacts" | "bodies" | "awake");
                        let n = if count {
                            Some(serde_json::Number::from(*v as u64))
                        } else {
                            serde_json::Number::from_f64(*v)
                        };
                        let v = n.map_or(serde_json::Value::Null, serde_json::Value::Number);
                        (k.clone(), v)
                    })
                    .collect();
                serde_json::Value::Object(map).to_string()
            }
        };
        writeln!(self.out, "{line}").map_err(|e| e.to_string())
    }

    /// Flushes the file.
    pub fn finish(mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| e.to_string())
    }
}
