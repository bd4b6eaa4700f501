//! Joints on screen: anchors, the links from each body's centre to its
//! anchor, a hinge's limits and current angle, a slider's or wheel's axis
//! and travel, ropes and springs, all coloured by load: the reaction force
//! against the largest in the world (green to red), or against its break
//! force for a breakable joint. With the Joints overlay, the reaction force
//! on body B as an arrow. A joint shorter on screen than its glyphs is one
//! thin line between its bodies, in the same colour.

use super::camera::Camera;
use super::theme;
use macroquad::prelude::*;
use minkowski::dynamics::joint::{Joint, JointKind};
use minkowski::World;

/// The shortest joint drawn in full, as the distance between its bodies'
/// centres (or its world anchor and its body's centre) on screen, in
/// pixels; shorter ones are one line (see [`draw`]).
const DETAIL_PIXELS: f32 = 12.0;

/// Length of the largest force arrow (screen pixels).
const FORCE_MAX_PIXELS: f32 = 60.0;

/// The load colour: `t` = 0 green, 1 yellow, ≥ 3 red.
fn load_color(t: f32) -> Color {
    let green = Color::new(0.45, 0.90, 0.50, 1.0);
    let yellow = Color::new(1.0, 0.85, 0.25, 1.0);
    let red = Color::new(1.0, 0.30, 0.25, 1.0);
    let mix = |a: Color, b: Color, s: f32| {
        Color::new(
            a.r + (b.r - a.r) * s,
            a.g + (b.g - a.g) * s,
            a.b + (b.b - a.b) * s,
            1.0,
        )
    };
    if t <= 1.0 {
        mix(green, yellow, t.max(0.0))
    } else {
        mix(yellow, red, ((t - 1.0) / 2.0).min(1.0))
    }
}

/// Load of a joint on the colour scale: 3 (red) at the largest reaction in
/// the world `max`, or at its break force.
fn load(j: &Joint, max: f32) -> f32 {
    let f = j.reaction_force().length();
    match j.def().break_force.filter(|l| *l > 0.0) {
        Some(limit) => 3.0 * f / limit,
        None if max > 0.0 => 3.0 * f / max,
        None => 0.0,
    }
}

fn line(cam: &Camera, a: Vec2, b: Vec2, thickness: f32, color: Color) {
    let (a, b) = (cam.to_screen(a), cam.to_screen(b));
    draw_line(a.x, a.y, b.x, b.y, thickness, color);
}

/// A zig-zag from `a` to `b` (a spring), in screen space.
fn zigzag(cam: &Camera, a: Vec2, b: Vec2, color: Color) {
    let (sa, sb) = (cam.to_screen(a), cam.to_screen(b));
    let d = sb - sa;
    let len = d.length();
    if len < 1.0 {
        return;
    }
    let (u, n) = (d / len, Vec2::new(-d.y, d.x) / len);
    let turns = ((len / 8.0) as usize).clamp(4, 40);
    let mut prev = sa;
    for k in 1..=turns {
        let t = k as f32 / turns as f32;
        let side = if k == turns {
            0.0
        } else if k % 2 == 0 {
            -5.0
        } else {
            5.0
        };
        let p = sa + u * (len * t) + n * side;
        draw_line(prev.x, prev.y, p.x, p.y, 1.5, color);
        prev = p;
    }
}

/// Draws every joint; with `forces`, the reaction arrows too.
pub fn draw(cam: &Camera, world: &World, forces: bool) {
    let max = world
        .joints()
        .map(|(_, j)| j.reaction_force().length())
        .fold(0.0f32, f32::max);
    for (id, j) in world.joints() {
        let Some((pa, pb)) = world.joint_anchors(id) else {
            continue;
        };
        let color = load_color(load(j, max));
        let dim = theme::with_alpha(color, 0.7);
        let def = j.def();
        let ca = def
            .body_a
            .and_then(|a| world.body(a))
            .map(|b| b.center_of_mass());
        let body_b = world.body(def.body_b);
        // Too small on screen for its glyph (a hinge's ring is at least
        // 2 px across, its links 2 px thick): one thin line between the
        // bodies, still coloured by load. Drawn in full, a zoomed-out grid
        // of joints was a solid block of glyphs over its bodies, and took a
        // second a frame to rasterize without a GPU.
        let from = ca.unwrap_or(pa);
        let to = body_b.map_or(pb, |b| b.center_of_mass());
        if cam.scale * from.distance(to) < DETAIL_PIXELS {
            line(cam, from, to, 1.0, dim);
            continue;
        }
        if let Some(ca) = ca {
            line(cam, ca, pa, 2.0, dim);
        }
        if let Some(b) = body_b {
            line(cam, b.center_of_mass(), pb, 2.0, dim);
        }
        let rot_a = def
            .body_a
            .and_then(|a| world.body(a))
            .map_or(0.0, |b| b.angle());
        match j.kind() {
            JointKind::Revolute(r) => {
                let s = cam.to_screen(pb);
                let radius = (0.08 * cam.scale).clamp(2.0, 9.0);
                if let (Some(l), Some(b)) = (r.limits, body_b) {
                    let base = rot_a + r.reference_angle;
                    let steps = 16;
                    let mut prev = None;
                    for k in 0..=steps {
                        let t = l.lower + (l.upper - l.lower) * k as f32 / steps as f32;
                        let a = base + t;
                        let p = s + Vec2::new(a.cos(), -a.sin()) * (radius * 1.6);
                        if let Some(q) = prev {
                            let q: Vec2 = q;
                            draw_line(q.x, q.y, p.x, p.y, 1.5, dim);
                        }
                        prev = Some(p);
                    }
                    let a = b.angle();
                    let tip = s + Vec2::new(a.cos(), -a.sin()) * (radius * 2.0);
                    draw_line(s.x, s.y, tip.x, tip.y, 1.5, color);
                }
                draw_circle_lines(s.x, s.y, radius * 0.6, 1.5, color);
                if r.motor.is_some_and(|m| m.speed != 0.0) {
                    draw_circle_lines(s.x, s.y, radius * 1.2, 1.5, theme::ACCENT);
                }
            }
            JointKind::Prismatic(p) => {
                axis(
                    cam,
                    pa,
                    rot_a,
                    p.axis,
                    p.limits.map(|l| (l.lower, l.upper)),
                    color,
                );
                draw_circle(cam.to_screen(pb).x, cam.to_screen(pb).y, 3.0, color);
            }
            JointKind::Wheel(w) => {
                axis(
                    cam,
                    pa,
                    rot_a,
                    w.axis,
                    w.limits.map(|l| (l.lower, l.upper)),
                    dim,
                );
                let s = cam.to_screen(pb);
                draw_circle_lines(s.x, s.y, 4.0, 2.0, color);
                if w.motor.is_some_and(|m| m.speed != 0.0) {
                    draw_circle_lines(s.x, s.y, 8.0, 1.5, theme::ACCENT);
                }
            }
            JointKind::Distance(d) => {
                let springy = d.spring.is_some_and(|s| s.hertz > 0.0);
                if springy {
                    zigzag(cam, pa, pb, color);
                } else if d.min_length < d.max_length {
                    theme::dashed(cam.to_screen(pa), cam.to_screen(pb), 6.0, 1.5, color);
                } else {
                    line(cam, pa, pb, 2.0, color);
                }
                for p in [pa, pb] {
                    let s = cam.to_screen(p);
                    draw_circle(s.x, s.y, 3.0, color);
                }
            }
            JointKind::Weld(_) => {
                let s = cam.to_screen(pb);
                draw_rectangle_lines(s.x - 5.0, s.y - 5.0, 10.0, 10.0, 2.0, color);
            }
            JointKind::Motor(_) | JointKind::Mouse(_) => {
                theme::dashed(cam.to_screen(pa), cam.to_screen(pb), 4.0, 1.5, color);
            }
        }
        // Reaction on B.
        let f = j.reaction_force();
        if forces && max > 0.0 {
            let pixels = f.length() / max * FORCE_MAX_PIXELS;
            if pixels > 4.0 {
                let s = cam.to_screen(pb);
                let dir = Vec2::new(f.x, -f.y).normalize_or_zero();
                theme::arrow(s, s + dir * pixels, 1.5, color);
            }
        }
    }
}

/// A slider's axis through `at` (turned with body A), with its travel limits.
fn axis(cam: &Camera, at: Vec2, rot: f32, axis: Vec2, limits: Option<(f32, f32)>, color: Color) {
    let (c, s) = (rot.cos(), rot.sin());
    let u = Vec2::new(c * axis.x - s * axis.y, s * axis.x + c * axis.y).normalize_or_zero();
    let (lo, hi) = limits.unwrap_or((-1.0, 1.0));
    theme::dashed(
        cam.to_screen(at + u * lo),
        cam.to_screen(at + u * hi),
        5.0,
        1.5,
        color,
    );
    if limits.is_some() {
        let n = Vec2::new(-u.y, u.x) * (6.0 / cam.scale);
        for t in [lo, hi] {
            line(cam, at + u * t - n, at + u * t + n, 2.0, color);
        }
    }
}
