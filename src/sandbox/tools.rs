//! The tools (number keys and the on-screen toolbar): drag, the five spawners,
//! throw, delete and inspect; the shapes the spawners make.

use super::theme;
use ::rand::{RngExt, SeedableRng};
use macroquad::prelude::*;
use minkowski::replay::JointTool;
use minkowski::scene::ShapeSpec;
use minkowski::Polygon;
use rand_chacha::ChaCha8Rng;

/// What the left mouse button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Drag a body with the soft mouse constraint.
    Drag,
    /// Spawn a box.
    Box,
    /// Spawn a circle.
    Circle,
    /// Spawn a random convex polygon.
    Polygon,
    /// Spawn an ellipse.
    Ellipse,
    /// Spawn a capsule.
    Capsule,
    /// Press, drag and release to launch the last spawned kind.
    Throw,
    /// Delete the body under the cursor.
    Delete,
    /// Pick two bodies for the GJK/EPA inspector.
    Inspect,
    /// Pin a body to the world with a hinge.
    Pin,
    /// Hinge two bodies (press on one, release on the other).
    Hinge,
    /// Tie a rope between two points.
    Rope,
    /// Hang a spring between two points.
    Spring,
    /// Weld two bodies.
    Weld,
    /// Turn a hinge's motor on or off.
    Motor,
    /// Aim a laser: the ray's hits and reflections (a query only).
    Laser,
    /// Set off an explosion that pushes bodies away.
    Explode,
}

/// Radius of the explosion tool's full push (m); it fades over as much again.
pub const BLAST_RADIUS: f32 = 2.0;
/// Impulse of the explosion tool at full push (N·s).
pub const BLAST_IMPULSE: f32 = 10.0;

impl Tool {
    /// Every tool, in toolbar order (keys 1..9, then 0, J, L, K, W, T).
    pub const ALL: [Tool; 17] = [
        Tool::Drag,
        Tool::Box,
        Tool::Circle,
        Tool::Polygon,
        Tool::Ellipse,
        Tool::Capsule,
        Tool::Throw,
        Tool::Delete,
        Tool::Inspect,
        Tool::Pin,
        Tool::Hinge,
        Tool::Rope,
        Tool::Spring,
        Tool::Weld,
        Tool::Motor,
        Tool::Laser,
        Tool::Explode,
    ];

    /// Toolbar label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Drag => "Drag",
            Tool::Box => "Box",
            Tool::Circle => "Circle",
            Tool::Polygon => "Polygon",
            Tool::Ellipse => "Ellipse",
            Tool::Capsule => "Capsule",
            Tool::Throw => "Throw",
            Tool::Delete => "Delete",
            Tool::Inspect => "Inspect",
            Tool::Pin => "Pin",
            Tool::Hinge => "Hinge",
            Tool::Rope => "Rope",
            Tool::Spring => "Spring",
            Tool::Weld => "Weld",
            Tool::Motor => "Motor",
            Tool::Laser => "Laser",
            Tool::Explode => "Boom",
        }
    }

    /// One line on what the tool does (status bar and help).
    pub fn hint(self) -> &'static str {
        match self {
            Tool::Drag => "press on a body and drag it with a soft spring",
            Tool::Box => "click to spawn a box at the cursor",
            Tool::Circle => "click to spawn a circle at the cursor",
            Tool::Polygon => "click to spawn a random convex polygon",
            Tool::Ellipse => "click to spawn an ellipse at the cursor",
            Tool::Capsule => "click to spawn a capsule at the cursor",
            Tool::Throw => "press, drag and release: launch the last spawned shape",
            Tool::Delete => "click a joint to cut it, or a body to delete it",
            Tool::Inspect => "click body A, then body B: GJK/EPA inspector",
            Tool::Pin => "click a body to pin it to the world with a hinge",
            Tool::Hinge => "press on body A (or empty space), release on body B: a hinge there",
            Tool::Rope => "press at one end, release at the other: a rope of that length",
            Tool::Spring => "press at one end, release at the other: a 2 Hz spring",
            Tool::Weld => "press on body A, release on body B: weld them there",
            Tool::Motor => "click a hinge to turn its motor on (2 rad/s) or off",
            Tool::Laser => {
                "press and drag: a laser from the press toward the cursor, reflected up to 8 times"
            }
            Tool::Explode => {
                "click: an explosion pushes bodies away (10 N·s within 2 m, fading over 2 m more)"
            }
        }
    }

    /// The number key choosing the tool.
    pub fn key(self) -> KeyCode {
        match self {
            Tool::Drag => KeyCode::Key1,
            Tool::Box => KeyCode::Key2,
            Tool::Circle => KeyCode::Key3,
            Tool::Polygon => KeyCode::Key4,
            Tool::Ellipse => KeyCode::Key5,
            Tool::Capsule => KeyCode::Key6,
            Tool::Throw => KeyCode::Key7,
            Tool::Delete => KeyCode::Key8,
            Tool::Inspect => KeyCode::Key9,
            Tool::Pin => KeyCode::Key0,
            Tool::Hinge => KeyCode::J,
            Tool::Rope => KeyCode::L,
            Tool::Spring => KeyCode::K,
            Tool::Weld => KeyCode::W,
            Tool::Motor => KeyCode::T,
            Tool::Laser => KeyCode::Y,
            Tool::Explode => KeyCode::X,
        }
    }

    /// The key's character, as the toolbar and help show it.
    pub fn key_char(self) -> char {
        match self {
            Tool::Drag => '1',
            Tool::Box => '2',
            Tool::Circle => '3',
            Tool::Polygon => '4',
            Tool::Ellipse => '5',
            Tool::Capsule => '6',
            Tool::Throw => '7',
            Tool::Delete => '8',
            Tool::Inspect => '9',
            Tool::Pin => '0',
            Tool::Hinge => 'J',
            Tool::Rope => 'L',
            Tool::Spring => 'K',
            Tool::Weld => 'W',
            Tool::Motor => 'T',
            Tool::Laser => 'Y',
            Tool::Explode => 'X',
        }
    }

    /// The joint tool behind a press-drag-release gesture.
    pub fn joint_tool(self) -> Option<JointTool> {
        match self {
            Tool::Hinge => Some(JointTool::Hinge),
            Tool::Rope => Some(JointTool::Rope),
            Tool::Spring => Some(JointTool::Spring),
            Tool::Weld => Some(JointTool::Weld),
            _ => None,
        }
    }

    /// The spawner kind, for the spawn tools.
    pub fn spawn_kind(self) -> Option<SpawnKind> {
        match self {
            Tool::Box => Some(SpawnKind::Box),
            Tool::Circle => Some(SpawnKind::Circle),
            Tool::Polygon => Some(SpawnKind::Polygon),
            Tool::Ellipse => Some(SpawnKind::Ellipse),
            Tool::Capsule => Some(SpawnKind::Capsule),
            _ => None,
        }
    }
}

/// Which shape a spawner makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnKind {
    /// 0.8 m × 0.6 m box.
    Box,
    /// 0.35 m radius circle.
    Circle,
    /// Random convex polygon, 3 to 8 vertices, about 0.4 m across.
    Polygon,
    /// 0.5 m × 0.3 m ellipse.
    Ellipse,
    /// Capsule, core 0.6 m, radius 0.22 m.
    Capsule,
}

/// Makes spawned shapes. Random polygons come from a seeded ChaCha8 stream, so a
/// session with the same seed and clicks spawns the same polygons.
pub struct Spawner {
    rng: ChaCha8Rng,
}

impl Spawner {
    /// A spawner with the given seed.
    pub fn new(seed: u64) -> Spawner {
        Spawner {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A new shape of the given kind, as a scene-file shape (spawns are
    /// recorded in that form).
    pub fn shape(&mut self, kind: SpawnKind) -> ShapeSpec {
        match kind {
            SpawnKind::Box => ShapeSpec::Rect { hx: 0.4, hy: 0.3 },
            SpawnKind::Circle => ShapeSpec::Circle { r: 0.35 },
            SpawnKind::Ellipse => ShapeSpec::Ellipse { rx: 0.5, ry: 0.3 },
            SpawnKind::Capsule => ShapeSpec::Capsule {
                half_height: 0.3,
                r: 0.22,
            },
            SpawnKind::Polygon => loop {
                // Points at sorted random angles on a wobbly circle; their hull is
                // convex by construction. Retry the rare degenerate draw.
                let n = self.rng.random_range(3..=8usize);
                let mut angles: Vec<f32> = (0..n)
                    .map(|_| self.rng.random_range(0.0..std::f32::consts::TAU))
                    .collect();
                angles.sort_by(f32::total_cmp);
                let pts: Vec<Vec2> = angles
                    .iter()
                    .map(|a| {
                        let r = self.rng.random_range(0.3..0.55f32);
                        Vec2::new(a.cos(), a.sin()) * r
                    })
                    .collect();
                if let Ok(p) = Polygon::convex_hull(&pts) {
                    if p.area_centroid_moment().0 > 0.05 {
                        return ShapeSpec::Polygon(p.vertices().to_vec());
                    }
                }
            },
        }
    }
}

/// Height of the toolbar strip at the bottom of the screen.
pub const TOOLBAR_H: f32 = 38.0;
const BUTTON_W: f32 = 84.0;
const GAP: f32 = 4.0;

/// A clickable toolbar button.
#[derive(Clone, Copy, Debug)]
pub struct Button {
    /// Screen rectangle.
    pub rect: Rect,
    /// What clicking it does.
    pub target: ButtonTarget,
}

/// What a toolbar button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ButtonTarget {
    /// Choose a tool.
    Tool(Tool),
    /// Toggle overlay number `i` (see `overlays::Overlay::ALL`).
    Overlay(usize),
}

/// Layout of the toolbar: tools on the left, overlay toggles on the right,
/// shrunk to fit narrow windows.
pub fn buttons(screen: Vec2, overlay_labels: &[&str]) -> Vec<Button> {
    let y = screen.y - TOOLBAR_H + 5.0;
    let h = TOOLBAR_H - 10.0;
    let ow = 62.0;
    let full = Tool::ALL.len() as f32 * (BUTTON_W + GAP) + overlay_labels.len() as f32 * (ow + GAP);
    let k = ((screen.x - 28.0) / full).min(1.0);
    let (bw, ow, gap) = (BUTTON_W * k, ow * k, GAP * k);
    let mut out = Vec::new();
    let mut x = 8.0;
    for t in Tool::ALL {
        out.push(Button {
            rect: Rect::new(x, y, bw, h),
            target: ButtonTarget::Tool(t),
        });
        x += bw + gap;
    }
    let mut x = screen.x - 8.0 - overlay_labels.len() as f32 * (ow + gap) + gap;
    for i in 0..overlay_labels.len() {
        out.push(Button {
            rect: Rect::new(x, y, ow, h),
            target: ButtonTarget::Overlay(i),
        });
        x += ow + gap;
    }
    out
}

/// The button under a screen point, if any.
pub fn hit(buttons: &[Button], p: Vec2) -> Option<ButtonTarget> {
    buttons
        .iter()
        .find(|b| b.rect.contains(p))
        .map(|b| b.target)
}

/// `true` when a screen point is over the toolbar strip (clicks there are not tool input).
pub fn over_toolbar(screen: Vec2, p: Vec2) -> bool {
    p.y >= screen.y - TOOLBAR_H
}

/// Draws the toolbar. `overlay_on[i]` and `overlay_keys[i]` describe the toggles.
pub fn draw_toolbar(
    screen: Vec2,
    active: Tool,
    overlays: &[(&str, char, bool)],
    mouse: Option<Vec2>,
) {
    draw_rectangle(0.0, screen.y - TOOLBAR_H, screen.x, TOOLBAR_H, theme::PANEL);
    draw_line(
        0.0,
        screen.y - TOOLBAR_H,
        screen.x,
        screen.y - TOOLBAR_H,
        1.0,
        theme::PANEL_BORDER,
    );
    let labels: Vec<&str> = overlays.iter().map(|o| o.0).collect();
    for b in buttons(screen, &labels) {
        let hover = mouse.is_some_and(|m| b.rect.contains(m));
        let (label, key, on) = match b.target {
            ButtonTarget::Tool(t) => (t.label(), t.key_char(), t == active),
            ButtonTarget::Overlay(i) => (overlays[i].0, overlays[i].1, overlays[i].2),
        };
        let bg = if on {
            theme::with_alpha(theme::ACCENT, 0.22)
        } else if hover {
            Color::new(1.0, 1.0, 1.0, 0.08)
        } else {
            Color::new(1.0, 1.0, 1.0, 0.03)
        };
        let r = b.rect;
        draw_rectangle(r.x, r.y, r.w, r.h, bg);
        let border = if on {
            theme::ACCENT
        } else {
            theme::PANEL_BORDER
        };
        draw_rectangle_lines(r.x, r.y, r.w, r.h, 1.0, border);
        let key_s = key.to_string();
        let color = if on { theme::ACCENT } else { theme::TEXT };
        let w = theme::text_width(label, theme::FONT_SMALL);
        if w + 18.0 <= r.w {
            theme::text(
                &key_s,
                r.x + 5.0,
                r.y + 6.0,
                theme::FONT_SMALL,
                theme::TEXT_DIM,
            );
            let lx = (r.x + 14.0 + (r.w - 14.0 - w) * 0.5).max(r.x + 14.0);
            theme::text(label, lx, r.y + 6.0, theme::FONT_SMALL, color);
        } else if w + 4.0 <= r.w {
            // Too narrow for both: the label alone.
            theme::text(
                label,
                r.x + (r.w - w) * 0.5,
                r.y + 6.0,
                theme::FONT_SMALL,
                color,
            );
        } else {
            // Too narrow for the label: the key alone, centred.
            let kw = theme::text_width(&key_s, theme::FONT_SMALL);
            theme::text(
                &key_s,
                r.x + (r.w - kw) * 0.5,
                r.y + 6.0,
                theme::FONT_SMALL,
                color,
            );
        }
    }
}
