"""Inertial parameters, the inverse-dynamics regressor and the parameter
derivatives, joint armature, fixed tendons, the discrete step's constraint
tension, motion power and the simulator's error projection from Python."""
import numpy as np
import pytest

from teal import (FixedOffsetFrame, MultibodyPlant, Parser, PiecewisePolynomial, RigidTransform,
                  Simulator, TealError, TealInvalidArgumentError, TealNotFoundError,
                  TealSizeError)

RNG = np.random.default_rng(7)


def _acrobot(path, time_step=0.0, armature=None):
    plant = MultibodyPlant(time_step)
    Parser(plant).AddModels(path)
    if armature is not None:
        plant.SetJointDefaultArmature(plant.GetJointByName("elbow"), armature)
    return plant


def _finalized(path, **kwargs):
    plant = _acrobot(path, **kwargs)
    plant.Finalize()
    return plant, plant.CreateDefaultContext()


def _random_state(plant, ctx):
    plant.SetPositions(ctx, RNG.uniform(-1, 1, plant.num_positions()))
    plant.SetVelocities(ctx, RNG.uniform(-1, 1, plant.num_velocities()))


def _all_parameters(plant, ctx):
    pi = np.zeros(10 * plant.num_bodies())
    for b in range(1, plant.num_bodies()):
        if plant.GetBodyInertialParameters(ctx, b)[0] > 0:
            pi[10 * b:10 * b + 10] = plant.GetBodyInertialParameters(ctx, b)
    return pi


def test_body_inertial_parameters_of_the_acrobot_links(acrobot_urdf):
    plant, ctx = _finalized(acrobot_urdf)
    # link1: m = 1, centre of mass at (0, 0, -0.5), Ic = 0.083 I; about Bo
    # the inertia gains m (y^2 + z^2) on x and y (parallel axes)
    pi = plant.GetBodyInertialParameters(ctx, plant.GetBodyByName("link1"))
    np.testing.assert_allclose(pi, [1, 0, 0, -0.5, 0.333, 0.333, 0.083, 0, 0, 0], atol=1e-12)
    pi = plant.GetBodyInertialParameters(ctx, plant.GetBodyByName("link2"))
    np.testing.assert_allclose(pi, [1, 0, 0, -1, 1.33, 1.33, 0.33, 0, 0, 0], atol=1e-12)


def test_regressor_times_parameters_is_the_inverse_dynamics(acrobot_urdf):
    for armature in (None, 0.25):
        plant, ctx = _finalized(acrobot_urdf, armature=armature)
        pi = _all_parameters(plant, ctx)
        for _ in range(3):
            _random_state(plant, ctx)
            vdot = RNG.uniform(-2, 2, plant.num_velocities())
            Y = plant.CalcInverseDynamicsRegressor(ctx, vdot)
            assert Y.shape == (plant.num_velocities(), 10 * plant.num_bodies())
            assert not Y[:, :10].any()  # the world's block
            # Drake's inverse dynamics leaves gravity to the applied forces
            tau = plant.CalcInverseDynamics(ctx, vdot) - plant.CalcGravityGeneralizedForces(ctx)
            reflected = np.array([0.0, armature or 0.0]) * vdot
            np.testing.assert_allclose(Y @ pi + reflected, tau, rtol=1e-12, atol=1e-12)


def test_parameter_derivatives_are_minus_m_inverse_y(acrobot_urdf):
    plant, ctx = _finalized(acrobot_urdf)
    _random_state(plant, ctx)
    plant.get_actuation_input_port().FixValue(ctx, [0.3])
    link2 = plant.GetBodyByName("link2")
    vdot, d = plant.CalcForwardDynamicsParameterDerivatives(ctx, link2)
    assert d.shape == (2, 10)
    M = plant.CalcMassMatrix(ctx)
    Y = plant.CalcInverseDynamicsRegressor(ctx, vdot)
    b = 10 * link2.index()
    np.testing.assert_allclose(d, -np.linalg.solve(M, Y[:, b:b + 10]), rtol=1e-10, atol=1e-12)
    # vdot satisfies the equations of motion: M vdot = tau_ID(vdot = 0) sign-flipped + forces
    applied = np.array([0.0, 0.3]) - 0.1 * plant.GetVelocities(ctx)  # actuation, damping
    residual = (plant.CalcInverseDynamics(ctx, vdot) - plant.CalcGravityGeneralizedForces(ctx)
                - applied)
    np.testing.assert_allclose(residual, 0.0, atol=1e-10)


def test_armature_shows_on_the_mass_matrix_diagonal(acrobot_urdf):
    plain, ctx0 = _finalized(acrobot_urdf)
    plant, ctx = _finalized(acrobot_urdf, armature=0.25)
    assert plant.GetJointDefaultArmature(plant.GetJointByName("elbow")) == 0.25
    assert plant.GetJointDefaultArmature(plant.GetJointByName("shoulder")) == 0.0
    q = [0.4, -0.7]
    plain.SetPositions(ctx0, q)
    plant.SetPositions(ctx, q)
    np.testing.assert_allclose(plant.CalcMassMatrix(ctx) - plain.CalcMassMatrix(ctx0),
                               [[0, 0], [0, 0.25]], atol=1e-14)


def test_fixed_tendon_length_rate_and_jacobian(acrobot_urdf):
    plant = _acrobot(acrobot_urdf)
    joints = [plant.GetJointByName("shoulder"), plant.GetJointByName("elbow")]
    k = plant.AddFixedTendon("t", joints, [2.0, -3.0], stiffness=5.0, spring_length=0.1)
    plant.Finalize()
    assert plant.num_tendons() == 1 and k == 0
    assert plant.GetTendonByName("t") == 0 and plant.GetTendonName(0) == "t"
    spring = plant.GetTendonSpring(0)
    assert spring["stiffness"] == 5.0 and spring["spring_length"] == 0.1
    assert spring["upper"] == np.inf
    ctx = plant.CreateDefaultContext()
    _random_state(plant, ctx)
    q, v = plant.GetPositions(ctx), plant.GetVelocities(ctx)
    length, rate = plant.CalcTendonLength(ctx, 0)
    assert length == pytest.approx(2 * q[0] - 3 * q[1], abs=1e-14)
    assert rate == pytest.approx(2 * v[0] - 3 * v[1], abs=1e-14)
    np.testing.assert_allclose(plant.CalcTendonJacobian(ctx, 0), [2, -3], atol=1e-14)


def _acrobot_tip(q):
    """link2's tip (2 m along link2 from the elbow, 1 m below the shoulder
    at q = 0) and its derivative with respect to q: both hinges turn about
    +y, the links hang along -z."""
    s0, c0, s01, c01 = np.sin(q[0]), np.cos(q[0]), np.sin(q[0] + q[1]), np.cos(q[0] + q[1])
    tip = np.array([-s0 - 2 * s01, 0.0, -c0 - 2 * c01])
    dtip = np.array([[-c0 - 2 * c01, -2 * c01], [0.0, 0.0], [s0 + 2 * s01, 2 * s01]])
    return tip, dtip


def test_spatial_tendon_through_frames_measures_their_distance(acrobot_urdf):
    plant = _acrobot(acrobot_urdf)
    P = np.array([1.0, 0.0, 0.5])
    anchor = plant.AddFrame(FixedOffsetFrame("anchor", plant.world_body(), RigidTransform(P)))
    tip = plant.AddFrame(FixedOffsetFrame("tip", plant.GetBodyByName("link2"),
                                          RigidTransform([0, 0, -2.0])))
    k = plant.AddSpatialTendon("cable", [anchor, tip], damping=0.5)
    plant.Finalize()
    assert plant.GetTendonSpring(k)["damping"] == 0.5
    ctx = plant.CreateDefaultContext()
    _random_state(plant, ctx)
    q, v = plant.GetPositions(ctx), plant.GetVelocities(ctx)
    p_tip, dtip = _acrobot_tip(q)
    u = (p_tip - P) / np.linalg.norm(p_tip - P)
    length, rate = plant.CalcTendonLength(ctx, k)
    assert length == pytest.approx(np.linalg.norm(p_tip - P), rel=1e-13)
    np.testing.assert_allclose(plant.CalcTendonJacobian(ctx, k), u @ dtip, atol=1e-13)
    assert rate == pytest.approx(u @ dtip @ v, rel=1e-12)
    with pytest.raises(TealInvalidArgumentError, match="unknown spring setting"):
        _acrobot(acrobot_urdf).AddSpatialTendon("c", [anchor, tip], stifness=1.0)


def test_discrete_distance_spring_tension_is_its_implicit_end_force(acrobot_urdf):
    # link2's tip tied to a world point P by a spring-damper (k, d, rest
    # length l0): the step's tension is k (l + h ldot - l0) + d ldot, with
    # ldot = J_l v+ at the velocity the step ends with
    k, d, l0, h, P = 100.0, 3.0, 0.5, 1e-3, np.array([0.5, 0.0, -2.5])
    plant = _acrobot(acrobot_urdf, time_step=h)
    c = plant.AddDistanceConstraint(plant.world_body(), P, plant.GetBodyByName("link2"),
                                    [0, 0, -2], l0, stiffness=k, damping=d)
    plant.Finalize()
    sim = Simulator(plant)
    ctx = sim.get_mutable_context()
    plant.get_actuation_input_port().FixValue(ctx, [0.0])
    q0 = np.array([0.3, -0.2])
    plant.SetPositions(ctx, q0)
    plant.SetVelocities(ctx, [0.1, 0.2])
    tension = plant.GetDiscreteConstraintTension(ctx, c)
    sim.AdvanceTo(h)
    assert sim.get_num_discrete_updates() == 1
    tip, dtip = _acrobot_tip(q0)
    length = np.linalg.norm(tip - P)
    ldot = (tip - P) / length @ dtip @ plant.GetVelocities(ctx)
    assert tension == pytest.approx(k * (length + h * ldot - l0) + d * ldot, rel=1e-12)
    assert tension > 0
    # a compliant distance constraint is a force, not a constraint row
    assert plant.GetDiscreteConstraintMultipliers(ctx).shape == (plant.num_constraint_rows(),)
    continuous = _acrobot(acrobot_urdf)
    continuous.AddDistanceConstraint(continuous.world_body(), P,
                                     continuous.GetBodyByName("link2"), [0, 0, -2], l0,
                                     stiffness=k)
    continuous.Finalize()
    with pytest.raises(TealInvalidArgumentError, match="continuous"):
        continuous.GetDiscreteConstraintTension(continuous.CreateDefaultContext(), 0)


def test_motion_power_is_the_motion_forces_work_rate(acrobot_urdf):
    plant = _acrobot(acrobot_urdf)
    elbow = plant.GetJointByName("elbow")
    plant.PrescribeJointTrajectory(elbow, PiecewisePolynomial.FirstOrderHold(
        [0.0, 10.0], np.array([[0.0, 5.0]])))
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    plant.get_actuation_input_port().FixValue(ctx, [0.0])
    plant.SetPositions(ctx, [0.3, 0.0])
    plant.SetVelocities(ctx, [0.2, 0.5])
    tau = plant.CalcMotionForces(ctx)
    assert tau[0] == 0.0 and tau[1] != 0.0
    assert plant.CalcMotionPower(ctx) == pytest.approx(tau @ [0.2, 0.5], rel=1e-12)


def test_simulator_error_projection_setting(acrobot_urdf):
    plant = _acrobot(acrobot_urdf)
    plant.AddCouplerConstraint(plant.GetJointByName("shoulder"), plant.GetJointByName("elbow"),
                               2.0)
    plant.Finalize()
    sim = Simulator(plant)
    plant.get_actuation_input_port().FixValue(sim.get_mutable_context(), [0.0])
    assert sim.uses_error_projection()
    sim.set_error_projection(False)
    assert not sim.uses_error_projection()
    sim.set_error_projection(True)
    sim.AdvanceTo(0.1)
    q = plant.GetPositions(sim.get_context())
    assert q[0] == pytest.approx(2.0 * q[1], abs=1e-6)


def test_bad_inputs_raise_with_teals_messages(acrobot_urdf):
    plant, ctx = _finalized(acrobot_urdf)
    with pytest.raises(TealSizeError, match="known_vdot: expected 2 values, got 3"):
        plant.CalcInverseDynamicsRegressor(ctx, [0, 0, 0])
    with pytest.raises(TealInvalidArgumentError, match="world"):
        plant.GetBodyInertialParameters(ctx, 0)
    with pytest.raises(TealInvalidArgumentError, match="body 99"):
        plant.GetBodyInertialParameters(ctx, 99)
    with pytest.raises(TealInvalidArgumentError, match="expected a RigidBody"):
        plant.GetBodyInertialParameters(ctx, "link1")
    with pytest.raises(TealError, match="discrete"):
        discrete, dctx = _finalized(acrobot_urdf, time_step=1e-3)
        discrete.CalcForwardDynamicsParameterDerivatives(dctx, 1)
    with pytest.raises(TealNotFoundError, match="unknown tendon 0"):
        plant.CalcTendonLength(ctx, 0)
    with pytest.raises(TealNotFoundError, match="no tendon named 'x'"):
        plant.GetTendonByName("x")
    with pytest.raises(TealNotFoundError, match="unknown joint 42"):
        plant.GetJointDefaultArmature(42)
    fresh = _acrobot(acrobot_urdf)
    with pytest.raises(TealInvalidArgumentError, match="armature"):
        fresh.SetJointDefaultArmature(fresh.GetJointByName("elbow"), -1.0)
    fresh = _acrobot(acrobot_urdf)
    with pytest.raises(TealInvalidArgumentError, match="coefficient"):
        fresh.AddFixedTendon("t", [fresh.GetJointByName("elbow")], [np.nan])
    with pytest.raises(TealSizeError, match="coefficients: expected 1 values, got 2"):
        _acrobot(acrobot_urdf).AddFixedTendon("t", [1], [1.0, 2.0])
