//! The GJK/EPA inspector: for two chosen bodies, a panel draws their Minkowski
//! difference B − A (traced from support points) with the origin, then GJK's
//! simplex at each iteration and EPA's polytope as it expands. The arrow keys
//! step through the iterations; the result (distance and closest points, or
//! depth and normal) is printed and drawn on the bodies too.
//!
//! GJK and EPA work on the shapes' *cores* (a circle's centre, a capsule's
//! segment); the rounding radii are added afterwards. The panel draws the core
//! difference solid and the full, rounded difference as a lighter band.

use super::camera::Camera;
use super::draw::{fill_convex, stroke_closed};
use super::theme::{self, with_alpha};
use macroquad::prelude::*;
use minkowski::geometry::epa::{self, CoreContact, EpaStep};
use minkowski::geometry::gjk::GjkStep;
use minkowski::{BodyId, Iso, Shape, SupportMap, World};

/// Directions sampled around the circle to trace the Minkowski difference.
const SAMPLES: usize = 256;

/// The pair under inspection and the iteration being shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inspector {
    /// Body A.
    pub a: BodyId,
    /// Body B.
    pub b: BodyId,
    /// Shown iteration (GJK's first, then EPA's); `None` follows the last one.
    pub cursor: Option<usize>,
}

/// The outcome in world coordinates.
#[derive(Clone, Copy, Debug)]
pub enum Outcome {
    /// The shapes are apart.
    Separated {
        /// Gap (m).
        distance: f32,
        /// Closest point on A.
        point_a: Vec2,
        /// Closest point on B.
        point_b: Vec2,
    },
    /// The shapes overlap.
    Penetrating {
        /// Overlap (m).
        depth: f32,
        /// Unit normal A → B.
        normal: Vec2,
        /// Deepest point of A.
        point_a: Vec2,
        /// Deepest point of B.
        point_b: Vec2,
    },
}

/// Everything the panel draws, recomputed each frame from the current poses.
pub struct Trace {
    gjk: Vec<GjkStep>,
    epa: Vec<EpaStep>,
    outcome: Outcome,
    core_hull: Vec<Vec2>,
    full_hull: Vec<Vec2>,
    radius_sum: f32,
    names: (String, String),
}

impl Trace {
    /// Number of recorded iterations (GJK then EPA).
    pub fn len(&self) -> usize {
        self.gjk.len() + self.epa.len()
    }
}

impl Inspector {
    /// Inspects `a` against `b`, showing the last iteration.
    pub fn new(a: BodyId, b: BodyId) -> Inspector {
        Inspector { a, b, cursor: None }
    }

    /// The iteration shown, clamped to the trace.
    pub fn current(&self, trace: &Trace) -> usize {
        let last = trace.len().saturating_sub(1);
        self.cursor.unwrap_or(last).min(last)
    }

    /// Steps the shown iteration by `delta`, stopping at the ends.
    pub fn step(&mut self, trace: &Trace, delta: i64) {
        let last = trace.len().saturating_sub(1) as i64;
        let i = (self.current(trace) as i64 + delta).clamp(0, last) as usize;
        self.cursor = if i as i64 == last { None } else { Some(i) };
    }

    /// Jumps to the first iteration.
    pub fn first(&mut self) {
        self.cursor = Some(0);
    }

    /// Jumps to (and follows) the last iteration.
    pub fn last(&mut self) {
        self.cursor = None;
    }

    /// Runs the traced GJK/EPA query on the pair. `None` if a body is gone.
    pub fn trace(&self, world: &World) -> Option<Trace> {
        let ba = world.body(self.a)?;
        let bb = world.body(self.b)?;
        let (sa, sb) = (ba.shape(), bb.shape());
        let (xa, xb) = (ba.transform(), bb.transform());
        let mut gjk = Vec::new();
        let mut epa_steps = Vec::new();
        let c = epa::contact(sa, &xa, sb, &xb, None, Some((&mut gjk, &mut epa_steps)));
        let (pa, pb) = c.points();
        let outcome = match c {
            CoreContact::Separated { distance, .. } => Outcome::Separated {
                distance,
                point_a: xa.apply(pa),
                point_b: xa.apply(pb),
            },
            CoreContact::Penetrating { depth, normal, .. } => Outcome::Penetrating {
                depth,
                normal: xa.rot.apply(normal),
                point_a: xa.apply(pa),
                point_b: xa.apply(pb),
            },
        };
        let dirs = directions(sa, &xa, sb, &xb);
        let diff = |d: Vec2, full: bool| {
            let (la, lb) = (xa.rot.apply_inv(-d), xb.rot.apply_inv(d));
            let (wa, wb) = if full {
                (sa.local_support(la), sb.local_support(lb))
            } else {
                (sa.local_core_support(la), sb.local_core_support(lb))
            };
            xb.apply(wb) - xa.apply(wa)
        };
        let core: Vec<Vec2> = dirs.iter().map(|d| diff(*d, false)).collect();
        let full: Vec<Vec2> = dirs.iter().map(|d| diff(*d, true)).collect();
        let name = |id: BodyId, s: &Shape| format!("{id} {}", s.kind_name());
        Some(Trace {
            gjk,
            epa: epa_steps,
            outcome,
            core_hull: convex_hull(core),
            full_hull: convex_hull(full),
            radius_sum: sa.core_radius() + sb.core_radius(),
            names: (name(self.a, sa), name(self.b, sb)),
        })
    }
}

/// Uniform directions plus, for polygons (and rounded polygons' cores),
/// directions just either side of each face normal, so the core difference's
/// exact vertices are all hit.
fn directions(sa: &Shape, xa: &Iso, sb: &Shape, xb: &Iso) -> Vec<Vec2> {
    let mut dirs: Vec<Vec2> = (0..SAMPLES)
        .map(|i| {
            let a = i as f32 / SAMPLES as f32 * std::f32::consts::TAU;
            Vec2::new(a.cos(), a.sin())
        })
        .collect();
    let mut near = |n: Vec2| {
        for eps in [-1e-3f32, 1e-3] {
            let (s, c) = eps.sin_cos();
            dirs.push(Vec2::new(n.x * c - n.y * s, n.x * s + n.y * c));
        }
    };
    if let Shape::Polygon(p) | Shape::RoundedPolygon { core: p, .. } = sa {
        // Support of B − A along d uses A's support along −d.
        for n in p.normals() {
            near(-xa.rot.apply(*n));
        }
    }
    if let Shape::Polygon(p) | Shape::RoundedPolygon { core: p, .. } = sb {
        for n in p.normals() {
            near(xb.rot.apply(*n));
        }
    }
    dirs
}

/// Convex hull (Andrew's monotone chain), counter-clockwise, no collinear points.
pub fn convex_hull(mut pts: Vec<Vec2>) -> Vec<Vec2> {
    pts.retain(|p| p.is_finite());
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup_by(|a, b| (*a - *b).length_squared() < 1e-12);
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<Vec2> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 1e-9 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Vec2> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 1e-9 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Maps the difference space (m) into a square of the panel (pixels).
struct Plot {
    center: Vec2,
    scale: f32,
    origin_px: Vec2,
}

impl Plot {
    fn px(&self, p: Vec2) -> Vec2 {
        self.origin_px + Vec2::new(p.x - self.center.x, self.center.y - p.y) * self.scale
    }
}

/// Panel geometry for a screen size: (x, y, w, h).
pub fn panel_rect(screen: Vec2) -> Rect {
    let w = (screen.x * 0.36).clamp(320.0, 470.0);
    let h = screen.y - super::tools::TOOLBAR_H - 16.0;
    Rect::new(screen.x - w - 8.0, 8.0, w, h)
}

/// Draws the inspector panel.
pub fn draw_panel(insp: &Inspector, trace: &Trace, screen: Vec2) {
    let r = panel_rect(screen);
    draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.035, 0.04, 0.055, 1.0));
    draw_rectangle_lines(r.x, r.y, r.w, r.h, 1.0, theme::PANEL_BORDER);
    let pad = 10.0;
    let mut y = r.y + pad;
    theme::text(
        "GJK / EPA inspector",
        r.x + pad,
        y,
        theme::FONT,
        theme::ACCENT,
    );
    y += theme::LINE;
    let names = format!("A = {}    B = {}", trace.names.0, trace.names.1);
    theme::text(&names, r.x + pad, y, theme::FONT_SMALL, theme::TEXT_DIM);
    y += theme::LINE;
    theme::text(
        "B - A (blue) and origin O; GJK gold, EPA red",
        r.x + pad,
        y,
        theme::FONT_SMALL,
        theme::TEXT_DIM,
    );
    y += theme::LINE + 2.0;

    // Diagram.
    let text_h = 10.0 * theme::LINE;
    let side = (r.w - 2.0 * pad)
        .min(r.h - (y - r.y) - text_h - pad)
        .max(80.0);
    let box_ = Rect::new(r.x + (r.w - side) * 0.5, y, side, side);
    draw_rectangle(
        box_.x,
        box_.y,
        box_.w,
        box_.h,
        Color::new(1.0, 1.0, 1.0, 0.02),
    );
    draw_rectangle_lines(box_.x, box_.y, box_.w, box_.h, 1.0, theme::PANEL_BORDER);
    let step = insp.current(trace);
    draw_diagram(trace, step, box_);
    y += side + 8.0;

    // Timeline: one tick per iteration, GJK's then EPA's.
    let n = trace.len().max(1);
    let tw = ((r.w - 2.0 * pad) / n as f32).min(22.0);
    for i in 0..trace.len() {
        let is_gjk = i < trace.gjk.len();
        let c = if is_gjk { theme::GJK } else { theme::EPA };
        let c = if i == step { c } else { with_alpha(c, 0.3) };
        draw_rectangle(r.x + pad + i as f32 * tw, y, tw - 2.0, 8.0, c);
    }
    y += 14.0;
    let (stage, text_lines) = describe(trace, step);
    theme::text(&stage, r.x + pad, y, theme::FONT, theme::TEXT);
    y += theme::LINE;
    for l in text_lines {
        theme::text(&l, r.x + pad, y, theme::FONT_SMALL, theme::TEXT_DIM);
        y += theme::LINE - 2.0;
    }
    y += 4.0;
    for (l, c) in result_lines(trace) {
        theme::text(&l, r.x + pad, y, theme::FONT_SMALL, c);
        y += theme::LINE - 2.0;
    }
    let hint = "Left/Right step  Home/End  I close  Shift+arrows rewind";
    theme::text(
        hint,
        r.x + pad,
        r.y + r.h - pad - theme::LINE + 4.0,
        theme::FONT_SMALL,
        theme::TEXT_DIM,
    );
}

fn fmt_v(v: Vec2) -> String {
    format!("({:.3}, {:.3})", v.x, v.y)
}

fn describe(trace: &Trace, step: usize) -> (String, Vec<String>) {
    if trace.len() == 0 {
        return ("no iterations recorded".into(), vec![]);
    }
    if step < trace.gjk.len() {
        let s = &trace.gjk[step];
        let kind = match s.simplex.len() {
            1 => "a point",
            2 => "a segment",
            _ => "a triangle",
        };
        let mut lines = vec![format!(
            "simplex: {kind}; closest point to O at distance {:.4}",
            s.closest.length()
        )];
        if s.direction == Vec2::ZERO {
            lines.push("the simplex encloses O: the cores overlap".into());
            if !trace.epa.is_empty() {
                lines.push("EPA takes over from this triangle".into());
            }
        } else {
            lines.push(format!(
                "search direction d = -closest = {}",
                fmt_v(s.direction.normalize_or_zero())
            ));
            match s.support {
                Some(w) => lines.push(format!(
                    "support along d: {}  (gain {:.4})",
                    fmt_v(w),
                    (w - s.closest).dot(s.direction.normalize_or_zero())
                )),
                None => lines.push("no further progress: converged".into()),
            }
        }
        (
            format!("GJK iteration {} of {}", step + 1, trace.gjk.len()),
            lines,
        )
    } else {
        let k = step - trace.gjk.len();
        let s = &trace.epa[k];
        let reach = s.support.dot(s.normal);
        let lines = vec![
            format!("polytope: {} vertices", s.polytope.len()),
            format!(
                "nearest edge at distance {:.4}, normal {}",
                s.distance,
                fmt_v(s.normal)
            ),
            format!(
                "support along normal reaches {:.4} (gap {:.2e})",
                reach,
                reach - s.distance
            ),
        ];
        (
            format!("EPA iteration {} of {}", k + 1, trace.epa.len()),
            lines,
        )
    }
}

fn result_lines(trace: &Trace) -> Vec<(String, Color)> {
    let mut out = Vec::new();
    match trace.outcome {
        Outcome::Separated {
            distance,
            point_a,
            point_b,
        } => {
            out.push((
                format!("Result: separated, distance {distance:.4} m"),
                theme::OK,
            ));
            out.push((
                format!("closest A {}  B {}", fmt_v(point_a), fmt_v(point_b)),
                theme::TEXT,
            ));
        }
        Outcome::Penetrating { depth, normal, .. } => {
            out.push((
                format!("Result: penetrating, depth {depth:.4} m"),
                theme::ERROR,
            ));
            out.push((format!("normal A->B {}", fmt_v(normal)), theme::TEXT));
        }
    }
    if trace.radius_sum > 0.0 {
        out.push((
            format!(
                "cores only; rounding radii add {:.3} m (light band)",
                trace.radius_sum
            ),
            theme::TEXT_DIM,
        ));
    }
    out
}

fn draw_diagram(trace: &Trace, step: usize, area: Rect) {
    // Fit the difference and the origin.
    let mut lo = Vec2::ZERO;
    let mut hi = Vec2::ZERO;
    for p in trace.full_hull.iter().chain(&trace.core_hull) {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let size = (hi - lo).max(Vec2::splat(1e-3));
    let scale = (area.w.min(area.h) * 0.86) / size.x.max(size.y);
    let plot = Plot {
        center: (lo + hi) * 0.5,
        scale,
        origin_px: Vec2::new(area.x + area.w * 0.5, area.y + area.h * 0.5),
    };
    // Axes through O.
    let o = plot.px(Vec2::ZERO);
    if o.x > area.x && o.x < area.x + area.w {
        draw_line(o.x, area.y, o.x, area.y + area.h, 1.0, theme::AXIS);
    }
    if o.y > area.y && o.y < area.y + area.h {
        draw_line(area.x, o.y, area.x + area.w, o.y, 1.0, theme::AXIS);
    }
    // The difference: rounded band, then the core.
    let full: Vec<Vec2> = trace.full_hull.iter().map(|p| plot.px(*p)).collect();
    let core: Vec<Vec2> = trace.core_hull.iter().map(|p| plot.px(*p)).collect();
    if trace.radius_sum > 0.0 {
        fill_convex(&full, with_alpha(theme::MD_FILL, 0.10));
        stroke_closed(&full, 1.0, theme::MD_ROUNDED);
    }
    match core.len() {
        0 => {}
        1 => draw_circle(core[0].x, core[0].y, 4.0, theme::MD_EDGE),
        2 => draw_line(
            core[0].x,
            core[0].y,
            core[1].x,
            core[1].y,
            2.0,
            theme::MD_EDGE,
        ),
        _ => {
            fill_convex(&core, theme::MD_FILL);
            stroke_closed(&core, 1.5, theme::MD_EDGE);
        }
    }

    if step < trace.gjk.len() {
        let s = &trace.gjk[step];
        let pts: Vec<Vec2> = s.simplex.iter().map(|p| plot.px(*p)).collect();
        if pts.len() == 3 {
            fill_convex(&pts, with_alpha(theme::GJK, 0.18));
        }
        if pts.len() >= 2 {
            stroke_closed(&pts, 2.0, theme::GJK);
        }
        for (i, p) in pts.iter().enumerate() {
            draw_circle(p.x, p.y, 4.0, theme::GJK);
            theme::text(
                &format!("w{i}"),
                p.x + 5.0,
                p.y - 16.0,
                theme::FONT_SMALL,
                theme::GJK,
            );
        }
        let c = plot.px(s.closest);
        theme::dashed(o, c, 4.0, 1.0, theme::TEXT_DIM);
        draw_circle_lines(c.x, c.y, 5.0, 1.5, theme::TEXT);
        if s.direction != Vec2::ZERO {
            let d = s.direction.normalize_or_zero();
            let tip = c + Vec2::new(d.x, -d.y) * 46.0;
            theme::arrow(c, tip, 1.5, theme::SUPPORT);
            theme::text(
                "d",
                tip.x + 4.0,
                tip.y - 8.0,
                theme::FONT_SMALL,
                theme::SUPPORT,
            );
        }
        if let Some(w) = s.support {
            let p = plot.px(w);
            draw_circle(p.x, p.y, 5.0, theme::SUPPORT);
            theme::text(
                "support",
                p.x + 7.0,
                p.y + 2.0,
                theme::FONT_SMALL,
                theme::SUPPORT,
            );
        }
    } else if step - trace.gjk.len() < trace.epa.len() {
        let s = &trace.epa[step - trace.gjk.len()];
        let pts: Vec<Vec2> = s.polytope.iter().map(|p| plot.px(*p)).collect();
        fill_convex(&pts, with_alpha(theme::EPA, 0.16));
        stroke_closed(&pts, 1.5, theme::EPA);
        for p in &pts {
            draw_circle(p.x, p.y, 3.0, theme::EPA);
        }
        let (a, b) = (plot.px(s.edge.0), plot.px(s.edge.1));
        draw_line(a.x, a.y, b.x, b.y, 4.0, theme::ACCENT);
        let foot = plot.px(s.normal * s.distance);
        theme::arrow(o, foot, 1.5, theme::ACCENT);
        let w = plot.px(s.support);
        theme::dashed(foot, w, 4.0, 1.0, theme::SUPPORT);
        draw_circle(w.x, w.y, 5.0, theme::SUPPORT);
        theme::text(
            "support",
            w.x + 7.0,
            w.y + 2.0,
            theme::FONT_SMALL,
            theme::SUPPORT,
        );
    }

    // The answer, once the last iteration is shown.
    if step + 1 >= trace.len() {
        let (pa, pb, color) = match trace.outcome {
            Outcome::Separated {
                point_a, point_b, ..
            } => (point_a, point_b, theme::OK),
            Outcome::Penetrating {
                point_a, point_b, ..
            } => (point_a, point_b, theme::ERROR),
        };
        let q = plot.px(pb - pa);
        theme::arrow(o, q, 2.5, color);
    }
    // The origin on top.
    draw_circle(o.x, o.y, 4.5, theme::TEXT);
    draw_circle(o.x, o.y, 2.5, theme::BACKGROUND);
    theme::text("O", o.x + 6.0, o.y + 3.0, theme::FONT, theme::TEXT);
}

/// Draws the witness points on the bodies in the world view and labels A and B.
pub fn draw_in_world(cam: &Camera, world: &World, insp: &Inspector, trace: &Trace) {
    for (id, label) in [(insp.a, "A"), (insp.b, "B")] {
        if let Some(b) = world.body(id) {
            let p = cam.to_screen(b.center_of_mass());
            theme::text(label, p.x + 6.0, p.y - 22.0, theme::FONT, theme::SELECTED);
        }
    }
    let (pa, pb, color) = match trace.outcome {
        Outcome::Separated {
            point_a, point_b, ..
        } => (point_a, point_b, theme::OK),
        Outcome::Penetrating {
            point_a, point_b, ..
        } => (point_a, point_b, theme::ERROR),
    };
    let (a, b) = (cam.to_screen(pa), cam.to_screen(pb));
    draw_line(a.x, a.y, b.x, b.y, 2.0, color);
    draw_circle(a.x, a.y, 4.0, color);
    draw_circle(b.x, b.y, 4.0, color);
}

#[cfg(test)]
mod tests;
