//! Waking sleeping islands: a body that is touched, moved or pushed wakes
//! its island, and the islands it touches.

use super::*;

impl World {
    pub(crate) fn wake(&mut self, index: u32) {
        let island = match self.slots[index as usize].body.as_ref() {
            Some(b) if !b.awake && b.kind != BodyKind::Static && !b.frozen => b.sleep_island,
            Some(b) if b.awake => {
                if let Some(b) = self.slots[index as usize].body.as_mut() {
                    b.sleep_time = 0.0;
                }
                return;
            }
            _ => return,
        };
        self.wake_islands(&[island]);
    }

    /// Wakes every sleeping body of the given islands (one pass over the bodies).
    pub(crate) fn wake_islands(&mut self, islands: &[u32]) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            if let Some(b) = s.body.as_mut() {
                if !b.awake
                    && b.kind != BodyKind::Static
                    && !b.frozen
                    && islands.contains(&b.sleep_island)
                {
                    b.awake = true;
                    b.sleep_time = 0.0;
                    self.scratch.woken.push(i as u32);
                }
            }
        }
    }

    pub(super) fn wake_touching(&mut self, index: u32) {
        let mut islands = Vec::new();
        for c in self.contacts.iter() {
            let other = if c.body_a == index {
                c.body_b
            } else if c.body_b == index {
                c.body_a
            } else {
                continue;
            };
            if let Some(b) = self.slots[other as usize].body.as_ref() {
                if !b.awake && b.kind == BodyKind::Dynamic {
                    islands.push(b.sleep_island);
                }
            }
        }
        if !islands.is_empty() {
            islands.sort_unstable();
            islands.dedup();
            self.wake_islands(&islands);
        }
    }

    pub(super) fn wake_all(&mut self) {
        for s in &mut self.slots {
            if let Some(b) = s.body.as_mut() {
                if b.kind != BodyKind::Static && !b.frozen {
                    b.awake = true;
                    b.sleep_time = 0.0;
                }
            }
        }
    }
}
