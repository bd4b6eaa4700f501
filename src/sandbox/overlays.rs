//! Debug overlays, each toggled on its own: fat AABBs, broadphase pairs,
//! contacts (points, normals, penetration vectors), velocities, centres of mass
//! and sleep state.

use super::camera::Camera;
use super::theme::{self, with_alpha};
use macroquad::prelude::*;
use minkowski::{BodyKind, World};

/// Penetration vectors are drawn this many times their true length: real
/// overlaps are millimetres, invisible at any useful zoom.
pub const PENETRATION_MAGNIFY: f32 = 20.0;
/// Velocity arrows show where the body would be after this many seconds.
pub const VELOCITY_SECONDS: f32 = 0.2;

/// One overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Broadphase fat boxes.
    Aabbs,
    /// Broadphase pairs (lines between the boxes' centres).
    Pairs,
    /// Contact points, normals and penetration vectors.
    Contacts,
    /// Linear velocity arrows.
    Velocities,
    /// Centres of mass.
    Com,
    /// Sleep state.
    Sleep,
    /// Joint reaction forces.
    Joints,
}

impl Overlay {
    /// Every overlay, in toolbar order.
    pub const ALL: [Overlay; 7] = [
        Overlay::Aabbs,
        Overlay::Pairs,
        Overlay::Contacts,
        Overlay::Velocities,
        Overlay::Com,
        Overlay::Sleep,
        Overlay::Joints,
    ];

    /// Short toolbar label.
    pub fn label(self) -> &'static str {
        match self {
            Overlay::Aabbs => "AABB",
            Overlay::Pairs => "Pairs",
            Overlay::Contacts => "Cont.",
            Overlay::Velocities => "Vel.",
            Overlay::Com => "CoM",
            Overlay::Sleep => "Sleep",
            Overlay::Joints => "Force",
        }
    }

    /// Name used by `--overlay`.
    pub fn cli_name(self) -> &'static str {
        match self {
            Overlay::Aabbs => "aabbs",
            Overlay::Pairs => "pairs",
            Overlay::Contacts => "contacts",
            Overlay::Velocities => "velocities",
            Overlay::Com => "com",
            Overlay::Sleep => "sleep",
            Overlay::Joints => "joints",
        }
    }

    /// The key toggling it.
    pub fn key(self) -> KeyCode {
        match self {
            Overlay::Aabbs => KeyCode::A,
            Overlay::Pairs => KeyCode::B,
            Overlay::Contacts => KeyCode::C,
            Overlay::Velocities => KeyCode::V,
            Overlay::Com => KeyCode::M,
            Overlay::Sleep => KeyCode::Z,
            Overlay::Joints => KeyCode::G,
        }
    }

    /// The key as a character, for labels.
    pub fn key_char(self) -> char {
        match self {
            Overlay::Aabbs => 'A',
            Overlay::Pairs => 'B',
            Overlay::Contacts => 'C',
            Overlay::Velocities => 'V',
            Overlay::Com => 'M',
            Overlay::Sleep => 'Z',
            Overlay::Joints => 'G',
        }
    }
}

/// Which overlays are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlays {
    on: [bool; Overlay::ALL.len()],
}

impl Overlays {
    /// Parses `--overlay` values: names from [`Overlay::cli_name`], or `all`.
    pub fn parse(list: &[String]) -> Result<Overlays, String> {
        let mut o = Overlays::default();
        for item in list.iter().flat_map(|s| s.split(',')) {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            if item == "all" {
                o.on = [true; Overlay::ALL.len()];
                continue;
            }
            let i = Overlay::ALL
                .iter()
                .position(|x| x.cli_name() == item)
                .ok_or_else(|| {
                    let names: Vec<&str> = Overlay::ALL.iter().map(|x| x.cli_name()).collect();
                    format!(
                        "unknown overlay {item:?}; expected one of {}, all",
                        names.join(", ")
                    )
                })?;
            o.on[i] = true;
        }
        Ok(o)
    }

    /// Is this overlay on?
    pub fn is_on(&self, ov: Overlay) -> bool {
        self.on[Self::index(ov)]
    }

    /// Flips one overlay.
    pub fn toggle(&mut self, ov: Overlay) {
        let i = Self::index(ov);
        self.on[i] = !self.on[i];
    }

    /// Turns everything on, or everything off if all are on.
    pub fn toggle_all(&mut self) {
        let all = self.on.iter().all(|x| *x);
        self.on = [!all; Overlay::ALL.len()];
    }

    fn index(ov: Overlay) -> usize {
        Overlay::ALL.iter().position(|x| *x == ov).unwrap_or(0)
    }
}

/// Draws the enabled overlays over the bodies.
pub fn draw(cam: &Camera, world: &World, on: &Overlays) {
    let view = cam.view().expanded(1.0);
    if on.is_on(Overlay::Aabbs) {
        for (id, b) in world.bodies() {
            if let Some(bb) = world.fat_aabb(id) {
                if !bb.overlaps(&view) {
                    continue;
                }
                let a = cam.to_screen(bb.min);
                let c = cam.to_screen(bb.max);
                let color = if b.kind() == BodyKind::Static {
                    with_alpha(theme::OV_AABB, 0.25)
                } else {
                    theme::OV_AABB
                };
                draw_rectangle_lines(
                    a.x.min(c.x),
                    c.y.min(a.y),
                    (c.x - a.x).abs(),
                    (a.y - c.y).abs(),
                    1.0,
                    color,
                );
            }
        }
    }
    if on.is_on(Overlay::Pairs) {
        for (a, b) in world.pairs() {
            if let (Some(ba), Some(bb)) = (world.fat_aabb(a), world.fat_aabb(b)) {
                let p = cam.to_screen(ba.center());
                let q = cam.to_screen(bb.center());
                draw_line(p.x, p.y, q.x, q.y, 1.0, theme::OV_PAIR);
                draw_circle(p.x, p.y, 2.0, theme::OV_PAIR);
                draw_circle(q.x, q.y, 2.0, theme::OV_PAIR);
            }
        }
    }
    if on.is_on(Overlay::Velocities) {
        for (_, b) in world.bodies() {
            if b.kind() == BodyKind::Static || !b.is_awake() {
                continue;
            }
            let c = b.center_of_mass();
            let v = b.linear_velocity();
            if v.length() * VELOCITY_SECONDS * cam.scale < 3.0 {
                continue;
            }
            theme::arrow(
                cam.to_screen(c),
                cam.to_screen(c + v * VELOCITY_SECONDS),
                1.5,
                theme::OV_VELOCITY,
            );
        }
    }
    if on.is_on(Overlay::Com) {
        for (_, b) in world.bodies() {
            if b.kind() == BodyKind::Static {
                continue;
            }
            let p = cam.to_screen(b.center_of_mass());
            draw_circle_lines(p.x, p.y, 4.0, 1.2, theme::OV_COM);
            // Quartered disc, the usual centre-of-mass symbol.
            draw_triangle(p, p + vec2(4.0, 0.0), p + vec2(2.8, -2.8), theme::OV_COM);
            draw_triangle(p, p - vec2(4.0, 0.0), p - vec2(2.8, -2.8), theme::OV_COM);
        }
    }
    if on.is_on(Overlay::Sleep) {
        for (_, b) in world.bodies() {
            if b.kind() == BodyKind::Static {
                continue;
            }
            let p = cam.to_screen(b.center_of_mass());
            if b.is_awake() {
                draw_circle(p.x, p.y, 2.5, theme::OK);
            } else {
                theme::text(
                    "z",
                    p.x - 3.0,
                    p.y - 9.0,
                    theme::FONT_SMALL,
                    theme::OV_SLEEP,
                );
            }
        }
    }
    if on.is_on(Overlay::Contacts) {
        let normal_len = 18.0;
        for c in world.contacts() {
            let m = c.manifold;
            let n_screen = cam.vec_to_screen(m.normal).normalize_or_zero();
            for p in m.points() {
                let s = cam.to_screen(p.point);
                if p.separation < 0.0 {
                    // Penetration vector: how far B must move along the normal.
                    let pen = cam.vec_to_screen(m.normal * (-p.separation * PENETRATION_MAGNIFY));
                    theme::arrow(s, s + pen, 2.0, theme::OV_PENETRATION);
                }
                theme::arrow(s, s + n_screen * normal_len, 1.2, theme::OV_NORMAL);
                draw_circle(s.x, s.y, 3.0, theme::OV_CONTACT);
            }
        }
    }
}
