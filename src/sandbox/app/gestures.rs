//! Drawing what the mouse is doing: the mouse joint, a joint being made, a
//! throw being aimed (with its ballistic path) and the laser.

use super::*;

impl App {
    /// The laser from `from` toward `to`: each hit's point and normal, and
    /// the ray reflected up to 8 times (world ray casts; nothing changes).
    pub(super) fn draw_laser(&mut self, from: Vec2, to: Vec2) {
        let mut dir = (to - from).normalize_or_zero();
        if dir == Vec2::ZERO {
            return;
        }
        let mut origin = from;
        let red = Color::new(1.0, 0.25, 0.3, 1.0);
        for bounce in 0..=8 {
            let hit = self.world.ray_cast(origin, dir, 200.0, u32::MAX);
            let end = hit.map_or(origin + dir * 200.0, |h| h.point);
            let alpha = 1.0 - bounce as f32 * 0.09;
            let (a, b) = (self.cam.to_screen(origin), self.cam.to_screen(end));
            draw_line(a.x, a.y, b.x, b.y, 2.0, theme::with_alpha(red, alpha));
            let Some(h) = hit else {
                break;
            };
            draw_circle(b.x, b.y, 4.0, theme::SELECTED);
            let tip = self
                .cam
                .to_screen(h.point + h.normal * (24.0 / self.cam.scale));
            draw_line(b.x, b.y, tip.x, tip.y, 1.5, theme::SELECTED);
            if h.distance == 0.0 {
                break;
            }
            // Reflect, and start just off the surface.
            dir = dir - 2.0 * dir.dot(h.normal) * h.normal;
            origin = h.point + h.normal * 1e-4;
        }
    }

    pub(super) fn draw_gestures(&self) {
        // The mouse joint: anchor to target.
        if let Some(d) = self.world.drag() {
            if let Some(b) = self.world.body(d.body) {
                let a = self.cam.to_screen(b.transform().apply(d.local_anchor));
                let t = self.cam.to_screen(d.target);
                theme::dashed(a, t, 5.0, 1.5, theme::SELECTED);
                draw_circle(a.x, a.y, 3.5, theme::SELECTED);
                draw_circle_lines(t.x, t.y, 6.0, 1.5, theme::SELECTED);
            }
        }
        if let Gesture::Linking { from, .. } = self.gesture {
            let to = self.cam.to_world(Vec2::from(mouse_position()));
            theme::dashed(
                self.cam.to_screen(from),
                self.cam.to_screen(to),
                6.0,
                2.0,
                theme::SELECTED,
            );
        }
        if let Gesture::Throwing { from } = self.gesture {
            let to = self.cam.to_world(Vec2::from(mouse_position()));
            let v = (to - from) * THROW_GAIN;
            let a = self.cam.to_screen(from);
            theme::arrow(a, self.cam.to_screen(to), 2.0, theme::SELECTED);
            // Ballistic preview for 1.5 s.
            let g = self.world.settings().gravity;
            let mut prev = a;
            for i in 1..=30 {
                let t = i as f32 * 0.05;
                let p = self.cam.to_screen(from + v * t + 0.5 * g * t * t);
                if i % 2 == 0 {
                    draw_line(
                        prev.x,
                        prev.y,
                        p.x,
                        p.y,
                        1.5,
                        theme::with_alpha(theme::SELECTED, 0.6),
                    );
                }
                prev = p;
            }
            theme::text(
                &format!("{:.1} m/s", v.length()),
                a.x + 8.0,
                a.y + 6.0,
                theme::FONT_SMALL,
                theme::SELECTED,
            );
        }
    }
}
