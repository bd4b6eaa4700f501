//! The settings panel (F2): gravity, substeps and sleep of the world, the
//! time scale, and the material of bodies spawned from now on.
//!
//! World settings change through `InputEvent::Tune` (recorded, so a replay
//! changes them at the same step); the time scale only paces the fixed-step
//! loop, and the material goes into each spawn's recorded body spec.

use super::theme;
use super::widgets::{Widgets, ROW_H, SLIDER_H};
use macroquad::prelude::*;
use minkowski::replay::Tuning;
use minkowski::scene::MAX_SUBSTEPS;
use minkowski::WorldSettings;

/// Largest gravity component the sliders reach (m/s²).
pub const MAX_GRAVITY: f32 = 30.0;
/// Most substeps the slider reaches (scenes may ask for up to `MAX_SUBSTEPS`).
pub const MAX_SLIDER_SUBSTEPS: u32 = 32;
/// Slowest and fastest time scale.
pub const TIME_SCALE_RANGE: (f32, f32) = (1.0 / 16.0, 4.0);

/// Material of the bodies the spawn and throw tools make.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewBody {
    /// Density (kg/m²).
    pub density: f32,
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
}

impl Default for NewBody {
    /// What a scene body gets when the file says nothing.
    fn default() -> Self {
        let spec = minkowski::scene::BodySpec::new(
            minkowski::scene::ShapeSpec::Circle { r: 1.0 },
            Vec2::ZERO,
        );
        NewBody {
            density: spec.density,
            friction: spec.friction,
            restitution: spec.restitution,
        }
    }
}

/// What the panel shows.
#[derive(Clone, Copy, Debug)]
pub struct Values {
    /// The world's settings now.
    pub world: WorldSettings,
    /// The time scale.
    pub time_scale: f32,
    /// The material of new bodies.
    pub new_body: NewBody,
    /// A replay is showing: the world settings are read-only.
    pub read_only: bool,
}

/// What the user changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// A world setting (recorded).
    Tune(Tuning),
    /// The time scale.
    TimeScale(f32),
    /// The material of new bodies.
    NewBody(NewBody),
    /// Back to the scene's own world settings.
    SceneValues,
}

/// The panel's rectangle: the top-right corner, under the panel buttons.
pub fn rect(screen: Vec2) -> Rect {
    let w = 300.0;
    Rect::new(screen.x - w - 8.0, 40.0, w, 530.0)
}

/// Rounds to a multiple of `step`.
fn snap(v: f32, step: f32) -> f32 {
    (v / step).round() * step
}

/// The time scale as the HUD writes it: x4, x1/16, x0.71.
pub fn scale_text(s: f32) -> String {
    let inv = 1.0 / s;
    if s >= 1.0 && (s - s.round()).abs() < 1e-4 {
        format!("x{:.0}", s)
    } else if (inv - inv.round()).abs() < 1e-3 {
        format!("x1/{:.0}", inv)
    } else {
        format!("x{s:.2}")
    }
}

/// Draws the panel and returns the changes made with the mouse.
pub fn draw(ui: &mut Widgets, screen: Vec2, v: &Values) -> Vec<Change> {
    let r = rect(screen);
    theme::panel(r.x, r.y, r.w, r.h);
    let mut out = Vec::new();
    let x = r.x + 12.0;
    let w = r.w - 24.0;
    let mut y = r.y + 8.0;
    theme::panel_header("Settings", "F2 closes", x, x + w, y);
    y += theme::LINE + 6.0;
    let heading = |y: &mut f32, s: &str| {
        theme::text(s, x, *y, theme::FONT_SMALL, theme::ACCENT);
        *y += theme::LINE + 2.0;
    };
    let row = |y: &mut f32, h: f32| {
        let rr = Rect::new(x, *y, w, h);
        *y += h + 2.0;
        rr
    };
    let live = !v.read_only;
    heading(
        &mut y,
        if live {
            "World (recorded with F5)"
        } else {
            "World (read-only in a replay)"
        },
    );
    let s = &v.world;
    let mut gx = s.gravity.x;
    let text = format!("{gx:.1} m/s²");
    if ui.slider(
        "gx",
        row(&mut y, SLIDER_H),
        "gravity x",
        &text,
        &mut gx,
        -MAX_GRAVITY,
        MAX_GRAVITY,
        live,
    ) {
        let g = Vec2::new(snap(gx, 0.1), s.gravity.y);
        out.push(Change::Tune(Tuning::Gravity(g)));
    }
    let mut gy = s.gravity.y;
    let text = format!("{gy:.1} m/s²");
    if ui.slider(
        "gy",
        row(&mut y, SLIDER_H),
        "gravity y",
        &text,
        &mut gy,
        -MAX_GRAVITY,
        MAX_GRAVITY,
        live,
    ) {
        let g = Vec2::new(s.gravity.x, snap(gy, 0.1));
        out.push(Change::Tune(Tuning::Gravity(g)));
    }
    let mut n = s.substeps as f32;
    let text = format!("{}", s.substeps);
    if ui.slider(
        "substeps",
        row(&mut y, SLIDER_H),
        "substeps per step",
        &text,
        &mut n,
        1.0,
        MAX_SLIDER_SUBSTEPS as f32,
        live,
    ) {
        let n = (n.round() as u32).clamp(1, MAX_SUBSTEPS);
        if n != s.substeps {
            out.push(Change::Tune(Tuning::Substeps(n)));
        }
    }
    let mut sleep = s.sleep;
    if ui.checkbox(row(&mut y, ROW_H), "sleep", &mut sleep, live) {
        out.push(Change::Tune(Tuning::Sleep(sleep)));
    }
    let mut sv = s.sleep_velocity;
    let text = format!("{sv:.2} m/s");
    if ui.slider(
        "sleep_v",
        row(&mut y, SLIDER_H),
        "sleep below",
        &text,
        &mut sv,
        0.0,
        0.5,
        live && s.sleep,
    ) {
        out.push(Change::Tune(Tuning::SleepThresholds {
            velocity: snap(sv, 0.01),
            time: s.time_to_sleep,
        }));
    }
    let mut st = s.time_to_sleep;
    let text = format!("{st:.2} s");
    if ui.slider(
        "sleep_t",
        row(&mut y, SLIDER_H),
        "for at least",
        &text,
        &mut st,
        0.0,
        3.0,
        live && s.sleep,
    ) {
        out.push(Change::Tune(Tuning::SleepThresholds {
            velocity: s.sleep_velocity,
            time: snap(st, 0.05),
        }));
    }
    y += 4.0;
    heading(&mut y, "View");
    let mut l = v.time_scale.log2();
    let (lo, hi) = TIME_SCALE_RANGE;
    if ui.slider(
        "scale",
        row(&mut y, SLIDER_H),
        "time scale ([ ])",
        &scale_text(v.time_scale),
        &mut l,
        lo.log2(),
        hi.log2(),
        true,
    ) {
        out.push(Change::TimeScale(snap(l, 0.25).exp2()));
    }
    y += 4.0;
    heading(&mut y, "New bodies (spawn and throw)");
    let mut m = v.new_body;
    let mut d = m.density.log10();
    let text = format!("{:.2} kg/m²", m.density);
    let mut changed = ui.slider(
        "density",
        row(&mut y, SLIDER_H),
        "density",
        &text,
        &mut d,
        -1.0,
        1.0,
        true,
    );
    if changed {
        m.density = 10f32.powf(snap(d, 0.05));
    }
    let text = format!("{:.2}", m.friction);
    if ui.slider(
        "friction",
        row(&mut y, SLIDER_H),
        "friction",
        &text,
        &mut m.friction,
        0.0,
        1.5,
        true,
    ) {
        m.friction = snap(m.friction, 0.05);
        changed = true;
    }
    let text = format!("{:.2}", m.restitution);
    if ui.slider(
        "restitution",
        row(&mut y, SLIDER_H),
        "restitution",
        &text,
        &mut m.restitution,
        0.0,
        1.0,
        true,
    ) {
        m.restitution = snap(m.restitution, 0.05);
        changed = true;
    }
    if changed {
        out.push(Change::NewBody(m));
    }
    y += 6.0;
    let bw = (w - 8.0) / 2.0;
    if live && ui.button(Rect::new(x, y, bw, ROW_H), "scene values", false) {
        out.push(Change::SceneValues);
    }
    if live && ui.button(Rect::new(x + bw + 8.0, y, bw, ROW_H), "zero gravity", false) {
        out.push(Change::Tune(Tuning::Gravity(Vec2::ZERO)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_scales_read_as_the_hud_wrote_them() {
        assert_eq!(scale_text(4.0), "x4");
        assert_eq!(scale_text(1.0), "x1");
        assert_eq!(scale_text(0.0625), "x1/16");
        assert_eq!(scale_text(0.5), "x1/2");
        assert_eq!(scale_text(2f32.powf(-0.5)), "x0.71");
    }

    #[test]
    fn new_bodies_default_to_the_scene_format_defaults() {
        let m = NewBody::default();
        assert_eq!((m.density, m.friction), (1.0, 0.6));
    }
}
