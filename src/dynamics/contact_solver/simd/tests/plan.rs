//! The position pass's plan: the contacts of jointed bodies corrected on
//! every substep with the step's parameters, the others on alternate
//! substeps with their own, and deep penetration corrected harder in free
//! islands only, and there only without a jointed body, lane by lane,
//! against the scalar routine.

use super::*;

#[test]
fn position_pass_corrects_unjointed_contacts_on_alternate_substeps() {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(29));
    let prm = pass_params();
    let alternate = SolverParams {
        position_correction: 0.36,
        ..prm
    };
    let (mut skipped, mut mixed, mut pushed, mut deep) = (0, 0, [0; 2], 0);
    for case_no in 0..600 {
        let (bodies, poses, vc, gc) = case(&mut g, 1 + (case_no % 2) as u8, false);
        let (vb, sb, gb) = bundle(&vc, &gc, &bodies);
        let info: [ConstraintInfo; LANES] = std::array::from_fn(|l| ConstraintInfo {
            contact: l as u32,
            slot: l as u32,
            restitution: 0.0,
            approach: [0.0; 2],
        });
        let mut bundles = ContactBundles {
            len: 1,
            velocity: vec![vb],
            solve: vec![sb],
            geometry: vec![gb],
            info: vec![info],
            bouncy: vec![false],
            single: vec![vb.single],
            still: vec![false],
            held: vec![[0; 2]],
            alternate: vec![0],
            free: vec![0],
            pairs: vec![[vb.a, vb.b]],
        };
        // A lane's contact has a jointed body one time in four, and is in
        // an island that nothing anchors one time in two.
        let jointed: [bool; LANES] = std::array::from_fn(|_| g.coin(0.25));
        let free: [bool; LANES] = std::array::from_fn(|_| g.coin(0.5));
        // Lane `l`'s bodies are 2l and 2l + 1, or 2l and the shared static
        // body, which is numbered after them all.
        let lane = |a: u32, b: u32| (a.min(b) / 2) as usize;
        bundles.plan_position_pass(
            |_| (false, false),
            |a, b| jointed[lane(a, b)],
            |a, b| free[lane(a, b)],
        );
        let mask = (0..LANES).fold(0u8, |m, l| m | (!jointed[l] as u8) << l);
        assert_eq!(bundles.alternate, [mask]);
        let free_mask = (0..LANES).fold(0u8, |m, l| m | ((free[l] && !jointed[l]) as u8) << l);
        assert_eq!(bundles.free, [free_mask]);
        // The scalar routine, lane by lane (the lanes share no body), on
        // the lanes `pick` picks (by whether they are jointed), with the
        // parameters `with` gives them (by whether they are jointed, and
        // free).
        type With<'a> = &'a dyn Fn(bool, bool) -> SolverParams;
        let scalar = |pick: &dyn Fn(bool) -> bool, with: With| {
            let mut q = poses.clone();
            for ((c, &j), &f) in gc.iter().zip(&jointed).zip(&free) {
                if pick(j) {
                    position_one(c, &bodies, &mut q, &with(j, f));
                }
            }
            q
        };
        let own = |j: bool, f: bool| SolverParams {
            deep_penetration: if f && !j {
                prm.deep_penetration
            } else {
                f32::INFINITY
            },
            ..if j { prm } else { alternate }
        };
        // A substep that corrects every contact, each with its own fraction.
        let mut lanes = poses.clone();
        let all = PositionPass::All {
            alternate: &alternate,
        };
        solve_positions(&bundles, &mut lanes, &prm, all);
        let expected = scalar(&|_| true, &own);
        assert_eq!(pose_bits(&lanes), pose_bits(&expected), "all");
        // The same without the full removal anywhere: it differs where a
        // free lane is deep.
        let gentle = |j: bool, _| SolverParams {
            deep_penetration: f32::INFINITY,
            ..own(j, false)
        };
        deep += (pose_bits(&scalar(&|_| true, &gentle)) != pose_bits(&expected)) as u32;
        // A substep that corrects only the jointed bodies' contacts.
        let mut lanes = poses.clone();
        solve_positions(&bundles, &mut lanes, &prm, PositionPass::Jointed);
        let jointed_only = scalar(&|j| j, &own);
        assert_eq!(pose_bits(&lanes), pose_bits(&jointed_only), "jointed");
        skipped += (mask == lanes_mask(LANES as u8)) as u32;
        mixed += (mask != 0 && mask != lanes_mask(LANES as u8)) as u32;
        for (k, q) in [&jointed_only, &expected].into_iter().enumerate() {
            pushed[k] += (pose_bits(q) != pose_bits(&poses)) as u32;
        }
    }
    assert!(skipped > 20, "{skipped} bundles skipped whole");
    assert!(mixed > 200, "{mixed} bundles with lanes of both kinds");
    assert!(deep > 100, "{deep} bundles with deep free lanes");
    assert!(
        pushed[0] > 100 && pushed[1] > 100,
        "{pushed:?} bundles pushed"
    );
}
