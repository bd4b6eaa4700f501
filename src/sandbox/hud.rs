//! The heads-up display: scene and run state, FPS, body/pair/contact counts,
//! and the step time split by stage, plus a colour legend and toasts.

use super::theme;
use macroquad::prelude::*;
use minkowski::world::StepTimings;
use minkowski::{BodyKind, World};

/// Smoothed frame and step statistics (exponential moving averages), so the
/// numbers can be read rather than flicker.
#[derive(Default)]
pub struct Stats {
    fps: f32,
    t: StepTimings,
    primed: bool,
}

impl Stats {
    /// Feeds one frame's duration (s).
    pub fn frame(&mut self, dt: f32) {
        if dt > 0.0 {
            let fps = 1.0 / dt;
            self.fps = if self.fps == 0.0 {
                fps
            } else {
                self.fps * 0.95 + fps * 0.05
            };
        }
    }

    /// The smoothed step time (ms); 0 before the first step.
    #[cfg(test)]
    pub fn step_ms(&self) -> f64 {
        self.t.total
    }

    /// Feeds one step's timings.
    pub fn step(&mut self, t: &StepTimings) {
        if !self.primed {
            self.t = *t;
            self.primed = true;
            return;
        }
        let k = 0.05;
        let mix = |a: &mut f64, b: f64| *a = *a * (1.0 - k) + b * k;
        mix(&mut self.t.update_aabbs, t.update_aabbs);
        mix(&mut self.t.broadphase, t.broadphase);
        mix(&mut self.t.narrowphase, t.narrowphase);
        mix(&mut self.t.solver, t.solver);
        mix(&mut self.t.sleep, t.sleep);
        mix(&mut self.t.total, t.total);
    }
}

/// What the HUD shows besides the world's own numbers.
pub struct HudInfo<'a> {
    /// Scene name.
    pub scene: &'a str,
    /// Run-state line, e.g. "running  x1" or "PAUSED".
    pub state: String,
    /// Recording / replay badge.
    pub badge: Option<(String, Color)>,
    /// Hide wall-clock numbers (screenshot mode: they would differ run to run).
    pub deterministic: bool,
    /// Active tool's hint.
    pub tool_hint: &'a str,
    /// Bodies the kill plane removed so far.
    pub removed: usize,
}

/// The HUD's height (it does not change from frame to frame); the
/// step-time bar is left out in capture mode.
pub fn height(deterministic: bool) -> f32 {
    let timing_h = if deterministic {
        theme::LINE
    } else {
        2.0 * theme::LINE + 20.0
    };
    9.0 * theme::LINE + timing_h + 16.0
}

/// Draws the HUD panel in the top-left corner.
pub fn draw(world: &World, stats: &Stats, info: &HudInfo) {
    let (x, y) = (8.0, 8.0);
    let w = 330.0;
    let h = height(info.deterministic);
    theme::panel(x, y, w, h);
    let mut ly = y + 8.0;
    let px = x + 10.0;
    let line = |ly: &mut f32, s: &str, c: Color| {
        theme::text(s, px, *ly, theme::FONT, c);
        *ly += theme::LINE;
    };
    let help = "H: help";
    theme::text(
        help,
        x + w - 10.0 - theme::text_width(help, theme::FONT_SMALL),
        ly + 2.0,
        theme::FONT_SMALL,
        theme::TEXT_DIM,
    );
    // A long name (a replay's path) is cut from the left to leave room for
    // the help hint.
    let room = w - 30.0 - theme::text_width(help, theme::FONT_SMALL);
    let mut title = info.scene.to_string();
    if theme::text_width(&title, theme::FONT) > room {
        let chars: Vec<char> = info.scene.chars().collect();
        let mut start = 0;
        while start < chars.len() {
            let t: String = "..."
                .chars()
                .chain(chars[start..].iter().copied())
                .collect();
            if theme::text_width(&t, theme::FONT) <= room {
                title = t;
                break;
            }
            start += 1;
        }
    }
    line(&mut ly, &title, theme::ACCENT);
    theme::text(&info.state, px, ly, theme::FONT, theme::TEXT);
    if let Some((badge, c)) = &info.badge {
        let bx = px + theme::text_width(&info.state, theme::FONT) + 14.0;
        draw_circle(bx + 5.0, ly + 8.0, 5.0, *c);
        theme::text(badge, bx + 14.0, ly, theme::FONT, *c);
    }
    ly += theme::LINE;
    let secs = world.step_index() as f32 * world.settings().dt;
    line(
        &mut ly,
        &format!("step {}   t = {:.2} s", world.step_index(), secs),
        theme::TEXT_DIM,
    );
    let fps = if info.deterministic {
        "FPS  --  (fixed steps per frame)".to_string()
    } else {
        format!("FPS  {:.0}", stats.fps)
    };
    line(&mut ly, &fps, theme::TEXT);
    let total = world.body_count();
    let statics = world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Static)
        .count();
    let awake = world.awake_count();
    let asleep = total - statics - awake;
    let buried = world.bodies().filter(|(_, b)| b.is_buried()).count();
    if buried > 0 {
        // Buried bodies are drawn in the same colour as this line.
        line(
            &mut ly,
            &format!("bodies {total}: {awake} awake, {asleep} asleep, {buried} buried"),
            theme::BURIED,
        );
    } else {
        line(
            &mut ly,
            &format!("bodies {total}: {awake} awake, {asleep} asleep, {statics} static"),
            theme::TEXT,
        );
    }
    line(
        &mut ly,
        &format!(
            "pairs {}   contacts {}",
            world.pair_count(),
            world.contact_point_count()
        ),
        theme::TEXT,
    );
    let (text, c) = if info.removed > 0 {
        (
            format!("fell out of the scene: {} removed", info.removed),
            theme::ACCENT,
        )
    } else {
        ("fell out of the scene: none".to_string(), theme::TEXT_DIM)
    };
    line(&mut ly, &text, c);
    // Step time by stage, as numbers and as a stacked bar.
    let t = &stats.t;
    let other = (t.total - t.broadphase - t.narrowphase - t.solver).max(0.0);
    let stages = [
        ("broad", t.broadphase, Color::new(0.95, 0.55, 0.95, 1.0)),
        ("narrow", t.narrowphase, Color::new(1.0, 0.75, 0.25, 1.0)),
        ("solver", t.solver, Color::new(0.35, 0.75, 1.0, 1.0)),
        ("other", other, Color::new(0.55, 0.58, 0.62, 1.0)),
    ];
    if info.deterministic {
        line(
            &mut ly,
            "step time  --  (hidden in capture)",
            theme::TEXT_DIM,
        );
    } else {
        line(
            &mut ly,
            &format!("step time  {:.3} ms", t.total),
            theme::TEXT,
        );
        let bar_w = w - 20.0;
        let mut bx = px;
        let scale = if t.total > 0.0 {
            bar_w as f64 / t.total
        } else {
            0.0
        };
        for (_, ms, c) in stages {
            let seg = (ms * scale) as f32;
            draw_rectangle(bx, ly + 2.0, seg, 10.0, c);
            bx += seg;
        }
        ly += 16.0;
        let mut sx = px;
        for (name, ms, c) in stages {
            draw_rectangle(sx, ly + 5.0, 8.0, 8.0, c);
            let s = format!("{name} {ms:.2}");
            sx += 12.0 + theme::text(&s, sx + 12.0, ly, theme::FONT_SMALL, theme::TEXT_DIM) + 10.0;
        }
        ly += theme::LINE + 4.0;
    }
    // Colour legend.
    let legend = [
        ("static", theme::STATIC),
        ("kinematic", theme::KINEMATIC),
        ("awake", theme::AWAKE),
        ("asleep", theme::ASLEEP),
        ("selected", theme::SELECTED),
    ];
    let mut sx = px;
    for (name, c) in legend {
        draw_rectangle(sx, ly + 4.0, 9.0, 9.0, c);
        sx += 13.0 + theme::text(name, sx + 13.0, ly, theme::FONT_SMALL, theme::TEXT_DIM) + 8.0;
    }
    ly += theme::LINE;
    theme::text(info.tool_hint, px, ly, theme::FONT_SMALL, theme::TEXT_DIM);
}

/// A short message that fades out.
pub struct Toast {
    /// Text.
    pub text: String,
    /// Colour.
    pub color: Color,
    /// Time (s) it disappears.
    pub until: f64,
}

/// Draws the toasts stacked above the toolbar, centred.
pub fn draw_toasts(toasts: &[Toast], now: f64, screen: Vec2) {
    let mut y = screen.y - super::tools::TOOLBAR_H - 12.0;
    for t in toasts.iter().rev() {
        let alpha = ((t.until - now) as f32 * 2.0).clamp(0.0, 1.0);
        let w = theme::text_width(&t.text, theme::FONT) + 24.0;
        y -= 30.0;
        let x = (screen.x - w) * 0.5;
        draw_rectangle(x, y, w, 26.0, theme::with_alpha(theme::PANEL, 0.9 * alpha));
        draw_rectangle_lines(x, y, w, 26.0, 1.0, theme::with_alpha(t.color, alpha));
        theme::text(
            &t.text,
            x + 12.0,
            y + 4.0,
            theme::FONT,
            theme::with_alpha(t.color, alpha),
        );
    }
}

/// Draws a persistent error banner (invalid scene edit) at the top centre.
pub fn draw_error(msg: &str, screen: Vec2) {
    let x = 350.0f32.min(screen.x * 0.3);
    let max_w = screen.x - x - 8.0 - 24.0;
    let lines: Vec<String> = theme::wrap(msg, theme::FONT, max_w)
        .into_iter()
        .take(6)
        .collect();
    let title = "scene error - still showing the last good version";
    let w = lines
        .iter()
        .map(|l| theme::text_width(l, theme::FONT))
        .fold(theme::text_width(title, theme::FONT), f32::max)
        .min(max_w)
        + 24.0;
    let h = (lines.len() + 1) as f32 * theme::LINE + 12.0;
    let y = 8.0;
    draw_rectangle(x, y, w, h, Color::new(0.25, 0.04, 0.05, 0.94));
    draw_rectangle_lines(x, y, w, h, 1.5, theme::ERROR);
    theme::text(title, x + 12.0, y + 6.0, theme::FONT, theme::ERROR);
    for (i, l) in lines.iter().enumerate() {
        theme::text(
            l,
            x + 12.0,
            y + 6.0 + (i + 1) as f32 * theme::LINE,
            theme::FONT,
            theme::TEXT,
        );
    }
}
