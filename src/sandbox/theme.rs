//! Colours and text helpers shared by every panel: one palette, so a colour
//! means the same thing everywhere (the HUD legend uses these too).

use macroquad::prelude::*;

/// Window background.
pub const BACKGROUND: Color = Color::new(0.075, 0.082, 0.102, 1.0);
/// Fine grid lines (1 m).
pub const GRID: Color = Color::new(1.0, 1.0, 1.0, 0.035);
/// Axis lines through the world origin.
pub const AXIS: Color = Color::new(1.0, 1.0, 1.0, 0.10);

/// Static bodies.
pub const STATIC: Color = Color::new(0.42, 0.45, 0.50, 1.0);
/// Kinematic bodies.
pub const KINEMATIC: Color = Color::new(0.66, 0.47, 0.93, 1.0);
/// Dynamic bodies that are awake.
pub const AWAKE: Color = Color::new(0.27, 0.68, 0.93, 1.0);
/// Dynamic bodies that are asleep.
pub const ASLEEP: Color = Color::new(0.25, 0.33, 0.45, 1.0);
/// Bodies frozen after a numerical failure.
pub const FROZEN: Color = Color::new(0.90, 0.25, 0.25, 1.0);
/// Bodies reported buried in a static or kinematic body.
pub const BURIED: Color = Color::new(1.0, 0.42, 0.12, 1.0);
/// Sensor zones, empty.
pub const SENSOR: Color = Color::new(0.35, 0.85, 0.55, 1.0);
/// Sensor zones with a shape inside.
pub const SENSOR_LIT: Color = Color::new(0.55, 1.0, 0.45, 1.0);
/// Selected bodies (inspector pair, dragged body).
pub const SELECTED: Color = Color::new(1.0, 0.80, 0.20, 1.0);

/// The event log's hovered event: its bodies' outlines.
pub const EVENT_FOCUS: Color = Color::new(1.0, 0.35, 0.85, 1.0);

/// Panels behind text.
pub const PANEL: Color = Color::new(0.04, 0.045, 0.06, 0.86);
/// Panel borders.
pub const PANEL_BORDER: Color = Color::new(1.0, 1.0, 1.0, 0.12);
/// Normal text.
pub const TEXT: Color = Color::new(0.90, 0.92, 0.95, 1.0);
/// Secondary text.
pub const TEXT_DIM: Color = Color::new(0.60, 0.64, 0.70, 1.0);
/// Accent (active tool, headings).
pub const ACCENT: Color = Color::new(1.0, 0.80, 0.20, 1.0);
/// Errors and the recording dot.
pub const ERROR: Color = Color::new(1.0, 0.36, 0.36, 1.0);
/// Good news (saved, reloaded).
pub const OK: Color = Color::new(0.45, 0.85, 0.50, 1.0);

/// Overlay: fat AABBs.
pub const OV_AABB: Color = Color::new(0.35, 0.90, 0.55, 0.55);
/// Overlay: broadphase pairs.
pub const OV_PAIR: Color = Color::new(0.95, 0.55, 0.95, 0.55);
/// Overlay: contact points.
pub const OV_CONTACT: Color = Color::new(1.0, 0.30, 0.25, 1.0);
/// Overlay: contact normals.
pub const OV_NORMAL: Color = Color::new(1.0, 0.85, 0.30, 1.0);
/// Overlay: penetration vectors.
pub const OV_PENETRATION: Color = Color::new(1.0, 0.45, 0.10, 1.0);
/// Overlay: velocity vectors.
pub const OV_VELOCITY: Color = Color::new(0.40, 1.0, 0.85, 0.95);
/// Overlay: centres of mass.
pub const OV_COM: Color = Color::new(1.0, 1.0, 1.0, 0.95);
/// Overlay: sleep state.
pub const OV_SLEEP: Color = Color::new(0.55, 0.70, 1.0, 0.95);

/// Inspector: the Minkowski difference of the cores.
pub const MD_FILL: Color = Color::new(0.27, 0.68, 0.93, 0.16);
/// Inspector: its outline.
pub const MD_EDGE: Color = Color::new(0.27, 0.68, 0.93, 0.9);
/// Inspector: the rounded (full) difference.
pub const MD_ROUNDED: Color = Color::new(0.27, 0.68, 0.93, 0.35);
/// Inspector: GJK simplex.
pub const GJK: Color = Color::new(1.0, 0.80, 0.20, 1.0);
/// Inspector: EPA polytope.
pub const EPA: Color = Color::new(0.95, 0.45, 0.35, 1.0);
/// Inspector: support points and search directions.
pub const SUPPORT: Color = Color::new(0.45, 0.95, 0.55, 1.0);

/// Body text size in pixels.
pub const FONT: f32 = 18.0;
/// Small text size in pixels.
pub const FONT_SMALL: f32 = 16.0;
/// Line height for [`FONT`].
pub const LINE: f32 = 20.0;

/// Same colour with a different alpha.
pub fn with_alpha(c: Color, a: f32) -> Color {
    Color::new(c.r, c.g, c.b, a)
}

/// Lighter (t > 0) or darker (t < 0) shade.
pub fn shade(c: Color, t: f32) -> Color {
    let f = |x: f32| {
        if t >= 0.0 {
            x + (1.0 - x) * t
        } else {
            x * (1.0 + t)
        }
    };
    Color::new(f(c.r), f(c.g), f(c.b), c.a)
}

/// Draws text with its top-left corner at (x, y) and returns its width.
pub fn text(s: &str, x: f32, y: f32, size: f32, color: Color) -> f32 {
    // macroquad's y is the baseline; shift by the ascent so callers think in boxes.
    let dims = draw_text(s, x.round(), (y + size * 0.75).round(), size, color);
    dims.width
}

/// Width of `s` at `size`.
pub fn text_width(s: &str, size: f32) -> f32 {
    measure_text(s, None, size as u16, 1.0).width
}

/// A translucent panel with a thin border.
pub fn panel(x: f32, y: f32, w: f32, h: f32) {
    draw_rectangle(x, y, w, h, PANEL);
    draw_rectangle_lines(x, y, w, h, 1.0, PANEL_BORDER);
}

/// A panel's title at `(x, y)` and, right-aligned to `right`, a dim hint.
pub fn panel_header(title: &str, hint: &str, x: f32, right: f32, y: f32) {
    text(title, x, y, FONT, ACCENT);
    let hw = text_width(hint, FONT_SMALL);
    text(hint, right - hw, y + 2.0, FONT_SMALL, TEXT_DIM);
}

/// A line segment with an arrow head at `to` (screen pixels).
pub fn arrow(from: Vec2, to: Vec2, thickness: f32, color: Color) {
    let d = to - from;
    let len = d.length();
    if len < 0.5 {
        return;
    }
    let dir = d / len;
    let head = (4.0 + 3.0 * thickness).min(len * 0.6);
    let base = to - dir * head;
    draw_line(from.x, from.y, base.x, base.y, thickness, color);
    let side = dir.perp() * head * 0.5;
    draw_triangle(to, base + side, base - side, color);
}

/// A dashed line (screen pixels).
pub fn dashed(from: Vec2, to: Vec2, dash: f32, thickness: f32, color: Color) {
    let d = to - from;
    let len = d.length();
    if len < 0.5 {
        return;
    }
    let dir = d / len;
    let mut t = 0.0;
    while t < len {
        let a = from + dir * t;
        let b = from + dir * (t + dash).min(len);
        draw_line(a.x, a.y, b.x, b.y, thickness, color);
        t += dash * 2.0;
    }
}

/// Splits `s` into lines no wider than `max_w` pixels at `size`, breaking at
/// spaces where possible.
pub fn wrap(s: &str, size: f32, max_w: f32) -> Vec<String> {
    let mut out = Vec::new();
    for para in s.lines() {
        let mut line = String::new();
        for word in para.split(' ') {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if text_width(&candidate, size) <= max_w || line.is_empty() {
                line = candidate;
            } else {
                out.push(std::mem::take(&mut line));
                line = word.to_string();
            }
        }
        out.push(line);
    }
    out
}
