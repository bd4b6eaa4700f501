//! `World::step`: the pipeline, one stage per function, in data-flow order.
//!
//! ```text
//! update_aabbs → find_pairs → collide → solve → sleep
//!   tight and      sweep-and-   GJK/EPA,    substeps: integrate velocities,
//!   fat boxes      prune pairs  manifolds   warm start, velocity pass,
//!                  → contacts   (warm-start integrate positions, NGS position
//!                               by feature) pass; then restitution
//! ```
//!
//! Everything runs on one thread, over `Vec`s in index order (the contact
//! passes in bundles packed so that they give the same results, see
//! `dynamics::schedule`): the same world and inputs give bit-identical results
//! on every run and in every profile.

use super::buried::Deep;
use super::motion::{Motion, Visit};
use super::timer::Stopwatch;
use super::world::{Touch, World};
use crate::dynamics::{Body, BodyKind, Collider};
use crate::narrowphase::dispatch;
use crate::shape::Shape;

/// One side of a shape pair: the body and its shape.
pub(super) type Side<'w> = (&'w Body, &'w Collider);

impl World {
    /// Advances the world by one fixed step of `settings().dt` seconds.
    pub fn step(&mut self) {
        let total = Stopwatch::start();
        // Bodies will move: the query cache of shapes outside their fat box
        // is out of date (it is rebuilt by the next query, if any).
        self.strays.take();
        let mut sw = Stopwatch::start();
        self.run_script();
        self.update_aabbs();
        self.timings.update_aabbs = sw.lap();
        self.find_pairs();
        self.timings.broadphase = sw.lap();
        let mut deep = std::mem::take(&mut self.scratch.deep);
        deep.clear();
        self.collide(&mut deep);
        self.report_buried(&mut deep);
        self.scratch.deep = deep;
        self.wake_joined();
        self.restore_woken();
        self.timings.narrowphase = sw.lap();
        self.solve();
        let mut cw = Stopwatch::start();
        self.solve_continuous();
        self.timings.solver_parts.continuous = cw.lap();
        self.timings.solver = sw.lap();
        self.update_sensors();
        self.update_sleep();
        self.timings.sleep = sw.lap();
        self.timings.total = total.elapsed_ms();
        self.step_index += 1;
    }

    /// Stage 1: tight boxes of moving bodies, and their fat boxes in the broadphase
    /// (stretched along this step's expected displacement).
    fn update_aabbs(&mut self) {
        let dt = self.settings.dt;
        let mut motion = std::mem::take(&mut self.scratch.motion);
        motion.clear();
        for slot in self.slots.iter_mut() {
            let Some(b) = slot.body.as_mut() else {
                motion.push(Motion::EMPTY);
                continue;
            };
            motion.push(Motion::of(b));
            if !b.awake || b.frozen {
                continue;
            }
            b.update_aabbs();
            for c in &b.colliders {
                self.broadphase.update(c.proxy, c.aabb, b.v * dt);
            }
        }
        self.scratch.motion = motion;
    }

    /// Stage 2: sweep-and-prune, then merge its sorted pair list with the sorted
    /// contact list so that surviving pairs keep their manifolds (warm start).
    fn find_pairs(&mut self) {
        self.broadphase.update_pairs();
        self.refresh_joined_pairs();
        // A settled scene keeps its pairs: when no pair came or went since
        // the last merge, or the pairs are exactly the contacts' pairs, the
        // merge would rebuild the same list.
        let unchanged = self.broadphase.added().is_empty() && self.broadphase.removed().is_empty();
        if unchanged && self.scratch.contacts_in_sync {
            debug_assert!(self.contacts_are_merged(), "contact list out of sync");
            return;
        }
        // In sync, only the added and removed pairs need a look; otherwise
        // every pair does (see `contact_list`).
        let incremental = self.scratch.contacts_in_sync;
        self.scratch.contacts_in_sync = true;
        if !incremental {
            let pairs = self.broadphase.pairs();
            if self.contacts.keys() == pairs {
                return;
            }
        }
        let mut ended = std::mem::take(&mut self.scratch.ended);
        ended.clear();
        if incremental {
            self.merge_pair_changes(&mut ended);
        } else {
            self.merge_all_pairs(&mut ended);
        }
        debug_assert!(self.contacts_are_merged(), "contact list out of sync");
        for c in &ended {
            self.events.push(self.contact_end(c));
        }
        self.scratch.ended = ended;
    }

    /// Whether the contact list is what merging the broadphase's pairs would
    /// give: the pairs in order, less those that may not collide.
    fn contacts_are_merged(&self) -> bool {
        let mut contacts = self.contacts.keys().iter().copied().peekable();
        for &(a, b) in self.broadphase.pairs() {
            if contacts.peek() == Some(&(a, b)) {
                contacts.next();
            } else if self.pair_shapes(a, b).is_some() {
                return false;
            }
        }
        contacts.next().is_none()
    }

    /// The bodies and shapes of two proxies, when they may collide: shapes
    /// of two different bodies, one of them dynamic, whose filters agree and
    /// that no joint keeps apart.
    pub(super) fn pair_shapes(&self, a: u32, b: u32) -> Option<(Side<'_>, Side<'_>)> {
        let (pa, pb) = (self.proxies[a as usize], self.proxies[b as usize]);
        if pa.body == pb.body {
            return None;
        }
        let ba = self.slots[pa.body as usize].body.as_ref()?;
        let bb = self.slots[pb.body as usize].body.as_ref()?;
        let ca = ba.colliders.get(pa.child as usize)?;
        let cb = bb.colliders.get(pb.child as usize)?;
        let allowed = (ba.kind == BodyKind::Dynamic || bb.kind == BodyKind::Dynamic)
            && !ca.sensor
            && !cb.sensor
            && ca.filter.collides_with(&cb.filter)
            && !self.joined_no_collide(pa.body.min(pb.body), pa.body.max(pb.body));
        allowed.then_some(((ba, ca), (bb, cb)))
    }

    /// Stages 3–4: GJK (speculative distance) or EPA (overlap) and the manifold,
    /// for every pair with an awake body. New points inherit the impulses of last
    /// step's points with the same feature id. Sleeping bodies touched by awake
    /// ones are woken. Deep contacts go to `deep` (see `buried.rs`).
    fn collide(&mut self, deep: &mut Vec<Deep>) {
        let dt = self.settings.dt;
        let base = self.settings.speculative_distance;
        let reuse_margin = self.settings.reuse_margin;
        let mut wake = std::mem::take(&mut self.scratch.wake);
        wake.clear();
        let mut changed = std::mem::take(&mut self.scratch.ended);
        changed.clear();
        let events = self.contact_events;
        let mut touching = std::mem::take(&mut self.scratch.touching);
        let mut keys = std::mem::take(&mut self.scratch.touch_keys);
        keys.clear();
        let mut n = 0;
        let mut resting = 0;
        self.mark_dormant();
        // In list order: the touching list, the deep contacts and the
        // events come out in it.
        for i in 0..self.contacts.len() {
            // At rest: unread, its impulses (if any) stored below. (The
            // contacts a few places on are asked for by the visits that
            // read.)
            if self.scratch.dormant[i] == Visit::Resting {
                resting += 1;
                continue;
            }
            self.prefetch_pairs_ahead(i);
            let k = self.contacts.order()[i];
            if self.passes_over(i) {
                debug_assert!(
                    !self.contacts.has_banked(k),
                    "impulses banked for no points"
                );
                continue;
            }
            debug_assert!(
                self.dormant_matches(i),
                "a contact's bodies are not its proxies'"
            );
            // Last step's impulses, banked by the solver (see `Banked`).
            self.contacts.settle(k);
            let c = &mut self.contacts[k as usize];
            // The smaller shape's bounding radius, read here where the
            // shapes are in cache: the solver's rolling resistance takes
            // it as its lever (0 when a shape is gone).
            let mut lever = 0.0;
            'pair: {
                let touched = c.manifold.count > 0;
                let (Some(ba), Some(bb)) = (
                    self.slots[c.body_a as usize].body.as_ref(),
                    self.slots[c.body_b as usize].body.as_ref(),
                ) else {
                    break 'pair;
                };
                let (Some(sa), Some(sb)) = (
                    ba.colliders.get(c.child_a as usize),
                    bb.colliders.get(c.child_b as usize),
                ) else {
                    deep.extend(World::deep_contact(c, ba, bb));
                    break 'pair;
                };
                lever = sa.shape.bounding_radius().min(sb.shape.bounding_radius());
                let (xa, xb) = (sa.pose(&ba.xf), sb.pose(&bb.xf));
                let moving = Motion::moves;
                if !(moving(ba) || moving(bb)) || ba.frozen || bb.frozen {
                    // The manifold stays as it was; it may still be deep.
                    deep.extend(World::deep_contact(c, ba, bb));
                    break 'pair;
                }
                // Speculative reach: the base distance plus how far the pair can close
                // in one step, so fast bodies meet their contacts before they tunnel.
                let (reach_a, reach_b) = (sa.reach(), sb.reach());
                let closing = (bb.v - ba.v).length() + ba.w.abs() * reach_a + bb.w.abs() * reach_b;
                // Capped at the pair's size: a contact farther than that is
                // the continuous stage's to catch, and a huge reach makes ghost
                // contacts that stop fast bodies short of anything real.
                let speculative = base + (closing * dt).min(reach_a + reach_b);
                // Polygon pairs (rounded or not) that barely moved keep their
                // manifold, remeasured in place with its impulses (see
                // `narrowphase::manifold_cache`); the others are collided with
                // some extra reach, so that theirs can be kept next time. New
                // points inherit the impulses of last step's points with the
                // same feature id.
                let polygonal =
                    |s: &Shape| matches!(s, Shape::Polygon(_) | Shape::RoundedPolygon { .. });
                let reusable = reuse_margin > 0.0 && polygonal(&sa.shape) && polygonal(&sb.shape);
                let kept = reusable
                    && c.reuse.refresh(
                        &xa,
                        &xb,
                        sb.shape.bounding_radius(),
                        speculative,
                        &mut c.manifold,
                        &mut c.features,
                    );
                if !kept {
                    let reach = if reusable {
                        speculative + reuse_margin
                    } else {
                        speculative
                    };
                    let (mut m, features) = dispatch::collide_with_features(
                        &sa.shape,
                        &xa,
                        &sb.shape,
                        &xb,
                        reach,
                        &mut c.cache,
                        self.settings.polygon_sat,
                    );
                    if reusable {
                        c.reuse.store(&m, &features, &xa, &xb, reach);
                    } else {
                        c.reuse.clear();
                    }
                    for p in &mut m.points[..m.count] {
                        if let Some(old) = c.manifold.points().iter().find(|o| o.id == p.id) {
                            p.normal_impulse = old.normal_impulse;
                            p.tangent_impulse = old.tangent_impulse;
                        }
                    }
                    if m.count == 1
                        && c.manifold.count == 1
                        && m.points[0].id == c.manifold.points[0].id
                    {
                        m.rolling_impulse = c.manifold.rolling_impulse;
                    }
                    c.manifold = m;
                    c.features = features;
                }
                if events && touched != (c.manifold.count > 0) {
                    changed.push(*c);
                }
                deep.extend(World::deep_contact(c, ba, bb));
                // A sleeping body is woken by every contact point a moving
                // body has with it, speculative ones included: the solver
                // treats a sleeping body as static, so a body arriving fast
                // would otherwise stop dead against it, and the impulse that
                // stopped it would then be warm-started onto the woken body
                // next step (a 512 kg box at 40 m/s into sleeping 0.16 kg
                // boxes threw them at 5 000 m/s and more). A gap that the
                // pair's velocities at the start of the step cannot close is
                // no exception: a body sped up within the step, by an impact
                // behind it, closes it (`smash` lost 0.08 % of its momentum
                // to such gaps while only those were woken).
                if c.manifold.count > 0 {
                    for (x, y) in [(ba, bb), (bb, ba)] {
                        if !x.awake && x.kind == BodyKind::Dynamic && moving(y) {
                            wake.push(x.sleep_island);
                        }
                    }
                }
            }
            if c.manifold.count > 0 {
                Touch::put(&mut touching, &mut keys, n, k, c, lever);
                n += 1;
            }
        }
        // What the loop did not settle: the contacts at rest whose bodies
        // fell asleep at the end of last step.
        if resting > 0 {
            self.contacts.settle_all();
        } else {
            self.contacts.close_bank();
        }
        touching.truncate(n);
        self.scratch.touching = touching;
        self.scratch.touch_keys = keys;
        self.scratch.resting = resting;
        if !wake.is_empty() {
            wake.sort_unstable();
            wake.dedup();
            self.wake_islands(&wake);
        }
        self.scratch.wake = wake;
        for c in &changed {
            if c.manifold.count > 0 {
                let begin = self.contact_begin(c);
                let hit = self.contact_hit(c);
                self.events.push(begin);
                self.events.extend(hit);
            } else {
                let end = self.contact_end(c);
                self.events.push(end);
            }
        }
        self.scratch.ended = changed;
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamics::{BodyDef, BodyKind};
    use crate::math::Vec2;
    use crate::shape::Shape;
    use crate::world::{World, WorldSettings};

    /// With no time to rest first (`time_to_sleep` 0), an island sleeps at
    /// the end of its step, however fast it moves, as it did before the
    /// islands were skipped while no body had rested long enough.
    #[test]
    fn no_time_to_sleep_puts_a_thrown_body_to_sleep_at_once() {
        for (time, asleep) in [(0.0, true), (0.5, false)] {
            let mut w = World::new(WorldSettings {
                time_to_sleep: time,
                ..WorldSettings::default()
            });
            let id = w
                .add_body(
                    BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 10.0))
                        .velocity(Vec2::new(10.0, 0.0)),
                )
                .unwrap();
            w.step();
            assert_eq!(!w.body(id).unwrap().awake, asleep, "{time}");
        }
    }

    /// The step keeps its contact list when no pair came or went; through
    /// removals, additions and settling, the list must
    /// stay what a full merge of the pairs gives.
    #[test]
    fn the_contact_list_stays_merged_through_edits() {
        let mut w = World::new(WorldSettings::default());
        let ground = BodyDef::new(Shape::rect(10.0, 0.5), Vec2::new(0.0, -0.5));
        w.add_body(ground.kind(BodyKind::Static)).unwrap();
        let boxes: Vec<_> = (0..5)
            .map(|i| {
                let at = Vec2::new(i as f32 * 1.0 - 2.0, 0.5);
                w.add_body(BodyDef::new(Shape::rect(0.5, 0.5), at)).unwrap()
            })
            .collect();
        let mut skipped = 0;
        let mut step = |w: &mut World| {
            w.step();
            assert!(w.contacts_are_merged(), "step {}", w.step_index());
            if w.broadphase.added().is_empty() && w.broadphase.removed().is_empty() {
                skipped += 1;
            }
        };
        for _ in 0..30 {
            step(&mut w);
        }
        assert!(w.remove_body(boxes[2]));
        step(&mut w);
        // The freed slot is taken by a new box dropped into the gap.
        w.add_body(BodyDef::new(Shape::rect(0.4, 0.4), Vec2::new(0.0, 1.0)))
            .unwrap();
        for _ in 0..60 {
            step(&mut w);
        }
        assert!(skipped > 50, "settled steps keep their list ({skipped})");
    }

    /// The mass-ratio forest (`contact_solver::forest`) is for loads that
    /// rest on the ground. A heavy box ploughing through sleeping light ones
    /// without gravity (Box2D's `smash`, scaled down) carries none: its
    /// speculative contacts with the boxes still asleep are no ground, and
    /// no forest is built. The same kind of pair, a 1000 kg box on a 1 kg
    /// one on static ground, gets its forest.
    #[test]
    fn only_static_and_kinematic_bodies_ground_the_mass_ratio_forest() {
        let mut smash = World::new(WorldSettings {
            gravity: Vec2::ZERO,
            ..WorldSettings::default()
        });
        let heavy = BodyDef::new(Shape::rect(1.0, 1.0), Vec2::new(-3.0, 0.0));
        smash
            .add_body(heavy.density(8.0).velocity(Vec2::new(40.0, 0.0)))
            .unwrap();
        for i in 0..30 {
            for j in 0..12 {
                let at = Vec2::new(i as f32 * 0.4, (j as f32 - 6.0) * 0.4);
                let light = BodyDef::new(Shape::rect(0.2, 0.2), at).awake(false);
                smash.add_body(light).unwrap();
            }
        }
        let mut woken = 0;
        for _ in 0..10 {
            smash.step();
            assert_eq!(
                smash.scratch.contact_forest.len(),
                0,
                "step {}",
                smash.step_index()
            );
            woken = woken.max(smash.bodies().filter(|(_, b)| b.is_awake()).count());
        }
        // The impact did reach into the wall and wake part of it.
        assert!((10..361).contains(&woken), "{woken} awake");

        let mut stack = World::new(WorldSettings::default());
        let ground = BodyDef::new(Shape::rect(5.0, 0.5), Vec2::new(0.0, -0.5));
        stack.add_body(ground.kind(BodyKind::Static)).unwrap();
        let light = BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 0.5));
        stack.add_body(light.density(1.0)).unwrap();
        let heavy = BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 1.5));
        stack.add_body(heavy.density(1000.0)).unwrap();
        stack.step();
        stack.step();
        assert_eq!(stack.scratch.contact_forest.len(), 2);
    }

    /// An island of more contacts than `MAX_ISLAND_CONTACTS` gets no
    /// mass-ratio forest; a small one of the same make does. Both are walls
    /// of boxes in a running bond, rows of densities 1 and 10 alternating,
    /// on static ground: each box rests on two below, so a wall is one
    /// island.
    #[test]
    fn a_very_large_island_gets_no_mass_ratio_forest() {
        use crate::dynamics::contact_solver::MAX_ISLAND_CONTACTS;
        let wall = |width: usize, rows: usize| {
            let mut w = World::new(WorldSettings::default());
            let ground = BodyDef::new(Shape::rect(40.0, 0.5), Vec2::new(0.0, -0.5));
            w.add_body(ground.kind(BodyKind::Static)).unwrap();
            for j in 0..rows {
                let shift = if j % 2 == 0 { 0.0 } else { 0.25 };
                for i in 0..width - j % 2 {
                    let at = Vec2::new(i as f32 * 0.5 + shift, 0.25 + j as f32 * 0.5);
                    let density = if j % 2 == 0 { 1.0 } else { 10.0 };
                    let b = BodyDef::new(Shape::rect(0.25, 0.25), at).density(density);
                    w.add_body(b).unwrap();
                }
            }
            w.step();
            w.step();
            (w.scratch.touching.len(), w.scratch.contact_forest.len())
        };
        let (contacts, forest) = wall(40, 30);
        assert!(contacts > MAX_ISLAND_CONTACTS as usize, "{contacts}");
        assert_eq!(forest, 0, "{contacts}");
        let (contacts, forest) = wall(6, 4);
        assert!(contacts < MAX_ISLAND_CONTACTS as usize, "{contacts}");
        assert!(forest > 0, "{contacts} contacts");
    }
}
