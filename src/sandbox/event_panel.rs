//! Drawing the event log (F6): the panel on the right with its per-type
//! toggles and counts and the newest events first, and, in the world, the
//! bodies, contact point and normal of the event under the mouse.
//! The bookkeeping is `event_log.rs`'s.

use super::camera::Camera;
use super::draw;
use super::event_log::{self, EventLog, Kind, Line, Names};
use super::theme;
use super::widgets::Widgets;
use macroquad::prelude::*;
use minkowski::world::WorldEvent;
use minkowski::World;

/// Width of the panel (pixels).
pub const WIDTH: f32 = 540.0;
/// Narrowest the panel gets beside another one (pixels).
const MIN_WIDTH: f32 = 300.0;
/// Height of a list row (pixels).
const ROW: f32 = 18.0;
/// Rows the mouse wheel scrolls per notch.
pub const WHEEL_ROWS: usize = 3;
/// What the panel says about the cost of contact events.
pub const NOTE: &str = "Contact begin, end and hit events are on while this panel is open \
     (they cost time); closing it restores the previous setting.";

/// The panel's rectangle: under the panel buttons, its right edge at
/// `right` (the screen's edge, or the left of the settings panel or the
/// inspector), down to the toolbar.
/// In a window too narrow for both, it goes to the screen's edge, over the
/// other panel.
pub fn rect(screen: Vec2, right: f32) -> Rect {
    let top = 40.0;
    let bottom = screen.y - super::tools::TOOLBAR_H - 8.0;
    let right = if right - 16.0 < MIN_WIDTH {
        screen.x - 8.0
    } else {
        right
    };
    let w = WIDTH.min(right - 8.0);
    let x = (right - w).max(8.0);
    Rect::new(x, top, w, (bottom - top).max(160.0))
}

/// The colour of a type: the overlays' and bodies' colours where they mean
/// the same thing.
pub fn kind_color(k: Kind) -> Color {
    match k {
        Kind::ContactBegin => theme::OV_CONTACT,
        Kind::ContactEnd => theme::TEXT_DIM,
        Kind::Hit => theme::ACCENT,
        Kind::SensorBegin => theme::SENSOR_LIT,
        Kind::SensorEnd => theme::SENSOR,
        Kind::JointBroken => theme::ERROR,
        Kind::BodyFrozen => theme::FROZEN,
        Kind::BodyBuried => theme::BURIED,
    }
}

/// A count in a few characters: 987, 12345, 123k, 4.5M.
fn compact(n: u64) -> String {
    match n {
        0..=99_999 => n.to_string(),
        100_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// `s` cut to fit `w` pixels at the small size, with `..` where cut.
fn fit(s: &str, w: f32) -> String {
    if theme::text_width(s, theme::FONT_SMALL) <= w {
        return s.to_string();
    }
    let mut t: String = s.to_string();
    while !t.is_empty() && theme::text_width(&format!("{t}.."), theme::FONT_SMALL) > w {
        t.pop();
    }
    format!("{t}..")
}

/// What the panel is given besides the log.
pub struct View<'a> {
    /// Body names.
    pub names: &'a Names,
    /// The mouse (`None` in capture mode).
    pub mouse: Option<Vec2>,
    /// Row to show as hovered whatever the mouse does (`--hover-event`).
    pub hover_row: Option<usize>,
    /// Whether the world reports contact events now.
    pub contact_events: bool,
}

/// Height and gap of the type toggles (pixels).
const CHIP_H: f32 = 24.0;
const CHIP_GAP: f32 = 6.0;

/// Where the list's first row is (y, pixels) and how many rows fit.
fn list_area(r: Rect) -> (f32, usize) {
    let notes = theme::wrap(NOTE, theme::FONT_SMALL, r.w - 20.0).len() as f32;
    let top = r.y + 8.0 + theme::LINE + 4.0 + notes * ROW + 6.0 // title, note
        + 2.0 * (CHIP_H + CHIP_GAP) + 2.0 // toggles
        + ROW + 2.0 + ROW + 3.0; // status, column heads
    let rows = ((r.y + r.h - 8.0 - top) / ROW).floor().max(0.0) as usize;
    (top, rows)
}

/// The list's row under the mouse (or `view.hover_row`), counted from the
/// top row shown, and its event (none for a rewind mark).
pub fn hovered(r: Rect, log: &EventLog, view: &View, scroll: usize) -> Option<(usize, WorldEvent)> {
    let (top, rows) = list_area(r);
    let i = match view.hover_row {
        Some(i) => i,
        None => {
            let m = view.mouse.filter(|m| r.contains(*m) && m.y >= top)?;
            ((m.y - top) / ROW) as usize
        }
    };
    if i >= rows {
        return None;
    }
    match log.visible().nth(scroll + i)? {
        Line::Event(e) => Some((i, e.clone())),
        Line::Jump { .. } => None,
    }
}

/// Draws the panel, the row `hot` (from [`hovered`]) lit; `scroll` (rows
/// from the newest) is clamped to the list.
pub fn draw(
    ui: &mut Widgets,
    r: Rect,
    log: &EventLog,
    view: &View,
    scroll: &mut usize,
    hot: Option<usize>,
) -> Vec<Kind> {
    let mut toggled = Vec::new();
    theme::panel(r.x, r.y, r.w, r.h);
    let x = r.x + 10.0;
    let w = r.w - 20.0;
    let mut y = r.y + 8.0;
    theme::panel_header("Events", "newest first · F6 closes", x, x + w, y);
    y += theme::LINE + 4.0;
    let note_c = if view.contact_events {
        theme::TEXT_DIM
    } else {
        theme::ERROR
    };
    for line in theme::wrap(NOTE, theme::FONT_SMALL, w) {
        theme::text(&line, x, y, theme::FONT_SMALL, note_c);
        y += ROW;
    }
    y += 6.0;
    // The toggles: four to a row, each with its type's colour and count.
    let (cols, gap, chip_h) = (4usize, CHIP_GAP, CHIP_H);
    let chip_w = (w - gap * (cols as f32 - 1.0)) / cols as f32;
    for (i, k) in Kind::ALL.into_iter().enumerate() {
        let cx = x + (i % cols) as f32 * (chip_w + gap);
        let cy = y + (i / cols) as f32 * (chip_h + gap);
        let cr = Rect::new(cx, cy, chip_w, chip_h);
        let on = log.is_shown(k);
        if ui.button(cr, "", on) {
            toggled.push(k);
        }
        let c = if on {
            kind_color(k)
        } else {
            theme::with_alpha(kind_color(k), 0.35)
        };
        draw_rectangle(cx + 6.0, cy + 8.0, 8.0, 8.0, c);
        // Contact types are not reported with contact events off.
        let count = if k.needs_contact_events() && !view.contact_events {
            "off".to_string()
        } else {
            compact(log.count(k))
        };
        let cw = theme::text_width(&count, theme::FONT_SMALL);
        let tc = if on { theme::TEXT } else { theme::TEXT_DIM };
        let label = fit(k.label(), chip_w - cw - 30.0);
        theme::text(&label, cx + 18.0, cy + 3.0, theme::FONT_SMALL, tc);
        theme::text(
            &count,
            cx + chip_w - 6.0 - cw,
            cy + 3.0,
            theme::FONT_SMALL,
            theme::TEXT_DIM,
        );
    }
    y += 2.0 * (chip_h + gap) + 2.0;
    let shown = log.visible().count();
    let (top, rows) = list_area(r);
    *scroll = (*scroll).min(shown.saturating_sub(rows));
    let status = if *scroll > 0 {
        format!(
            "rows {}-{} of {shown} shown · wheel scrolls",
            *scroll + 1,
            (*scroll + rows).min(shown)
        )
    } else {
        format!(
            "{} seen · {} kept (at most {}) · {shown} shown",
            log.total(),
            log.len(),
            event_log::CAPACITY
        )
    };
    theme::text(&fit(&status, w), x, y, theme::FONT_SMALL, theme::TEXT_DIM);
    y += ROW + 2.0;
    // Columns: step (right-aligned), type, bodies, value.
    let (c_step, c_kind, c_bodies) = (52.0, 60.0, 150.0);
    let c_value = c_bodies + (w - c_bodies) * 0.47;
    let head = theme::with_alpha(theme::TEXT_DIM, 0.8);
    let sw = theme::text_width("step", theme::FONT_SMALL);
    theme::text("step", x + c_step - sw, y, theme::FONT_SMALL, head);
    theme::text("type", x + c_kind, y, theme::FONT_SMALL, head);
    theme::text("bodies", x + c_bodies, y, theme::FONT_SMALL, head);
    theme::text("value", x + c_value, y, theme::FONT_SMALL, head);
    y += ROW;
    draw_line(x, y, x + w, y, 1.0, theme::PANEL_BORDER);
    y += 3.0;
    debug_assert!((y - top).abs() < 0.01, "list_area is out of step with draw");
    if shown == 0 {
        let msg = if log.total() == 0 {
            "no events yet"
        } else {
            "every event seen is of a hidden type"
        };
        theme::text(msg, x, y, theme::FONT_SMALL, theme::TEXT_DIM);
    }
    for (i, line) in log.visible().skip(*scroll).take(rows).enumerate() {
        let row_r = Rect::new(x - 4.0, y, w + 8.0, ROW);
        match line {
            Line::Event(e) => {
                if hot == Some(i) {
                    draw_rectangle(
                        row_r.x,
                        row_r.y,
                        row_r.w,
                        row_r.h,
                        theme::with_alpha(theme::EVENT_FOCUS, 0.22),
                    );
                }
                let rw = event_log::row(e, view.names);
                let s = theme::text_width(&rw.step, theme::FONT_SMALL);
                theme::text(
                    &rw.step,
                    x + c_step - s,
                    y,
                    theme::FONT_SMALL,
                    theme::TEXT_DIM,
                );
                let kc = kind_color(Kind::of(e));
                theme::text(rw.kind, x + c_kind, y, theme::FONT_SMALL, kc);
                let bw = c_value - c_bodies - 8.0;
                theme::text(
                    &fit(&rw.bodies, bw),
                    x + c_bodies,
                    y,
                    theme::FONT_SMALL,
                    theme::TEXT,
                );
                theme::text(
                    &fit(&rw.value, w - c_value),
                    x + c_value,
                    y,
                    theme::FONT_SMALL,
                    theme::TEXT,
                );
            }
            Line::Jump { from, to } => {
                let s = format!("-- rewound from step {from} to {to}; above: from {to} on --");
                theme::text(&fit(&s, w), x, y, theme::FONT_SMALL, theme::ACCENT);
            }
        }
        y += ROW;
    }
    toggled
}

/// Outlines the bodies of event `e` in the world and marks its contact
/// point and normal (as the event saw them), over the bodies.
pub fn draw_focus(cam: &Camera, world: &World, e: &WorldEvent) {
    let f = event_log::focus(e);
    for id in &f.bodies {
        let Some(body) = world.body(*id) else {
            continue;
        };
        let xf = body.transform();
        for c in body.colliders() {
            let pts: Vec<Vec2> = draw::outline(c.shape(), &c.pose(&xf), cam.scale)
                .into_iter()
                .map(|p| cam.to_screen(p))
                .collect();
            draw::stroke_closed(&pts, 7.0, theme::with_alpha(theme::EVENT_FOCUS, 0.3));
            draw::stroke_closed(&pts, 2.5, theme::EVENT_FOCUS);
        }
    }
    if let Some((p, n)) = f.contact {
        let s = cam.to_screen(p);
        // The normal from A to B, 40 pixels long whatever the zoom.
        let d = cam.vec_to_screen(n).normalize_or_zero() * 40.0;
        theme::arrow(s, s + d, 2.5, theme::OV_NORMAL);
        draw_circle(s.x, s.y, 5.0, theme::OV_CONTACT);
        draw_circle_lines(s.x, s.y, 8.0, 1.5, theme::EVENT_FOCUS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_stay_short() {
        assert_eq!(compact(987), "987");
        assert_eq!(compact(99_999), "99999");
        assert_eq!(compact(123_456), "123k");
        assert_eq!(compact(4_500_000), "4.5M");
        for n in [0, 9, 99_999, 100_000, 999_999, 1_000_000, 99_999_999] {
            assert!(compact(n).len() <= 6, "{n}: {}", compact(n));
        }
    }
}
