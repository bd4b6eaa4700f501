//! A few immediate-mode widgets (slider, checkbox, button) drawn with the
//! sandbox's palette, for the settings panel and the scene picker.
//!
//! They are drawn in the frame like everything else, so F12 and
//! `--screenshot` pictures contain them; in `--frames` mode there is no
//! pointer and they only draw.

use super::theme;
use macroquad::prelude::*;

/// The mouse as the widgets see it this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pointer {
    /// Position in pixels (`None` in capture mode).
    pub pos: Option<Vec2>,
    /// Left button held.
    pub down: bool,
    /// Left button went down this frame.
    pub pressed: bool,
}

/// Widget state across frames: which slider the mouse is dragging.
#[derive(Default)]
pub struct Widgets {
    pointer: Pointer,
    active: Option<&'static str>,
}

/// Height of a slider row (label line and track).
pub const SLIDER_H: f32 = 36.0;
/// Height of a checkbox or button row.
pub const ROW_H: f32 = 26.0;

impl Widgets {
    /// Takes this frame's pointer; a released button ends any drag.
    pub fn begin(&mut self, pointer: Pointer) {
        self.pointer = pointer;
        if !pointer.down {
            self.active = None;
        }
    }

    /// `true` while a slider is being dragged (the world tools keep off).
    pub fn busy(&self) -> bool {
        self.active.is_some()
    }

    fn hovered(&self, r: Rect) -> bool {
        self.pointer.pos.is_some_and(|p| r.contains(p))
    }

    fn clicked(&self, r: Rect) -> bool {
        self.pointer.pressed && self.hovered(r)
    }

    /// A labelled slider over `lo..=hi`; `text` is the value as shown.
    /// Returns `true` when the user moved it (then `*value` is new).
    #[allow(clippy::too_many_arguments)]
    pub fn slider(
        &mut self,
        id: &'static str,
        r: Rect,
        label: &str,
        text: &str,
        value: &mut f32,
        lo: f32,
        hi: f32,
        enabled: bool,
    ) -> bool {
        let label_c = if enabled {
            theme::TEXT_DIM
        } else {
            theme::with_alpha(theme::TEXT_DIM, 0.5)
        };
        theme::text(label, r.x, r.y, theme::FONT_SMALL, label_c);
        let tw = theme::text_width(text, theme::FONT_SMALL);
        theme::text(text, r.x + r.w - tw, r.y, theme::FONT_SMALL, theme::TEXT);
        let track = Rect::new(r.x + 6.0, r.y + 24.0, r.w - 12.0, 4.0);
        let grab = Rect::new(r.x, r.y + 14.0, r.w, r.h - 14.0);
        if enabled && self.clicked(grab) {
            self.active = Some(id);
        }
        let mut changed = false;
        if self.active == Some(id) {
            if let Some(p) = self.pointer.pos {
                let t = ((p.x - track.x) / track.w).clamp(0.0, 1.0);
                let v = lo + t * (hi - lo);
                if v != *value {
                    *value = v;
                    changed = true;
                }
            }
        }
        let t = if hi > lo {
            ((*value - lo) / (hi - lo)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let kx = track.x + t * track.w;
        let on = self.active == Some(id) || (enabled && self.hovered(grab));
        let fill = if enabled {
            theme::ACCENT
        } else {
            theme::TEXT_DIM
        };
        draw_rectangle(track.x, track.y, track.w, track.h, theme::PANEL_BORDER);
        draw_rectangle(track.x, track.y, kx - track.x, track.h, fill);
        draw_circle(kx, track.y + 2.0, if on { 7.0 } else { 6.0 }, fill);
        changed
    }

    /// A checkbox with its label. Returns `true` when toggled.
    pub fn checkbox(&mut self, r: Rect, label: &str, on: &mut bool, enabled: bool) -> bool {
        let bx = Rect::new(r.x, r.y + 4.0, 16.0, 16.0);
        let hot = enabled && self.hovered(r);
        draw_rectangle_lines(
            bx.x,
            bx.y,
            bx.w,
            bx.h,
            1.5,
            if hot { theme::ACCENT } else { theme::TEXT_DIM },
        );
        if *on {
            draw_rectangle(bx.x + 4.0, bx.y + 4.0, 8.0, 8.0, theme::ACCENT);
        }
        theme::text(label, r.x + 24.0, r.y + 2.0, theme::FONT_SMALL, theme::TEXT);
        if enabled && self.clicked(r) {
            *on = !*on;
            return true;
        }
        false
    }

    /// A push button. Returns `true` when clicked.
    pub fn button(&mut self, r: Rect, label: &str, selected: bool) -> bool {
        let hot = self.hovered(r);
        let bg = if selected {
            theme::with_alpha(theme::ACCENT, 0.22)
        } else if hot {
            Color::new(1.0, 1.0, 1.0, 0.10)
        } else {
            Color::new(1.0, 1.0, 1.0, 0.04)
        };
        draw_rectangle(r.x, r.y, r.w, r.h, bg);
        let border = if selected || hot {
            theme::ACCENT
        } else {
            theme::PANEL_BORDER
        };
        draw_rectangle_lines(r.x, r.y, r.w, r.h, 1.0, border);
        let c = if selected { theme::ACCENT } else { theme::TEXT };
        let mut text = label.to_string();
        while text.chars().count() > 1 && theme::text_width(&text, theme::FONT_SMALL) > r.w - 10.0 {
            text.pop();
        }
        let w = theme::text_width(&text, theme::FONT_SMALL);
        let y = r.y + (r.h - theme::FONT_SMALL) * 0.5 - 1.0;
        theme::text(&text, r.x + (r.w - w) * 0.5, y, theme::FONT_SMALL, c);
        self.clicked(r)
    }
}
