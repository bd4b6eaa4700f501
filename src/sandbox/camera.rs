//! The 2D camera: world metres (y up) to screen pixels (y down), fitting a
//! scene's bounds, panning by a mouse drag and zooming around the cursor.

use minkowski::{Aabb, Vec2};

/// Smallest and largest zoom, in pixels per metre.
const MIN_SCALE: f32 = 2.0;
const MAX_SCALE: f32 = 2000.0;

/// A pan-and-zoom view of the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point at the centre of the screen.
    pub center: Vec2,
    /// Pixels per metre.
    pub scale: f32,
    /// Screen size in pixels.
    pub screen: Vec2,
}

impl Camera {
    /// A camera showing `bounds` (plus a margin) on a screen of the given size.
    pub fn fit(bounds: Aabb, screen: Vec2) -> Camera {
        let mut c = Camera {
            center: Vec2::ZERO,
            scale: 40.0,
            screen,
        };
        c.fit_to(bounds);
        c
    }

    /// Re-centres and re-zooms so `bounds` fills most of the screen.
    pub fn fit_to(&mut self, bounds: Aabb) {
        let size = (bounds.max - bounds.min).max(Vec2::splat(1.0));
        // Leave room for the HUD at the top and the toolbar at the bottom.
        let usable = (self.screen - Vec2::new(80.0, 200.0)).max(Vec2::splat(100.0));
        self.scale = (usable.x / size.x)
            .min(usable.y / size.y)
            .clamp(MIN_SCALE, MAX_SCALE);
        // Shift the view down a little so the scene sits between HUD and toolbar.
        self.center = bounds.center() + Vec2::new(0.0, 10.0 / self.scale);
    }

    /// World point → screen pixel.
    pub fn to_screen(self, p: Vec2) -> Vec2 {
        Vec2::new(
            self.screen.x * 0.5 + (p.x - self.center.x) * self.scale,
            self.screen.y * 0.5 - (p.y - self.center.y) * self.scale,
        )
    }

    /// Screen pixel → world point.
    pub fn to_world(self, s: Vec2) -> Vec2 {
        Vec2::new(
            self.center.x + (s.x - self.screen.x * 0.5) / self.scale,
            self.center.y - (s.y - self.screen.y * 0.5) / self.scale,
        )
    }

    /// A world-space vector (direction and length) → screen pixels.
    pub fn vec_to_screen(self, v: Vec2) -> Vec2 {
        Vec2::new(v.x * self.scale, -v.y * self.scale)
    }

    /// Moves the view by a screen-pixel mouse displacement (the world follows the mouse).
    pub fn pan_pixels(&mut self, delta: Vec2) {
        self.center -= Vec2::new(delta.x, -delta.y) / self.scale;
    }

    /// Zooms by `factor` keeping the world point under `cursor` (pixels) fixed.
    pub fn zoom_at(&mut self, cursor: Vec2, factor: f32) {
        let before = self.to_world(cursor);
        self.scale = (self.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let after = self.to_world(cursor);
        self.center += before - after;
    }

    /// The visible world rectangle.
    pub fn view(self) -> Aabb {
        let a = self.to_world(Vec2::ZERO);
        let b = self.to_world(self.screen);
        Aabb::new(a.min(b), a.max(b))
    }

    /// Updates the screen size, keeping the centre and zoom.
    pub fn resize(&mut self, screen: Vec2) {
        self.screen = screen;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let c = Camera::fit(
            Aabb::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 12.0)),
            Vec2::new(1280.0, 720.0),
        );
        let p = Vec2::new(3.5, -2.0);
        assert!((c.to_world(c.to_screen(p)) - p).length() < 1e-4);
    }

    #[test]
    fn zoom_keeps_cursor_point() {
        let mut c = Camera::fit(
            Aabb::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 12.0)),
            Vec2::new(1280.0, 720.0),
        );
        let cursor = Vec2::new(300.0, 200.0);
        let w = c.to_world(cursor);
        c.zoom_at(cursor, 1.7);
        assert!((c.to_world(cursor) - w).length() < 1e-3);
    }

    #[test]
    fn y_points_up() {
        let c = Camera::fit(
            Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0)),
            Vec2::new(800.0, 600.0),
        );
        assert!(c.to_screen(Vec2::new(0.0, 1.0)).y < c.to_screen(Vec2::ZERO).y);
    }
}
