use super::*;

#[test]
fn a_nan_impulse_does_not_panic_the_velocity_pass() {
    // A body blowing up mid-step can leave NaN impulses; the step must go
    // on to the write-back, which freezes and reports the body.
    let point = VelocityPoint {
        normal: Vec2::Y,
        arm_na: 0.5,
        arm_nb: 0.5,
        arm_ta: 0.5,
        arm_tb: -0.5,
        mass: 1.0,
        tangent_mass: 1.0,
        normal_impulse: f32::NAN,
        ..Default::default()
    };
    let mut c = VelocityConstraint {
        a: 0,
        b: 1,
        friction: 0.6,
        count: 1,
        block_ok: false,
        k: [0.0; 4],
        rolling_arm: 0.1,
        angular_mass: 1.0,
        rolling_impulse: 0.0,
        impact: false,
        quiet: false,
        points: [point, VelocityPoint::default()],
    };
    let body = SolverBody {
        v: Vec2::new(1.0, -1.0),
        w: 0.5,
        inv_mass: 1.0,
        inv_inertia: 6.0,
    };
    let mut bodies = vec![body, body];
    solve_one(&mut c, &mut bodies);
    assert!(bodies[0].v.x.is_nan() || bodies[1].v.x.is_nan());
}
