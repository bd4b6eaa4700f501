//! The position pass's plan: the bundles of jointed bodies corrected on
//! every substep with the step's parameters, the others on alternate
//! substeps with their own, against the scalar routine.

use super::*;

#[test]
fn position_pass_corrects_unjointed_bundles_on_alternate_substeps() {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(29));
    let prm = SolverParams {
        max_push_speed: 3.0,
        linear_slop: 0.005,
        position_correction: 0.2,
        max_correction: 0.2,
        restitution_threshold: 1.0,
    };
    let alternate = SolverParams {
        position_correction: 0.36,
        ..prm
    };
    let (mut skipped, mut pushed_alternate, mut pushed_jointed) = (0, 0, 0);
    for _ in 0..400 {
        let (bodies, poses, vc, gc) = case(&mut g, 2, false);
        let (vb, gb) = bundle(&vc, &gc, &bodies);
        let info: [ConstraintInfo; LANES] = std::array::from_fn(|l| ConstraintInfo {
            contact: l as u32,
            slot: l as u32,
            restitution: 0.0,
            approach: [0.0; 2],
        });
        let mut bundles = ContactBundles {
            velocity: vec![vb],
            geometry: vec![gb],
            info: vec![info],
            bouncy: vec![false],
            held: vec![[0; 2]],
            alternate: vec![false],
            ..Default::default()
        };
        // A lane's contact has a jointed body one time in five.
        let jointed: [bool; LANES] = std::array::from_fn(|_| g.coin(0.2));
        bundles.plan_position_pass(|_| (false, false), |c| jointed[c as usize]);
        let is_alternate = !jointed.contains(&true);
        assert_eq!(bundles.alternate, [is_alternate]);
        // What the scalar routine does with the parameters the bundle is
        // corrected with.
        let corrected = |p: &SolverParams| {
            let mut q = poses.clone();
            for c in &gc {
                position_one(c, &bodies, &mut q, p);
            }
            q
        };
        let own = if is_alternate { &alternate } else { &prm };
        // A substep that corrects every bundle.
        let mut lanes = poses.clone();
        let pass = PositionPass::All {
            alternate: &alternate,
        };
        solve_positions(&bundles, &mut lanes, &prm, pass);
        assert_eq!(pose_bits(&lanes), pose_bits(&corrected(own)), "all");
        // A substep that corrects only the jointed bodies' bundles.
        let mut lanes = poses.clone();
        solve_positions(&bundles, &mut lanes, &prm, PositionPass::Jointed);
        if is_alternate {
            assert_eq!(pose_bits(&lanes), pose_bits(&poses), "skipped");
            skipped += 1;
        } else {
            assert_eq!(pose_bits(&lanes), pose_bits(&corrected(&prm)), "jointed");
        }
        let moved = pose_bits(&corrected(own)) != pose_bits(&poses);
        pushed_alternate += (moved && is_alternate) as u32;
        pushed_jointed += (moved && !is_alternate) as u32;
    }
    assert!(skipped > 100, "{skipped} bundles skipped");
    assert!(
        pushed_alternate > 50,
        "{pushed_alternate} alternate bundles pushed"
    );
    assert!(
        pushed_jointed > 50,
        "{pushed_jointed} jointed bundles pushed"
    );
}
