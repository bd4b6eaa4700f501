//! Mass properties from density, with the closed forms written out.

use super::Shape;
use crate::math::{Iso, Vec2};
use serde::{Deserialize, Serialize};
use std::f32::consts::PI;

/// Mass (kg), centroid (local frame, m) and rotational inertia about the centroid (kg·m²).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct MassProperties {
    /// Mass in kg.
    pub mass: f32,
    /// Centre of mass in the shape's local frame.
    pub centroid: Vec2,
    /// Moment of inertia about the centre of mass.
    pub inertia: f32,
}

impl MassProperties {
    /// The mass properties of several parts of one body, each given in its
    /// own frame and placed in the body's frame by its transform: masses add,
    /// the centroid is the mass-weighted mean, and each part's inertia moves
    /// to the common centroid by the parallel-axis theorem. Summed in `f64`.
    /// Parts without mass give a mass-less result whose centroid is the mean
    /// of the parts' centroids.
    pub fn combine(parts: &[(MassProperties, Iso)]) -> MassProperties {
        let placed: Vec<(f64, [f64; 2], f64)> = parts
            .iter()
            .map(|(mp, xf)| {
                let c = xf.apply(mp.centroid);
                (mp.mass as f64, [c.x as f64, c.y as f64], mp.inertia as f64)
            })
            .collect();
        let mass: f64 = placed.iter().map(|p| p.0).sum();
        let weight = |p: &(f64, [f64; 2], f64)| {
            if mass > 0.0 {
                p.0 / mass
            } else {
                1.0 / placed.len().max(1) as f64
            }
        };
        let cx: f64 = placed.iter().map(|p| weight(p) * p.1[0]).sum();
        let cy: f64 = placed.iter().map(|p| weight(p) * p.1[1]).sum();
        let inertia: f64 = placed
            .iter()
            .map(|p| {
                let (dx, dy) = (p.1[0] - cx, p.1[1] - cy);
                p.2 + p.0 * (dx * dx + dy * dy)
            })
            .sum();
        MassProperties {
            mass: mass as f32,
            centroid: Vec2::new(cx as f32, cy as f32),
            inertia: inertia as f32,
        }
    }
}

pub(super) fn compute(shape: &Shape, density: f32) -> MassProperties {
    match shape {
        Shape::Circle { radius } => {
            // Disc: m = ρπr², I = m r² / 2.
            let m = density * PI * radius * radius;
            MassProperties {
                mass: m,
                centroid: Vec2::ZERO,
                inertia: 0.5 * m * radius * radius,
            }
        }
        Shape::Capsule {
            half_height,
            radius,
        } => {
            // A 2r × 2h rectangle plus two half discs at y = ±h.
            let (h, r) = (*half_height, *radius);
            let rect_m = density * 4.0 * r * h;
            let rect_i = rect_m * (4.0 * r * r + 4.0 * h * h) / 12.0;
            // Each half disc: mass m/2, centroid 4r/(3π) beyond its flat side. Its
            // inertia about its own centroid is (m/2)(r²/2) - (m/2)c², then the
            // parallel axis theorem moves it to distance h + c from the capsule centre.
            let disc_m = density * PI * r * r;
            let c = 4.0 * r / (3.0 * PI);
            let half = 0.5 * disc_m;
            let half_i_own = half * (0.5 * r * r - c * c);
            let half_i = half_i_own + half * (h + c) * (h + c);
            MassProperties {
                mass: rect_m + disc_m,
                centroid: Vec2::ZERO,
                inertia: rect_i + 2.0 * half_i,
            }
        }
        Shape::Polygon(p) => {
            let (area, centroid, moment) = p.area_centroid_moment();
            MassProperties {
                mass: density * area,
                centroid,
                inertia: density * moment,
            }
        }
        Shape::RoundedPolygon { core, radius } => {
            // Core, edge rectangles and corner sectors: see `rounded.rs`.
            let (area, centroid, moment) = super::rounded::area_centroid_moment(core, *radius);
            MassProperties {
                mass: density * area,
                centroid,
                inertia: density * moment,
            }
        }
        Shape::Ellipse { rx, ry } => {
            // m = ρπ rx ry, I = m (rx² + ry²) / 4.
            let m = density * PI * rx * ry;
            MassProperties {
                mass: m,
                centroid: Vec2::ZERO,
                inertia: 0.25 * m * (rx * rx + ry * ry),
            }
        }
        // No area, no mass; the midpoint stands as centroid so that a
        // body's mass-less parts still average somewhere sensible.
        Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => MassProperties {
            mass: 0.0,
            centroid: 0.5 * (*a + *b),
            inertia: 0.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-4 * b.abs().max(1.0)
    }

    #[test]
    fn closed_forms() {
        let c = Shape::circle(0.5).mass_properties(2.0);
        assert!(close(c.mass, 2.0 * PI * 0.25) && close(c.inertia, 0.5 * c.mass * 0.25));

        let b = Shape::rect(1.0, 0.5).mass_properties(3.0);
        assert!(close(b.mass, 6.0) && close(b.inertia, 6.0 * (4.0 + 1.0) / 12.0));

        let e = Shape::ellipse(2.0, 1.0).mass_properties(1.0);
        assert!(close(e.mass, 2.0 * PI) && close(e.inertia, e.mass * 5.0 / 4.0));

        // Capsule with h = 0 is a disc.
        let cap0 = Shape::capsule(1e-6, 0.5).mass_properties(1.0);
        let disc = Shape::circle(0.5).mass_properties(1.0);
        assert!(close(cap0.mass, disc.mass) && close(cap0.inertia, disc.inertia));

        // Right triangle legs a, b: centroid (a/3, b/3), I_c = m (a² + b²) / 18.
        let t = Shape::polygon(&[Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(0.0, 2.0)])
            .unwrap()
            .mass_properties(1.0);
        assert!(close(t.mass, 3.0));
        assert!((t.centroid - Vec2::new(1.0, 2.0 / 3.0)).length() < 1e-5);
        assert!(close(t.inertia, 3.0 * 13.0 / 18.0));
    }

    #[test]
    fn capsule_matches_numerical_integration() {
        let (h, r) = (0.8f32, 0.3f32);
        let s = Shape::capsule(h, r);
        let mp = s.mass_properties(1.0);
        // Midpoint-rule integration over a fine grid with f64 accumulation.
        let n = 800;
        let (w, hh) = (r as f64, (h + r) as f64);
        let (dx, dy) = (2.0 * w / n as f64, 2.0 * hh / n as f64);
        let (mut m, mut i) = (0.0f64, 0.0f64);
        for ix in 0..n {
            for iy in 0..n {
                let x = -w + (ix as f64 + 0.5) * dx;
                let y = -hh + (iy as f64 + 0.5) * dy;
                let cy = y.clamp(-(h as f64), h as f64);
                if x * x + (y - cy) * (y - cy) <= w * w {
                    m += dx * dy;
                    i += dx * dy * (x * x + y * y);
                }
            }
        }
        assert!((mp.mass as f64 - m).abs() / m < 1e-3, "{} vs {m}", mp.mass);
        assert!(
            (mp.inertia as f64 - i).abs() / i < 2e-3,
            "{} vs {i}",
            mp.inertia
        );
    }
}
