//! The live plots (F3): kinetic, potential and total energy, linear
//! momentum, contact points and step time over the last [`WINDOW`] seconds
//! of simulated time, one sample per step. The numbers are
//! `minkowski::measure`'s, the columns of `minkowski run --trace`.

use super::theme;
use macroquad::prelude::*;
use minkowski::measure::{world_columns, WORLD_COLUMNS};
use minkowski::World;
use std::collections::VecDeque;

/// Simulated seconds shown.
pub const WINDOW: f64 = 10.0;
/// Most samples kept, whatever the time step.
const MAX_SAMPLES: usize = 8192;

/// One step's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Step index.
    pub step: u64,
    /// Simulated time (s).
    pub time: f64,
    /// Kinetic energy (J).
    pub kinetic: f64,
    /// Potential energy (J).
    pub potential: f64,
    /// Their sum (J).
    pub total: f64,
    /// Linear momentum (kg·m/s).
    pub px: f64,
    /// Linear momentum (kg·m/s).
    pub py: f64,
    /// Contact points.
    pub contacts: f64,
    /// Wall-clock time of the step (ms).
    pub step_ms: f64,
}

fn column(name: &str) -> usize {
    WORLD_COLUMNS
        .iter()
        .position(|c| *c == name)
        .unwrap_or_else(|| panic!("no trace column {name}"))
}

/// The samples of the last [`WINDOW`] seconds.
#[derive(Default)]
pub struct History {
    samples: VecDeque<Sample>,
}

impl History {
    /// Samples the world after a step.
    pub fn push(&mut self, world: &World) {
        let c = world_columns(world);
        let s = Sample {
            step: world.step_index(),
            time: c[column("time")],
            kinetic: c[column("kinetic")],
            potential: c[column("potential")],
            total: c[column("total")],
            px: c[column("momentum_x")],
            py: c[column("momentum_y")],
            contacts: c[column("contacts")],
            step_ms: world.timings().total,
        };
        // A step back in time (rewind) drops the samples after it.
        self.rewind_to(s.step.saturating_sub(1));
        self.samples.push_back(s);
        while self
            .samples
            .front()
            .is_some_and(|f| s.time - f.time > WINDOW)
            || self.samples.len() > MAX_SAMPLES
        {
            self.samples.pop_front();
        }
    }

    /// Forgets everything (new world).
    pub fn clear(&mut self) {
        self.samples.clear();
    }

    /// Drops the samples after step `step` (rewound there).
    pub fn rewind_to(&mut self, step: u64) {
        while self.samples.back().is_some_and(|s| s.step > step) {
            self.samples.pop_back();
        }
    }

    /// The samples, oldest first.
    pub fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter()
    }

    /// Number of samples.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.samples.len()
    }
}

/// Height of the panel.
pub const PANEL_H: f32 = 440.0;

/// The panel's rectangle: under the HUD, on the left.
pub fn rect(screen: Vec2, top: f32) -> Rect {
    let h = PANEL_H.min(screen.y - top - super::tools::TOOLBAR_H - 8.0);
    Rect::new(8.0, top, 330.0, h.max(120.0))
}

type Series<'a> = (&'a str, Color, fn(&Sample) -> f64);

/// Draws the panel. `wall_clock` off hides the step time (capture mode).
pub fn draw(history: &History, r: Rect, wall_clock: bool) {
    theme::panel(r.x, r.y, r.w, r.h);
    let x = r.x + 10.0;
    let w = r.w - 20.0;
    let mut y = r.y + 8.0;
    theme::panel_header("Plots", "last 10 s simulated · F3 closes", x, x + w, y);
    y += theme::LINE + 4.0;
    let charts: [(&str, Vec<Series>); 4] = [
        (
            "energy (J)",
            vec![
                ("kinetic", Color::new(0.35, 0.75, 1.0, 1.0), |s| s.kinetic),
                ("potential", Color::new(1.0, 0.62, 0.25, 1.0), |s| {
                    s.potential
                }),
                ("total", theme::TEXT, |s| s.total),
            ],
        ),
        (
            "momentum (kg·m/s)",
            vec![
                ("x", Color::new(0.95, 0.45, 0.55, 1.0), |s| s.px),
                ("y", Color::new(0.45, 0.9, 0.55, 1.0), |s| s.py),
            ],
        ),
        (
            "contact points",
            vec![("", Color::new(1.0, 0.85, 0.3, 1.0), |s| s.contacts)],
        ),
        (
            "step time (ms, wall clock)",
            vec![("", Color::new(0.8, 0.6, 1.0, 1.0), |s| s.step_ms)],
        ),
    ];
    let chart_h = ((r.y + r.h - y - 8.0) / charts.len() as f32).max(40.0);
    for (i, (title, series)) in charts.iter().enumerate() {
        let area = Rect::new(x, y, w, chart_h - 6.0);
        if i == 3 && !wall_clock {
            theme::text(title, area.x, area.y, theme::FONT_SMALL, theme::TEXT_DIM);
            theme::text(
                "-- (hidden in capture mode)",
                area.x,
                area.y + theme::LINE,
                theme::FONT_SMALL,
                theme::TEXT_DIM,
            );
        } else {
            chart(history, area, title, series);
        }
        y += chart_h;
    }
}

/// A number in at most 7 characters.
fn short(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-2..1e5).contains(&a) {
        format!("{v:.1e}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn chart(history: &History, r: Rect, title: &str, series: &[Series]) {
    // Title, then the latest values.
    let last = history.samples.back();
    theme::text(title, r.x, r.y, theme::FONT_SMALL, theme::TEXT_DIM);
    let mut tx = r.x;
    for (name, color, f) in series {
        let v = last.map_or(String::from("--"), |s| short(f(s)));
        let label = if name.is_empty() {
            v
        } else {
            format!("{name} {v}")
        };
        tx += theme::text(&label, tx, r.y + 17.0, theme::FONT_SMALL, *color) + 12.0;
    }
    let plot = Rect::new(r.x, r.y + 36.0, r.w - 52.0, r.h - 38.0);
    draw_rectangle(
        plot.x,
        plot.y,
        plot.w,
        plot.h,
        Color::new(1.0, 1.0, 1.0, 0.03),
    );
    let Some(last) = last else {
        return;
    };
    let t1 = last.time.max(WINDOW);
    let t0 = t1 - WINDOW;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for s in history.samples() {
        for (_, _, f) in series {
            let v = f(s);
            if v.is_finite() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    if !lo.is_finite() {
        return;
    }
    if hi - lo < 1e-9 * hi.abs().max(1.0) {
        let pad = hi.abs().max(1.0) * 0.5;
        lo -= pad;
        hi += pad;
    } else {
        let pad = (hi - lo) * 0.06;
        lo -= pad;
        hi += pad;
    }
    if lo < 0.0 && hi > 0.0 {
        let zy = plot.y + plot.h * (hi / (hi - lo)) as f32;
        draw_line(plot.x, zy, plot.x + plot.w, zy, 1.0, theme::PANEL_BORDER);
    }
    let ax = plot.x + plot.w + 4.0;
    theme::text(&short(hi), ax, plot.y - 2.0, 14.0, theme::TEXT_DIM);
    theme::text(
        &short(lo),
        ax,
        plot.y + plot.h - 14.0,
        14.0,
        theme::TEXT_DIM,
    );
    let to_screen = |t: f64, v: f64| {
        Vec2::new(
            plot.x + ((t - t0) / WINDOW) as f32 * plot.w,
            plot.y + ((hi - v) / (hi - lo)) as f32 * plot.h,
        )
    };
    // One point per pixel column (the mean of its samples), so long
    // histories draw as fast as short ones.
    for (_, color, f) in series {
        let mut prev: Option<Vec2> = None;
        let mut col: Option<(i32, f64, f64, f64)> = None; // column, sum, count, time
        let flush = |c: (i32, f64, f64, f64), prev: &mut Option<Vec2>| {
            let p = to_screen(c.3, c.1 / c.2);
            if let Some(q) = *prev {
                draw_line(q.x, q.y, p.x, p.y, 1.5, *color);
            }
            *prev = Some(p);
        };
        for s in history.samples() {
            let v = f(s);
            if !v.is_finite() {
                continue;
            }
            let px = to_screen(s.time, v).x as i32;
            match col {
                Some((c, sum, n, _)) if c == px => col = Some((c, sum + v, n + 1.0, s.time)),
                Some(c) => {
                    flush(c, &mut prev);
                    col = Some((px, v, 1.0, s.time));
                }
                None => col = Some((px, v, 1.0, s.time)),
            }
        }
        if let Some(c) = col {
            flush(c, &mut prev);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_ten_simulated_seconds_and_follows_a_rewind() {
        let scene = minkowski::scene::Scene::builtin("bounce").unwrap();
        let mut w = scene.build().unwrap();
        let mut h = History::default();
        for _ in 0..900 {
            w.step();
            h.push(&w);
        }
        // 60 Hz: 10 s are 600 steps (601 samples when the f32 time step
        // rounds the boundary down).
        let first = *h.samples().next().unwrap();
        let last = *h.samples().last().unwrap();
        assert_eq!(last.step, 900);
        assert!((300..=301).contains(&first.step), "{}", first.step);
        assert_eq!(h.len() as u64, last.step - first.step + 1);
        assert!(last.time - first.time <= WINDOW);
        // The same numbers as the trace's columns.
        let c = world_columns(&w);
        assert_eq!(last.total, c[column("total")]);
        assert_eq!(last.contacts, w.contact_point_count() as f64);
        h.rewind_to(850);
        assert_eq!(h.samples().last().unwrap().step, 850);
    }
}
