//! TEMPORARY brute-force stand-in with the sweep-and-prune API; replaced by the
//! real incremental SAP from the broadphase branch before landing.

use crate::collision::Aabb;
use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// Broadphase settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SapConfig {
    /// Fat margin (m).
    pub margin: f32,
    /// Look-ahead (s).
    pub velocity_stretch: f32,
}

impl Default for SapConfig {
    fn default() -> Self {
        SapConfig {
            margin: 0.1,
            velocity_stretch: 1.0,
        }
    }
}

/// Stand-in broadphase.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SweepAndPrune {
    config: SapConfig,
    boxes: Vec<Option<(Aabb, bool)>>,
    pairs: Vec<(u32, u32)>,
}

impl SweepAndPrune {
    /// New.
    pub fn new(config: SapConfig) -> Self {
        SweepAndPrune {
            config,
            ..Default::default()
        }
    }
    /// Insert.
    pub fn insert(&mut self, id: u32, tight: Aabb, is_static: bool) {
        let i = id as usize;
        if self.boxes.len() <= i {
            self.boxes.resize(i + 1, None);
        }
        self.boxes[i] = Some((tight.expanded(self.config.margin), is_static));
    }
    /// Update.
    pub fn update(&mut self, id: u32, tight: Aabb, displacement: Vec2) -> bool {
        let Some(Some((fat, s))) = self.boxes.get(id as usize).copied() else {
            return false;
        };
        if fat.contains(&tight) {
            let moved = Aabb::new(
                tight.min + displacement.min(Vec2::ZERO),
                tight.max + displacement.max(Vec2::ZERO),
            );
            if fat.contains(&moved) {
                return false;
            }
        }
        let d = displacement * self.config.velocity_stretch;
        let fat = Aabb::new(tight.min + d.min(Vec2::ZERO), tight.max + d.max(Vec2::ZERO))
            .expanded(self.config.margin);
        self.boxes[id as usize] = Some((fat, s));
        true
    }
    /// Remove.
    pub fn remove(&mut self, id: u32) {
        if let Some(b) = self.boxes.get_mut(id as usize) {
            *b = None;
        }
    }
    /// Static flag.
    pub fn set_static(&mut self, id: u32, is_static: bool) {
        if let Some(Some(b)) = self.boxes.get_mut(id as usize) {
            b.1 = is_static;
        }
    }
    /// Pairs.
    pub fn update_pairs(&mut self) {
        self.pairs.clear();
        for i in 0..self.boxes.len() {
            let Some((a, sa)) = self.boxes[i] else {
                continue;
            };
            for j in i + 1..self.boxes.len() {
                let Some((b, sb)) = self.boxes[j] else {
                    continue;
                };
                if !(sa && sb) && a.overlaps(&b) {
                    self.pairs.push((i as u32, j as u32));
                }
            }
        }
    }
    /// Pairs.
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }
    /// Fat box.
    pub fn fat_aabb(&self, id: u32) -> Option<Aabb> {
        self.boxes.get(id as usize).copied().flatten().map(|b| b.0)
    }
    /// Query.
    pub fn query(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        for (i, b) in self.boxes.iter().enumerate() {
            if let Some((fat, _)) = b {
                if fat.overlaps(aabb) {
                    out.push(i as u32);
                }
            }
        }
    }
}
