//! The contact list: contacts in stable slots, and their order.
//!
//! A contact stays in its slot while its pair of shapes lasts; the list
//! order (by pair, which the solver's results depend on) is a separate
//! array of slots with their pairs. A step that adds or removes a few pairs
//! so rewrites 12 bytes per contact (slot and pair), not the contacts
//! themselves (about 350 bytes each; the washer scene has 74,000).
//! Everything that depends on order walks [`ContactList::order`]; a slot's
//! index is an identity, never an order.
//!
//! Box2D v3 likewise keeps its contacts in a pool with stable ids
//! (`contact.c`); it orders its solver by graph colour instead.

use crate::geometry::gjk::SimplexCache;
use crate::narrowphase::manifold::{Manifold, PointFeature};
use crate::narrowphase::manifold_cache::ManifoldCache;
use serde::{Deserialize, Serialize};

/// A potentially touching pair of shapes and its cached manifold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Contact {
    /// The shapes' broadphase proxies (`a < b`).
    pub a: u32,
    pub b: u32,
    /// Their bodies' slots.
    pub body_a: u32,
    pub body_b: u32,
    /// The shapes' indices in their bodies.
    pub child_a: u32,
    pub child_b: u32,
    pub manifold: Manifold,
    /// Geometry of the manifold's points, for the solver's position pass.
    #[serde(default)]
    pub features: [PointFeature; 2],
    pub cache: SimplexCache,
    /// The manifold in the bodies' frames, for reuse while they barely move.
    #[serde(default)]
    pub reuse: ManifoldCache,
    pub friction: f32,
    pub restitution: f32,
}

/// What the solver, continuous collision and sleep read of a touching
/// contact, copied by the narrowphase while the contact is in cache: read
/// back from the pool, a step's worth of contacts had left the cache by
/// the solver's turn (a miss on every touching contact, 5 % of the
/// spinner's step).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Touch {
    /// The contact's slot in the pool.
    pub slot: u32,
    pub body_a: u32,
    pub body_b: u32,
    pub child_a: u32,
    pub child_b: u32,
    pub friction: f32,
    pub restitution: f32,
    pub manifold: Manifold,
    pub features: [PointFeature; 2],
    /// The smaller of the two shapes' bounding radii (0 when one is gone):
    /// the lever of the contact's rolling resistance.
    pub lever: f32,
}

/// A solved contact's impulses on their way back to its slot. Stored into
/// the pool at the end of the solve, they cost a miss or two on every
/// contact (the pool is larger than the cache by then): 0.6–0.8 ms of
/// `large_pyramid`'s 6, in the bundles' order or in list order alike. So
/// the solver banks them beside the pool, a few bytes a slot, and the next
/// narrowphase stores each contact's as it loads that contact anyway
/// ([`ContactList::settle`]); whatever reads a contact before then reads it
/// through the bank ([`ContactList::manifold`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Banked {
    pub normal: [f32; 2],
    pub tangent: [f32; 2],
    pub rolling: f32,
    /// The points solved: 0 when the contact was not solved this step (its
    /// impulses stay as they were).
    pub count: u32,
}

impl Banked {
    /// Stores these impulses into `m` (nothing when none were banked).
    #[inline(always)]
    pub fn store(&self, m: &mut Manifold) {
        if self.count == 0 {
            return;
        }
        m.rolling_impulse = self.rolling;
        for (k, p) in m.points[..self.count as usize].iter_mut().enumerate() {
            p.normal_impulse = self.normal[k];
            p.tangent_impulse = self.tangent[k];
        }
    }
}

/// What the solver's first pass over the touching list reads of a touch
/// (its bodies, normal and point count), in a compact list beside it: read
/// from the touches themselves, that pass streamed every whole record (about
/// 200 bytes) to use 20 of them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TouchKey {
    pub body_a: u32,
    pub body_b: u32,
    pub normal: crate::math::Vec2,
    /// A one-point manifold.
    pub single: bool,
}

impl TouchKey {
    /// The key of the touch `t`.
    #[inline(always)]
    pub fn of(t: &Touch) -> TouchKey {
        TouchKey {
            body_a: t.body_a,
            body_b: t.body_b,
            normal: t.manifold.normal,
            single: t.manifold.count == 1,
        }
    }
}

impl Touch {
    /// Sets entry `n` (at most the list's length) of the touching list to the
    /// contact in `slot`, whose shapes' smaller bounding radius is `lever`,
    /// and pushes its key. Written in place over last step's entries: a
    /// value built on the stack and moved in is read back in wide loads
    /// across its narrow stores (a stall on every contact).
    #[inline(always)]
    pub fn put(
        touching: &mut Vec<Touch>,
        keys: &mut Vec<TouchKey>,
        n: usize,
        slot: u32,
        c: &Contact,
        lever: f32,
    ) {
        if n == touching.len() {
            touching.push(Touch::default());
        }
        touching[n].fill(slot, c, lever);
        keys.push(TouchKey::of(&touching[n]));
    }

    /// Sets this touch to the contact in `slot`, whose shapes' smaller
    /// bounding radius is `lever`.
    #[inline(always)]
    pub fn fill(&mut self, slot: u32, c: &Contact, lever: f32) {
        self.slot = slot;
        self.body_a = c.body_a;
        self.body_b = c.body_b;
        self.child_a = c.child_a;
        self.child_b = c.child_b;
        self.friction = c.friction;
        self.restitution = c.restitution;
        self.manifold = c.manifold;
        self.features = c.features;
        self.lever = lever;
    }

    /// The touch of the contact in `slot`, whose shapes' smaller bounding
    /// radius is `lever`.
    pub fn of(slot: u32, c: &Contact, lever: f32) -> Touch {
        let mut t = Touch::default();
        t.fill(slot, c, lever);
        t
    }
}

/// The contacts in stable slots, and their order (see the module notes).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct ContactList {
    /// Contacts by slot; a free slot's contents are stale.
    slots: Vec<Contact>,
    /// The live slots in list order (by pair).
    order: Vec<u32>,
    /// The pair (proxy `a`, proxy `b`) of each entry of `order`.
    keys: Vec<(u32, u32)>,
    /// Free slots, the last freed reused first.
    free: Vec<u32>,
    /// Slots taken or freed out of list order since the slots were last
    /// put in list order (see [`ContactList::compact`]).
    #[serde(default)]
    scattered: usize,
    /// Per slot: the impulses the last solve banked and not yet stored
    /// (see [`Banked`]); never serialized (a snapshot is taken of a settled
    /// list, `World::snapshot`).
    #[serde(skip)]
    bank: Vec<Banked>,
    /// One bit per slot: banked into since the bank opened. Storing what
    /// is left of the bank reads these words rather than every slot's
    /// entry, and opening it clears them rather than every entry.
    #[serde(skip)]
    bank_bits: Vec<u64>,
    /// Whether the bank holds impulses not yet stored.
    #[serde(skip)]
    banked: bool,
}

/// The bank a solve fills ([`ContactList::open_bank`]).
pub(crate) struct Bank<'a> {
    bank: &'a mut [Banked],
    bits: &'a mut [u64],
}

impl Bank<'_> {
    /// Banks `b`, the impulses solved for the contact in `slot`.
    #[inline(always)]
    pub fn put(&mut self, slot: u32, b: Banked) {
        self.bank[slot as usize] = b;
        self.bits[slot as usize / 64] |= 1 << (slot % 64);
    }
}

/// The buffers a merge builds the next order in (per-step scratch).
#[derive(Clone, Debug, Default)]
pub(crate) struct MergeBuffers {
    order: Vec<u32>,
    keys: Vec<(u32, u32)>,
    slots: Vec<Contact>,
}

impl MergeBuffers {
    /// Empties the buffers for a merge of about `len` entries.
    fn start(&mut self, len: usize) {
        self.order.clear();
        self.keys.clear();
        self.order.reserve(len);
        self.keys.reserve(len);
    }
}

impl std::ops::Index<usize> for ContactList {
    type Output = Contact;
    fn index(&self, slot: usize) -> &Contact {
        &self.slots[slot]
    }
}

impl std::ops::IndexMut<usize> for ContactList {
    fn index_mut(&mut self, slot: usize) -> &mut Contact {
        &mut self.slots[slot]
    }
}

impl ContactList {
    /// Number of contacts.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// The slots in list order.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// The pairs in list order.
    pub fn keys(&self) -> &[(u32, u32)] {
        &self.keys
    }

    /// The contacts in list order.
    pub fn iter(&self) -> impl Iterator<Item = &Contact> + '_ {
        self.order.iter().map(|&k| &self.slots[k as usize])
    }

    /// Starts a bank of impulses for the solver to fill ([`Banked`]): any
    /// left from a step whose narrowphase did not run are stored first.
    pub fn open_bank(&mut self) -> Bank<'_> {
        self.settle_all();
        // Every entry is empty once settled (and every bit clear): only
        // new slots need one.
        if self.bank.len() < self.slots.len() {
            self.bank.resize(self.slots.len(), Banked::default());
            self.bank_bits.resize(self.slots.len().div_ceil(64), 0);
        }
        self.banked = true;
        Bank {
            bank: &mut self.bank,
            bits: &mut self.bank_bits,
        }
    }

    /// Stores the impulses banked for `slot`, if any, into its contact.
    #[inline(always)]
    pub fn settle(&mut self, slot: u32) {
        if !self.banked {
            return;
        }
        // Slots taken after the bank opened have no entry.
        if let Some(b) = self.bank.get_mut(slot as usize) {
            if b.count > 0 {
                b.store(&mut self.slots[slot as usize].manifold);
                b.count = 0;
            }
        }
    }

    /// Whether impulses are banked, and not yet stored, for `slot`.
    pub fn has_banked(&self, slot: u32) -> bool {
        self.banked && self.bank.get(slot as usize).is_some_and(|b| b.count > 0)
    }

    /// Closes the bank once [`ContactList::settle`] was called for every
    /// contact in the list (the narrowphase's loop, when it read them all).
    pub fn close_bank(&mut self) {
        self.bank_bits.fill(0);
        self.banked = false;
    }

    /// Whether impulses are banked and not yet stored.
    pub fn is_banked(&self) -> bool {
        self.banked
    }

    /// Stores every banked impulse not yet stored into its contact, and
    /// closes the bank.
    pub fn settle_all(&mut self) {
        if !self.banked {
            return;
        }
        let mut bits = std::mem::take(&mut self.bank_bits);
        for (w, word) in bits.iter_mut().enumerate() {
            while *word != 0 {
                let k = w * 64 + word.trailing_zeros() as usize;
                *word &= *word - 1;
                // A slot past the pool (it shrinks only as it is put in
                // order, which settles first) holds nothing to store.
                if k < self.slots.len() {
                    self.settle(k as u32);
                }
            }
        }
        self.bank_bits = bits;
        self.banked = false;
    }

    /// The manifold of the contact in `slot`, with the impulses banked for
    /// it, if any.
    pub fn manifold(&self, slot: u32) -> Manifold {
        let mut m = self.slots[slot as usize].manifold;
        if let Some(b) = self.bank.get(slot as usize).filter(|_| self.banked) {
            b.store(&mut m);
        }
        m
    }

    /// The contacts in list order, with their slots.
    pub fn iter_slots(&self) -> impl Iterator<Item = (u32, &Contact)> + '_ {
        self.order.iter().map(|&k| (k, &self.slots[k as usize]))
    }

    /// Puts the slots back in list order once more than half of them is
    /// out of it: the narrowphase and the solver walk the list in order,
    /// and a scattered pool costs them a cache miss per contact (the
    /// spinner's narrowphase took twice as long before the narrowphase
    /// asked for its records ahead). The gather costs what the copy of an
    /// ordered list would. Gathering at an eighth, memory copies took 4.5 %
    /// of the spinner's samples; at half, 2.1 %, and the narrowphase's share
    /// did not grow (docs/2026-12-02-legacy-sqrt.md; a call graph of
    /// `smash` puts most of those copies in this gather).
    pub fn compact(&mut self, buf: &mut MergeBuffers) {
        if self.scattered * 2 <= self.order.len() {
            return;
        }
        self.settle_all();
        buf.slots.clear();
        buf.slots
            .extend(self.order.iter().map(|&k| self.slots[k as usize]));
        std::mem::swap(&mut self.slots, &mut buf.slots);
        self.order.clear();
        self.order.extend(0..self.slots.len() as u32);
        self.free.clear();
        self.scattered = 0;
    }

    /// Puts `c` in a free slot (or a new one), whose banked impulses, if
    /// any, were its last contact's and are dropped.
    fn alloc(
        slots: &mut Vec<Contact>,
        free: &mut Vec<u32>,
        bank: &mut [Banked],
        c: Contact,
    ) -> u32 {
        match free.pop() {
            Some(k) => {
                slots[k as usize] = c;
                if let Some(b) = bank.get_mut(k as usize) {
                    b.count = 0;
                }
                k
            }
            None => {
                slots.push(c);
                (slots.len() - 1) as u32
            }
        }
    }

    /// Keeps the contacts `keep` accepts, in order; the touching ones it
    /// drops are pushed onto `dropped`.
    pub fn retain(&mut self, keep: impl Fn(&Contact) -> bool, dropped: &mut Vec<Contact>) {
        let mut n = 0;
        for i in 0..self.order.len() {
            let k = self.order[i];
            let c = &self.slots[k as usize];
            if keep(c) {
                self.order[n] = k;
                self.keys[n] = self.keys[i];
                n += 1;
            } else {
                if c.manifold.count > 0 {
                    dropped.push(*c);
                }
                self.free.push(k);
                self.scattered += 1;
            }
        }
        self.order.truncate(n);
        self.keys.truncate(n);
    }

    /// Rebuilds the order from every pair: surviving pairs keep their
    /// contact, the others get `new`'s (if any). Touching contacts whose pair
    /// went are pushed onto `ended` when `events`.
    pub fn merge_all(
        &mut self,
        pairs: &[(u32, u32)],
        mut new: impl FnMut(u32, u32) -> Option<Contact>,
        events: bool,
        ended: &mut Vec<Contact>,
        buf: &mut MergeBuffers,
    ) {
        let (slots, free, bank) = (&mut self.slots, &mut self.free, &mut self.bank);
        let (old, old_keys) = (&self.order, &self.keys);
        buf.start(old.len());
        let (mut i, mut kept) = (0, 0);
        for &key in pairs {
            while i < old.len() && old_keys[i] < key {
                Self::release(slots, free, old[i], events, ended);
                i += 1;
            }
            if i < old.len() && old_keys[i] == key {
                kept += 1;
                buf.order.push(old[i]);
                buf.keys.push(key);
                i += 1;
                continue;
            }
            if let Some(c) = new(key.0, key.1) {
                buf.order.push(Self::alloc(slots, free, bank, c));
                buf.keys.push(key);
            }
        }
        for &k in &old[i..] {
            Self::release(slots, free, k, events, ended);
        }
        self.adopt(buf, kept);
    }

    /// Rebuilds the order from the last one and sorted lists of added and
    /// removed pairs (never both added and removed). Touching contacts whose
    /// pair went are pushed onto `ended`, in list order, when `events`.
    pub fn merge_changes(
        &mut self,
        added: &[(u32, u32)],
        removed: &[(u32, u32)],
        mut new: impl FnMut(u32, u32) -> Option<Contact>,
        events: bool,
        ended: &mut Vec<Contact>,
        buf: &mut MergeBuffers,
    ) {
        let (slots, free, bank) = (&mut self.slots, &mut self.free, &mut self.bank);
        let (old, old_keys) = (&self.order, &self.keys);
        buf.start(old.len() + added.len());
        let (mut i, mut na, mut nr, mut kept) = (0, 0, 0, 0);
        loop {
            // The next change in pair order.
            let (key, is_added) = match (added.get(na), removed.get(nr)) {
                (Some(&p), Some(&q)) if p < q => (p, true),
                (_, Some(&q)) => (q, false),
                (Some(&p), None) => (p, true),
                (None, None) => break,
            };
            let start = i;
            // Changes come in pair order, usually a few entries apart.
            i = crate::math::gallop(old_keys, i, |&k| k < key);
            kept += i - start;
            buf.order.extend_from_slice(&old[start..i]);
            buf.keys.extend_from_slice(&old_keys[start..i]);
            if is_added {
                na += 1;
                debug_assert!(old_keys.get(i) != Some(&key));
                if let Some(c) = new(key.0, key.1) {
                    buf.order.push(Self::alloc(slots, free, bank, c));
                    buf.keys.push(key);
                }
            } else {
                nr += 1;
                // A removed pair that never collided has no contact.
                if old_keys.get(i) == Some(&key) {
                    Self::release(slots, free, old[i], events, ended);
                    i += 1;
                }
            }
        }
        buf.order.extend_from_slice(&old[i..]);
        buf.keys.extend_from_slice(&old_keys[i..]);
        kept += old.len() - i;
        self.adopt(buf, kept);
    }

    /// Frees the slot of a contact whose pair went, pushing the contact onto
    /// `ended` first if it was touching and `events` are on.
    fn release(
        slots: &[Contact],
        free: &mut Vec<u32>,
        k: u32,
        events: bool,
        ended: &mut Vec<Contact>,
    ) {
        if events && slots[k as usize].manifold.count > 0 {
            ended.push(slots[k as usize]);
        }
        free.push(k);
    }

    /// Takes the order a merge built in `buf`, of which `kept` entries were
    /// in the old one; the old order's buffers go back to `buf`.
    fn adopt(&mut self, buf: &mut MergeBuffers, kept: usize) {
        // Each slot freed or taken.
        self.scattered += self.order.len() + buf.order.len() - 2 * kept;
        std::mem::swap(&mut self.order, &mut buf.order);
        std::mem::swap(&mut self.keys, &mut buf.keys);
    }
}

#[cfg(test)]
mod tests;
