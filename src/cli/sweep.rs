//! `minkowski sweep`: the cross product of scene values (and seeds), each run
//! headless on all cores, one row of measures per run.
//!
//! Runs are numbered in a fixed order (the first `--vary` slowest, seeds
//! fastest) and written in that order whatever the number of jobs, so the
//! output is byte-identical for any `--jobs`; `--shard K/N` keeps the runs
//! whose number is K − 1 modulo N, so N machines can split a sweep and the
//! union of their rows is the whole table.

use super::run::load_scene_with;
use super::trace::{resolve_bodies, world_columns, WORLD_COLUMNS};
use super::{hex, EXIT_BAD_INPUT};
use minkowski::scene::Scene;
use minkowski::{BodyId, World};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `minkowski sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// Scene file, or the name of a shipped scene.
    pub scene: String,
    /// A scene value to vary: `KEY=a..b:n` (n values from a to b, ends
    /// included) or `KEY=v1,v2,…` (RON values). Repeatable: the runs are the
    /// cross product.
    #[arg(long = "vary", value_name = "KEY=a..b:n|v1,v2,...", required = true)]
    pub vary: Vec<String>,
    /// Seeds to run each combination with, `A..B` (B excluded); default the
    /// scene's own seed.
    #[arg(long, value_name = "A..B")]
    pub seeds: Option<String>,
    /// Steps per run.
    #[arg(long)]
    pub steps: u64,
    /// What to record: `STAT:COLUMN[@FROM..TO]`, STAT one of final, max, min,
    /// mean; COLUMN a trace column (`total`, `contacts`, …) or `BODY.FIELD`
    /// (BODY an index or a name, FIELD one of x, y, angle, vx, vy, angvel);
    /// FROM..TO limits it to those steps (TO excluded). Repeatable.
    #[arg(
        long = "measure",
        value_name = "STAT:COLUMN[@FROM..TO]",
        required = true
    )]
    pub measure: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Write the table to FILE.csv or FILE.jsonl (default: CSV on stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Run only the K-th of N slices of the runs (1 ≤ K ≤ N).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Change a scene value for every run first (as `run --set`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Stat {
    Final,
    Max,
    Min,
    Mean,
}

#[derive(Clone, Debug)]
enum Column {
    World(usize),
    Body(String, usize),
}

#[derive(Clone, Debug)]
struct Measure {
    text: String,
    stat: Stat,
    column: Column,
    from: u64,
    to: u64,
}

const BODY_FIELDS: [&str; 6] = ["x", "y", "angle", "vx", "vy", "angvel"];

fn parse_measure(text: &str) -> Result<Measure, String> {
    let bad = |why: &str| format!("--measure {text}: {why}");
    let (stat, rest) = text
        .split_once(':')
        .ok_or_else(|| bad("expected STAT:COLUMN"))?;
    let stat = match stat {
        "final" => Stat::Final,
        "max" => Stat::Max,
        "min" => Stat::Min,
        "mean" => Stat::Mean,
        _ => return Err(bad("STAT is one of final, max, min, mean")),
    };
    let (col, window) = match rest.split_once('@') {
        Some((c, w)) => (c, Some(w)),
        None => (rest, None),
    };
    let (from, to) = match window {
        Some(w) => parse_range(w).map_err(|e| bad(&e))?,
        None => (0, u64::MAX),
    };
    let column = if let Some(i) = WORLD_COLUMNS.iter().position(|c| *c == col) {
        Column::World(i)
    } else if let Some((body, field)) = col.rsplit_once('.') {
        let f = BODY_FIELDS
            .iter()
            .position(|x| *x == field)
            .ok_or_else(|| bad("a body's FIELD is one of x, y, angle, vx, vy, angvel"))?;
        Column::Body(body.to_string(), f)
    } else {
        return Err(bad(&format!(
            "COLUMN is one of {} or BODY.FIELD",
            WORLD_COLUMNS.join(", ")
        )));
    };
    Ok(Measure {
        text: text.to_string(),
        stat,
        column,
        from,
        to,
    })
}

/// `A..B` as integers, B excluded.
fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}` is not a range A..B"))?;
    let a: u64 = a
        .trim()
        .parse()
        .map_err(|_| format!("`{a}` is not a count"))?;
    let b: u64 = b
        .trim()
        .parse()
        .map_err(|_| format!("`{b}` is not a count"))?;
    if b <= a {
        return Err(format!("the range {a}..{b} is empty"));
    }
    Ok((a, b))
}

/// The values of one `--vary`: its key and its values as RON text.
fn parse_vary(text: &str) -> Result<(String, Vec<String>), String> {
    let bad = |why: String| format!("--vary {text}: {why}");
    let (key, spec) = text
        .split_once('=')
        .ok_or_else(|| bad("expected KEY=VALUES".into()))?;
    let linear = spec.split_once("..").and_then(|(a, rest)| {
        let (b, n) = rest.split_once(':')?;
        Some((
            a.trim().parse::<f64>(),
            b.trim().parse::<f64>(),
            n.trim().parse::<usize>(),
        ))
    });
    let values = match linear {
        Some((Ok(a), Ok(b), Ok(n)))
            if (1..=100_000).contains(&n) && a.is_finite() && b.is_finite() =>
        {
            (0..n)
                .map(|i| {
                    let t = if n == 1 {
                        0.0
                    } else {
                        i as f64 / (n - 1) as f64
                    };
                    format!("{}", (a + (b - a) * t) as f32)
                })
                .collect()
        }
        Some(_) => {
            return Err(bad(
                "a..b:n needs two numbers and a count from 1 to 100000".into()
            ))
        }
        None => split_top_level(spec),
    };
    if values.iter().any(|v| v.is_empty()) {
        return Err(bad("an empty value".into()));
    }
    Ok((key.trim().to_string(), values))
}

/// Splits at the commas outside brackets and parentheses.
fn split_top_level(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

/// One run: its number, its values (one per `--vary`) and its seed.
struct Run {
    index: usize,
    values: Vec<String>,
    seed: u64,
    scene: Scene,
}

/// Running statistics of one measure.
#[derive(Clone, Copy)]
struct Acc {
    last: f64,
    max: f64,
    min: f64,
    sum: f64,
    n: u64,
}

impl Acc {
    fn new() -> Acc {
        Acc {
            last: f64::NAN,
            max: f64::NEG_INFINITY,
            min: f64::INFINITY,
            sum: 0.0,
            n: 0,
        }
    }

    fn add(&mut self, v: f64) {
        self.last = v;
        self.max = self.max.max(v);
        self.min = self.min.min(v);
        self.sum += v;
        self.n += 1;
    }

    fn get(&self, stat: Stat) -> f64 {
        if self.n == 0 {
            return f64::NAN;
        }
        match stat {
            Stat::Final => self.last,
            Stat::Max => self.max,
            Stat::Min => self.min,
            Stat::Mean => self.sum / self.n as f64,
        }
    }
}

fn sample(
    world: &World,
    step: u64,
    measures: &[Measure],
    bodies: &[Option<BodyId>],
    acc: &mut [Acc],
) {
    let cols = world_columns(world);
    for (k, m) in measures.iter().enumerate() {
        if step < m.from || step >= m.to {
            continue;
        }
        let v = match &m.column {
            Column::World(i) => cols[*i],
            Column::Body(_, f) => match bodies[k].and_then(|id| world.body(id)) {
                Some(b) => {
                    let (p, v) = (b.position(), b.linear_velocity());
                    f64::from([p.x, p.y, b.angle(), v.x, v.y, b.angular_velocity()][*f])
                }
                None => f64::NAN,
            },
        };
        acc[k].add(v);
    }
}

/// Runs one combination; returns its measures and final hash.
fn execute(run: &Run, steps: u64, measures: &[Measure]) -> Result<(Vec<f64>, u64), String> {
    let mut world = run.scene.build().map_err(|e| e.to_string())?;
    let mut bodies = Vec::with_capacity(measures.len());
    for m in measures {
        bodies.push(match &m.column {
            Column::Body(b, _) => Some(resolve_bodies(b, &run.scene, &world)?[0].0),
            Column::World(_) => None,
        });
    }
    let mut acc = vec![Acc::new(); measures.len()];
    sample(&world, 0, measures, &bodies, &mut acc);
    for step in 1..=steps {
        world.step();
        let _ = world.take_events();
        sample(&world, step, measures, &bodies, &mut acc);
    }
    let out = measures
        .iter()
        .zip(&acc)
        .map(|(m, a)| a.get(m.stat))
        .collect();
    Ok((out, world.state_hash()))
}

/// Runs a sweep; returns the exit code.
pub fn sweep(args: &SweepArgs) -> i32 {
    match plan_and_run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

fn plan_and_run(args: &SweepArgs) -> Result<i32, String> {
    let base = load_scene_with(&args.scene, &args.set).map_err(|e| e.to_string())?;
    let varies: Vec<(String, Vec<String>)> = args
        .vary
        .iter()
        .map(|v| parse_vary(v))
        .collect::<Result<_, _>>()?;
    let measures: Vec<Measure> = args
        .measure
        .iter()
        .map(|m| parse_measure(m))
        .collect::<Result<_, _>>()?;
    let seeds: Vec<u64> = match &args.seeds {
        Some(r) => {
            let (a, b) = parse_range(r).map_err(|e| format!("--seeds: {e}"))?;
            (a..b).collect()
        }
        None => vec![base.seed],
    };
    let (shard, shards) = match &args.shard {
        Some(s) => {
            let (k, n) = s
                .split_once('/')
                .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
                .filter(|&(k, n)| k >= 1 && k <= n)
                .ok_or_else(|| format!("--shard {s}: expected K/N with 1 ≤ K ≤ N"))?;
            (k - 1, n)
        }
        None => (0, 1),
    };
    let combos: usize = varies.iter().map(|v| v.1.len()).product::<usize>() * seeds.len();
    if combos > 1_000_000 {
        return Err(format!(
            "the sweep has {combos} runs; at most 1000000 are allowed"
        ));
    }
    // Every run's scene is made (and checked) before any runs.
    let mut runs = Vec::new();
    for index in (0..combos).filter(|i| i % shards == shard) {
        let mut rest = index / seeds.len();
        let seed = seeds[index % seeds.len()];
        let mut values = vec![String::new(); varies.len()];
        for (k, (_, vals)) in varies.iter().enumerate().rev() {
            values[k] = vals[rest % vals.len()].clone();
            rest /= vals.len();
        }
        let mut scene = base.clone();
        for ((key, _), v) in varies.iter().zip(&values) {
            scene
                .set(&format!("{key}={v}"), &args.scene)
                .map_err(|e| e.to_string())?;
        }
        scene.seed = seed;
        runs.push(Run {
            index,
            values,
            seed,
            scene,
        });
    }
    let jobs = args.jobs.map_or(0, |j| j as usize);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| e.to_string())?;
    let bar = indicatif::ProgressBar::new(runs.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} runs, ETA {eta}")
            .map_err(|e| e.to_string())?,
    );
    let results: Vec<Result<(Vec<f64>, u64), String>> = pool.install(|| {
        runs.par_iter()
            .map(|r| {
                let out = execute(r, args.steps, &measures);
                bar.inc(1);
                out
            })
            .collect()
    });
    bar.finish_and_clear();
    let jsonl = match &args.out {
        Some(p) => match p.extension().and_then(|e| e.to_str()) {
            Some("csv") => false,
            Some("jsonl") => true,
            _ => {
                return Err(format!(
                    "--out {}: the file must end in .csv or .jsonl",
                    p.display()
                ))
            }
        },
        None => false,
    };
    let mut text = String::new();
    if !jsonl {
        let mut header = vec!["run".to_string()];
        header.extend(varies.iter().map(|v| v.0.clone()));
        header.push("seed".into());
        header.extend(measures.iter().map(|m| m.text.clone()));
        header.push("hash".into());
        text += &(header
            .iter()
            .map(|h| csv_field(h))
            .collect::<Vec<_>>()
            .join(",")
            + "\n");
    }
    for (run, result) in runs.iter().zip(results) {
        let (values, hash) = result.map_err(|e| format!("run {}: {e}", run.index))?;
        if jsonl {
            let mut m = serde_json::Map::new();
            m.insert("run".into(), run.index.into());
            for ((key, _), v) in varies.iter().zip(&run.values) {
                let value =
                    ron::from_str::<serde_json::Value>(v).unwrap_or_else(|_| v.clone().into());
                m.insert(key.clone(), value);
            }
            m.insert("seed".into(), run.seed.into());
            for (meas, v) in measures.iter().zip(&values) {
                let n = serde_json::Number::from_f64(*v);
                m.insert(
                    meas.text.clone(),
                    n.map_or(serde_json::Value::Null, Into::into),
                );
            }
            m.insert("hash".into(), hex(hash).into());
            text += &(serde_json::Value::Object(m).to_string() + "\n");
        } else {
            let mut row = vec![run.index.to_string()];
            row.extend(run.values.iter().map(|v| csv_field(v)));
            row.push(run.seed.to_string());
            row.extend(values.iter().map(|v| {
                if v.is_finite() {
                    format!("{v}")
                } else {
                    String::new()
                }
            }));
            row.push(hex(hash));
            text += &(row.join(",") + "\n");
        }
    }
    match &args.out {
        Some(p) => std::fs::write(p, text).map_err(|e| format!("--out {}: {e}", p.display()))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    Ok(0)
}

/// A CSV field, quoted when it holds a comma or a quote.
fn csv_field(s: &str) -> String {
    if s.contains(',') || s.contains('"') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
