//! Drawing the world: a metre grid, and every body filled and outlined in the
//! colour of its state, with a rotation mark from its origin to its local +x side.

use super::camera::Camera;
use super::theme::{self, shade, with_alpha};
use macroquad::prelude::*;
use minkowski::{Body, BodyId, BodyKind, Iso, Shape, SupportMap, World};

/// The outline of a shape placed at `xf`, as world points in counter-clockwise
/// order. Curved parts are tessellated finely enough for `px_per_m` pixels per metre.
pub fn outline(shape: &Shape, xf: &Iso, px_per_m: f32) -> Vec<Vec2> {
    // Segments for a full turn of a curve of radius r: about one per 4 px.
    let segs = |r: f32| ((std::f32::consts::TAU * r * px_per_m / 4.0) as usize).clamp(12, 96);
    match shape {
        Shape::Circle { radius } => {
            let n = segs(*radius);
            (0..n)
                .map(|i| {
                    let a = i as f32 / n as f32 * std::f32::consts::TAU;
                    xf.apply(Vec2::new(a.cos(), a.sin()) * *radius)
                })
                .collect()
        }
        Shape::Capsule {
            half_height,
            radius,
        } => {
            let n = segs(*radius) / 2 + 1;
            let mut pts = Vec::with_capacity(2 * n);
            // Top cap (centre (0, h)) from angle 0 to π, then bottom cap from π to 2π.
            for (cy, a0) in [(*half_height, 0.0f32), (-half_height, std::f32::consts::PI)] {
                for i in 0..n {
                    let a = a0 + i as f32 / (n - 1) as f32 * std::f32::consts::PI;
                    pts.push(xf.apply(Vec2::new(a.cos() * radius, cy + a.sin() * radius)));
                }
            }
            pts
        }
        Shape::Polygon(p) => p.vertices().iter().map(|v| xf.apply(*v)).collect(),
        Shape::RoundedPolygon { core, radius } => {
            // Around each vertex, the arc from the previous edge's normal to
            // the next one's; the straight offset edges join the arcs' ends.
            let (vs, ns) = (core.vertices(), core.normals());
            let full = segs(*radius) as f32;
            let mut pts = Vec::new();
            for (i, v) in vs.iter().enumerate() {
                let n0 = ns[(i + vs.len() - 1) % vs.len()];
                let n1 = ns[i];
                let a0 = n0.y.atan2(n0.x);
                let turn = n0.perp_dot(n1).atan2(n0.dot(n1));
                let k = ((full * turn / std::f32::consts::TAU).ceil() as usize).max(1);
                for j in 0..=k {
                    let a = a0 + turn * j as f32 / k as f32;
                    pts.push(xf.apply(*v + Vec2::new(a.cos(), a.sin()) * *radius));
                }
            }
            pts
        }
        Shape::Ellipse { rx, ry } => {
            let n = segs(rx.max(*ry));
            (0..n)
                .map(|i| {
                    let a = i as f32 / n as f32 * std::f32::consts::TAU;
                    xf.apply(Vec2::new(a.cos() * rx, a.sin() * ry))
                })
                .collect()
        }
        // No area: the two ends (drawn as a line by `body`).
        Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
            vec![xf.apply(*a), xf.apply(*b)]
        }
    }
}

/// Fills a convex polygon given in screen pixels (a triangle fan).
pub fn fill_convex(pts: &[Vec2], color: Color) {
    if pts.len() < 3 {
        return;
    }
    for i in 1..pts.len() - 1 {
        draw_triangle(pts[0], pts[i], pts[i + 1], color);
    }
}

/// Strokes a closed polyline given in screen pixels.
pub fn stroke_closed(pts: &[Vec2], thickness: f32, color: Color) {
    for i in 0..pts.len() {
        let a = pts[i];
        let b = pts[(i + 1) % pts.len()];
        draw_line(a.x, a.y, b.x, b.y, thickness, color);
    }
}

/// The state colour of a body.
pub fn body_color(body: &Body) -> Color {
    if body.is_frozen() {
        return theme::FROZEN;
    }
    if body.is_buried() {
        return theme::BURIED;
    }
    match body.kind() {
        BodyKind::Static => theme::STATIC,
        BodyKind::Kinematic => theme::KINEMATIC,
        BodyKind::Dynamic if body.is_awake() => theme::AWAKE,
        BodyKind::Dynamic => theme::ASLEEP,
    }
}

/// Draws the metre grid and the world axes behind everything.
pub fn grid(cam: &Camera) {
    let view = cam.view();
    // Pick a grid step that keeps lines at least ~24 px apart.
    let mut step = 1.0f32;
    while step * cam.scale < 24.0 {
        step *= 5.0;
    }
    while step * cam.scale > 120.0 && step > 0.2 {
        step /= 5.0;
    }
    let x0 = (view.min.x / step).floor() as i64;
    let x1 = (view.max.x / step).ceil() as i64;
    let y0 = (view.min.y / step).floor() as i64;
    let y1 = (view.max.y / step).ceil() as i64;
    if (x1 - x0) > 400 || (y1 - y0) > 400 {
        return;
    }
    for i in x0..=x1 {
        let x = cam.to_screen(Vec2::new(i as f32 * step, 0.0)).x;
        let c = if i == 0 { theme::AXIS } else { theme::GRID };
        draw_line(x, 0.0, x, cam.screen.y, 1.0, c);
    }
    for j in y0..=y1 {
        let y = cam.to_screen(Vec2::new(0.0, j as f32 * step)).y;
        let c = if j == 0 { theme::AXIS } else { theme::GRID };
        draw_line(0.0, y, cam.screen.x, y, 1.0, c);
    }
}

/// Draws one body: fill, outline and rotation mark.
pub fn body(cam: &Camera, body: &Body, selected: bool) {
    let xf = body.transform();
    let base = body_color(body);
    // Level of detail: a body a few pixels across is drawn as a dot.
    let r_px = match body.colliders() {
        [c] => c.shape().bounding_radius() * cam.scale,
        _ => 0.5 * (body.aabb().max - body.aabb().min).length() * cam.scale,
    };
    if r_px < 2.5 && !selected {
        let c = cam.to_screen(body.center_of_mass());
        let h = r_px.max(0.75);
        draw_rectangle(c.x - h, c.y - h, 2.0 * h, 2.0 * h, shade(base, 0.1));
        return;
    }
    let fill = with_alpha(shade(base, -0.35), 0.85);
    let edge = if selected {
        theme::SELECTED
    } else {
        shade(base, 0.25)
    };
    let thickness = if selected { 3.0 } else { 1.5 };
    // Every shape (a compound's pieces each filled and outlined).
    for collider in body.colliders() {
        let pts: Vec<Vec2> = outline(collider.shape(), &collider.pose(&xf), cam.scale)
            .into_iter()
            .map(|p| cam.to_screen(p))
            .collect();
        if let [a, b] = pts[..] {
            // A segment: a line; a chain segment long enough on screen also
            // marks its front (the colliding side) with two short ticks
            // along its right normal.
            draw_line(a.x, a.y, b.x, b.y, thickness + 1.5, edge);
            let long = a.distance(b) > 24.0;
            if matches!(collider.shape(), Shape::ChainSegment { .. }) && long {
                // Screen y points down: the right normal of a→b on screen
                // is the world's left, so turn the other way.
                let n = Vec2::new(-(b - a).y, (b - a).x).normalize_or_zero() * 5.0;
                for k in [0.25f32, 0.75] {
                    let m = a.lerp(b, k);
                    draw_line(m.x, m.y, m.x + n.x, m.y + n.y, 1.0, with_alpha(edge, 0.6));
                }
            }
            continue;
        }
        // Fan from the centroid of the outline (convex shapes: always inside).
        let c = pts.iter().copied().sum::<Vec2>() / pts.len().max(1) as f32;
        // A sensor is a translucent zone that lights up while occupied.
        let (fill, edge) = if collider.is_sensor() {
            let lit = collider.visitor_count() > 0;
            let tint = if lit {
                theme::SENSOR_LIT
            } else {
                theme::SENSOR
            };
            (with_alpha(tint, if lit { 0.35 } else { 0.15 }), tint)
        } else {
            (fill, edge)
        };
        for i in 0..pts.len() {
            draw_triangle(c, pts[i], pts[(i + 1) % pts.len()], fill);
        }
        stroke_closed(&pts, thickness, edge);
    }
    // Rotation mark: from the centre of mass to the boundary along local +x.
    let lc = xf.apply_inv(body.center_of_mass());
    let reach = match body.shape() {
        Shape::Circle { radius } | Shape::Capsule { radius, .. } => *radius,
        Shape::Ellipse { rx, .. } => *rx,
        Shape::Segment { .. } | Shape::ChainSegment { .. } => 0.0,
        Shape::Polygon(p) | Shape::RoundedPolygon { core: p, .. } => {
            // Where the ray lc + t·x leaves the polygon: the smallest exit
            // over the faces (moved out by the rounding radius, if any).
            let r = body.shape().core_radius();
            let mut t = f32::INFINITY;
            for (v, n) in p.vertices().iter().zip(p.normals()) {
                if n.x > 1e-6 {
                    t = t.min((n.dot(*v - lc) + r) / n.x);
                }
            }
            if t.is_finite() {
                t.max(0.0)
            } else {
                0.0
            }
        }
    };
    if r_px < 6.0 {
        return;
    }
    let origin = body.center_of_mass();
    // Long bodies (grounds, walls) get a short mark rather than a line across.
    let tip = lc + Vec2::new((reach * 0.92).min(1.0), 0.0);
    let a = cam.to_screen(origin);
    let b = cam.to_screen(xf.apply(tip));
    draw_line(a.x, a.y, b.x, b.y, 1.5, with_alpha(edge, 0.9));
    draw_circle(a.x, a.y, 2.0, with_alpha(edge, 0.9));
}

/// Draws every body, static ones first so moving bodies sit on top.
pub fn world(cam: &Camera, world: &World, selected: &[BodyId]) {
    let view = cam.view();
    for pass in [true, false] {
        for (id, b) in world.bodies() {
            if (b.kind() == BodyKind::Static) != pass || !b.aabb().overlaps(&view) {
                continue;
            }
            body(cam, b, selected.contains(&id));
        }
    }
}
