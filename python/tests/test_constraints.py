"""Constraints, joint locking and the constraint settings of MultibodyPlant."""
import math

import numpy as np
import pytest

from teal import (GeometryId, MultibodyConstraintId, MultibodyPlant, Parser, PiecewisePolynomial,
                  ResetIntegratorFromFlags, RigidBody, RigidTransform, Simulator, TealError,
                  TealInvalidArgumentError, TealNonFiniteError, TealNotFoundError, TealSizeError,
                  TealStateError)

G = 9.81
MASS = 2.0
# A free body of mass 2 kg at z = 1 (MuJoCo's freejoint: q = [quaternion; p], v = [w; v]).
BALL = """<mujoco model="ball"><option gravity="0 0 -9.81"/><worldbody>
<body name="ball" pos="0 0 1"><freejoint name="free"/>
<inertial pos="0 0 0" mass="2" diaginertia="0.1 0.1 0.1"/></body></worldbody></mujoco>"""


def free_body_plant():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(BALL, "xml")
    return plant, plant.GetBodyByName("ball")


def acrobot_plant(acrobot_urdf):
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(acrobot_urdf)
    return plant


def run(plant, context, t, scheme="runge_kutta3"):
    simulator = Simulator(plant, context)
    ResetIntegratorFromFlags(simulator, scheme, 1e-3)
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.AdvanceTo(t)
    return simulator.get_context()


def test_ball_constraint_multiplier_is_the_weight_at_rest():
    plant, body = free_body_plant()
    cid = plant.AddBallConstraint(plant.world_body(), [0, 0, 1], body, [0, 0, 0])
    assert (cid, plant.num_constraints()) == (MultibodyConstraintId(0), 1)
    plant.Finalize()
    assert plant.num_constraint_rows() == 3
    context = plant.CreateDefaultContext()
    # M vdot + G' lambda = f with vdot = 0: G' lambda is the weight -m g z.
    np.testing.assert_allclose(plant.GetConstraintMultipliers(context), [0, 0, -MASS * G],
                               atol=1e-9)
    port = plant.get_constraint_multipliers_output_port()
    np.testing.assert_allclose(port.Eval(context), [0, 0, -MASS * G], atol=1e-9)
    assert plant.GetConstraintActiveStatus(context, cid)
    plant.SetConstraintActiveStatus(context, cid, False)
    assert not plant.GetConstraintActiveStatus(context, cid)
    np.testing.assert_array_equal(port.Eval(context), np.zeros(3))
    # disabled, the body falls freely: z = 1 - g t^2 / 2
    q = plant.GetPositions(run(plant, context, 0.5))
    assert q[6] == pytest.approx(1 - G * 0.25 / 2, abs=1e-6)


def test_ball_constraint_pendulum_keeps_its_pivot():
    plant, body = free_body_plant()
    # pivot 1 m above the body: a spherical pendulum of length 1
    plant.AddBallConstraint(plant.world_body(), [0, 0, 2], body, [0, 0, 1])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    # swing about y through the pivot: v = -w x r_pivot keeps the pivot still
    plant.SetVelocities(context, [0, 0.5, 0, -0.5, 0, 0])
    q = plant.GetPositions(run(plant, context, 0.5))
    quat, p = q[:4], q[4:]
    w, x, y, z = quat / np.linalg.norm(quat)
    # the body's point (0, 0, 1) in world, R(quat) applied to it
    p_pivot = p + np.array([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)])
    np.testing.assert_allclose(p_pivot, [0, 0, 2], atol=1e-6)
    # small swings: theta = (w0 / omega) sin(omega t), omega^2 = m g l / (I + m l^2)
    omega = math.sqrt(MASS * G / (0.1 + MASS))
    theta = 0.5 / omega * math.sin(omega * 0.5)
    assert p[0] == pytest.approx(-math.sin(theta), abs=2e-3)


def test_weld_holds_a_body_against_gravity():
    plant, body = free_body_plant()
    X = RigidTransform(p=[0, 0, 1])
    assert np.allclose(X.GetAsMatrix4()[:3, 3], [0, 0, 1])
    plant.AddWeldConstraint(plant.world_body(), X, body, np.eye(4))
    plant.Finalize()
    assert plant.num_constraint_rows() == 6
    context = plant.CreateDefaultContext()
    lam = plant.GetConstraintMultipliers(context)
    np.testing.assert_allclose(lam, [0, 0, 0, 0, 0, -MASS * G], atol=1e-9)
    q0 = plant.GetPositions(context)
    np.testing.assert_allclose(plant.GetPositions(run(plant, context, 0.5)), q0, atol=1e-9)


def test_distance_constraint_rigid_and_compliant():
    plant, body = free_body_plant()
    rigid = plant.AddDistanceConstraint(plant.world_body(), [0, 0, 1.5], body, [0, 0, 0], 0.5)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    # one row along the rod: its multiplier carries the weight
    assert rigid == MultibodyConstraintId(0) and plant.num_constraint_rows() == 1
    assert abs(plant.GetConstraintMultipliers(context)[0]) == pytest.approx(MASS * G)
    compliant_plant, body = free_body_plant()
    compliant_plant.AddDistanceConstraint(compliant_plant.world_body(), [0, 0, 1.5], body,
                                          [0, 0, 0], 0.5, stiffness=1e3, damping=10.0)
    compliant_plant.Finalize()
    assert (compliant_plant.num_constraints(), compliant_plant.num_constraint_rows()) == (1, 0)


def test_coupler_holds_along_a_motion(acrobot_urdf):
    plant = acrobot_plant(acrobot_urdf)
    shoulder, elbow = plant.GetJointByName("shoulder"), plant.GetJointByName("elbow")
    plant.AddCouplerConstraint(elbow, shoulder, 0.5, 0.1)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.4, 0.3])  # elbow = 0.5 shoulder + 0.1
    q = plant.GetPositions(run(plant, context, 1.0))
    assert q[1] == pytest.approx(0.5 * q[0] + 0.1, abs=1e-7)
    assert abs(q[0] - 0.4) > 0.1


def test_simbody_kinds_hold_their_invariants():
    plant, body = free_body_plant()
    plant.AddPointInPlaneConstraint(plant.world_body(), [0, 0, 2], 1.0, body, [0, 0, 0])
    # x of the world stays perpendicular to y of the body (true at the start)
    plant.AddConstantAngleConstraint(plant.world_body(), [1, 0, 0], body, [0, 1, 0], math.pi / 2)
    plant.Finalize()
    assert plant.num_constraint_rows() == 2
    context = plant.CreateDefaultContext()
    assert plant.GetConstraintMultipliers(context)[0] == pytest.approx(-MASS * G)
    plant.SetVelocities(context, [0, 0, 0, 1.0, 0.5, 0])
    q = plant.GetPositions(run(plant, context, 0.5))
    assert q[6] == pytest.approx(1.0, abs=1e-7)  # stayed in the plane z = 1
    assert q[4] == pytest.approx(0.5, abs=1e-6)  # slid freely along x

    line_plant, body = free_body_plant()
    line_plant.AddPointOnLineConstraint(line_plant.world_body(), [1, 0, 0], [0, 0, 1], body,
                                        [0, 0, 0])
    line_plant.Finalize()
    assert line_plant.num_constraint_rows() == 2
    context = line_plant.CreateDefaultContext()
    line_plant.SetVelocities(context, [0, 0, 0, 1.0, 0, 0])
    q = line_plant.GetPositions(run(line_plant, context, 0.5))
    np.testing.assert_allclose(q[4:], [0.5, 0, 1], atol=1e-6)


def test_constraint_settings_and_default_status():
    plant, body = free_body_plant()
    cid = plant.AddBallConstraint(plant.world_body(), [0, 0, 1], body)
    plant.SetConstraintDefaultActiveStatus(cid, False)
    plant.set_baumgarte_stabilization(2.0, 3.0)
    plant.set_constraint_projection(False)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert not plant.GetConstraintActiveStatus(context, cid)
    with pytest.raises(TealStateError):
        plant.set_constraint_projection(True)


def test_constraint_bad_input_raises_with_teals_message():
    plant, body = free_body_plant()
    with pytest.raises(TealInvalidArgumentError, match="itself|same|distinct"):
        plant.AddBallConstraint(body, [0, 0, 0], body, [0, 0, 1])
    plant, body = free_body_plant()
    with pytest.raises(TealNotFoundError):
        plant.AddBallConstraint(plant.world_body(), [0, 0, 0], 42, [0, 0, 0])
    plant, body = free_body_plant()
    with pytest.raises(TealNonFiniteError):
        plant.AddDistanceConstraint(plant.world_body(), [0, 0, 0], body, [0, 0, 0], math.nan)
    plant, body = free_body_plant()
    with pytest.raises(TealSizeError, match="p_AP"):
        plant.AddBallConstraint(plant.world_body(), [0, 0], body, [0, 0, 0])
    with pytest.raises(TealInvalidArgumentError, match="RigidBody"):
        plant.AddBallConstraint("world", [0, 0, 0], body, [0, 0, 0])
    with pytest.raises(TealInvalidArgumentError, match="RigidTransform"):
        plant.AddWeldConstraint(plant.world_body(), [1, 2], body, np.eye(4))
    with pytest.raises(TealNotFoundError, match="nope"):
        plant.GetBodyByName("nope")
    plant.Finalize()
    context = plant.CreateDefaultContext()
    with pytest.raises(TealNotFoundError):
        plant.GetConstraintActiveStatus(context, 5)
    with pytest.raises(TealStateError):
        plant.AddBallConstraint(plant.world_body(), [0, 0, 0], body, [0, 0, 0])


def test_locked_joint_holds_while_the_other_moves(acrobot_urdf):
    plant = acrobot_plant(acrobot_urdf)
    plant.Finalize()
    shoulder = plant.GetJointByName("shoulder")
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.5, 0.3, 1.0, 0.0])
    shoulder.Lock(context)
    assert shoulder.is_locked(context)
    assert plant.GetVelocities(context)[0] == 0.0  # locking zeroes its velocity
    x = plant.GetPositionsAndVelocities(run(plant, context, 0.5))
    assert x[0] == pytest.approx(0.5, abs=1e-9) and x[2] == pytest.approx(0.0, abs=1e-9)
    assert abs(x[1] - 0.3) > 0.05
    shoulder.Unlock(context)
    assert not shoulder.is_locked(context)
    other = acrobot_plant(acrobot_urdf)
    other.Finalize()
    with pytest.raises(TealError):  # a context of another plant
        other.GetJointByName("shoulder").Lock(context)


def test_prescribed_joint_follows_its_trajectory():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels("cart_pole.urdf")
    cart = plant.GetJointByName("x")
    ramp = PiecewisePolynomial.FirstOrderHold([0.0, 2.0], [[0.0, 1.0]])  # x = t / 2
    plant.PrescribeJointTrajectory(cart, ramp)
    del ramp  # the plant keeps it alive
    assert plant.IsJointPrescribed(cart) and not plant.IsJointPrescribed(1)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetVelocities(context, [0.5, 0.0])
    plant.SetPositions(context, [0.0, 0.2])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    context = run(plant, context, 1.0)
    x = plant.GetPositionsAndVelocities(context)
    assert x[0] == pytest.approx(0.5, abs=1e-7) and x[2] == pytest.approx(0.5, abs=1e-7)
    assert abs(x[1] - 0.2) > 0.05  # the pole swung
    np.testing.assert_allclose(plant.CalcMotionErrors(context, 0), [0, 0], atol=1e-7)
    with pytest.raises(TealInvalidArgumentError):
        plant.CalcMotionErrors(context, 3)
    twice = MultibodyPlant(0.0)
    Parser(twice).AddModels("cart_pole.urdf")
    twice.PrescribeJointTrajectory(0, PiecewisePolynomial.FirstOrderHold([0, 1], [[0, 1]]))
    with pytest.raises(TealInvalidArgumentError, match="already"):  # a sticky plant error
        twice.PrescribeJointTrajectory(0, PiecewisePolynomial.FirstOrderHold([0, 1], [[0, 1]]))
    discrete = MultibodyPlant(1e-3)
    Parser(discrete).AddModels("cart_pole.urdf")
    discrete.PrescribeJointTrajectory(0, PiecewisePolynomial.FirstOrderHold([0, 2], [[0, 1]]))
    discrete.Finalize()
    dctx = discrete.CreateDefaultContext()
    discrete.SetPositions(dctx, [0.0, 0.2])
    discrete.get_actuation_input_port().FixValue(dctx, [0.0])
    dctx = run(discrete, dctx, 1.0)
    xd = discrete.GetPositionsAndVelocities(dctx)
    # each step sets v+ to the ramp's rate 1/2, so q follows the ramp exactly
    assert xd[0] == pytest.approx(0.5, abs=1e-9) and xd[2] == pytest.approx(0.5, abs=1e-12)


def test_elements_keep_their_plant_alive(acrobot_urdf):
    plant = acrobot_plant(acrobot_urdf)
    with pytest.raises(TealStateError, match="Finalize"):
        plant.num_constraint_rows()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    joint, body = plant.GetJointByName("elbow"), plant.GetBodyByName("link2")
    assert joint == plant.GetJointByName("elbow") and len({joint, body}) == 2
    del plant
    joint.Lock(context)
    assert joint.is_locked(context) and joint.name() == "elbow" and body.name() == "link2"
    with pytest.raises(TealNotFoundError, match="body 99"):
        RigidBody(joint._plant_obj, 99).name()


def test_constraint_ids_are_typed_hashable_and_ints_still_work():
    plant, body = free_body_plant()
    ball = plant.AddBallConstraint(plant.world_body(), [0, 0, 1], body)
    dist = plant.AddDistanceConstraint(plant.world_body(), [0, 0, 1.5], body, [0, 0, 0], 0.5)
    assert isinstance(ball, MultibodyConstraintId) and ball.is_valid()
    assert (ball.get_value(), dist.get_value()) == (0, 1)
    assert ball == MultibodyConstraintId(0) and ball != dist and ball < dist
    assert ball != 0 and ball != GeometryId(0)  # an id equals only an id of its kind
    assert len({ball, MultibodyConstraintId(0), dist}) == 2
    assert {ball: "ball"}[MultibodyConstraintId(0)] == "ball"
    assert not MultibodyConstraintId().is_valid()
    plant.SetConstraintDefaultActiveStatus(1, False)  # a plain int, as before
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert not plant.GetConstraintActiveStatus(context, dist)
    plant.SetConstraintActiveStatus(context, 1, True)
    assert plant.GetConstraintActiveStatus(context, dist)
    assert plant.GetConstraintActiveStatus(context, np.int64(0))
    expected = "expected a MultibodyConstraintId or an int"
    with pytest.raises(TealInvalidArgumentError, match=expected):
        plant.GetConstraintActiveStatus(context, GeometryId(0))
    with pytest.raises(TealInvalidArgumentError, match=expected):
        plant.GetConstraintActiveStatus(context, "0")
    with pytest.raises(TealInvalidArgumentError, match="the id is invalid"):
        plant.GetConstraintActiveStatus(context, MultibodyConstraintId())
    with pytest.raises(TealInvalidArgumentError, match="the id is invalid"):
        hash(MultibodyConstraintId())
    with pytest.raises(TealNotFoundError):
        plant.GetConstraintActiveStatus(context, MultibodyConstraintId(7))
    with pytest.raises(TealInvalidArgumentError, match="expected an int value"):
        MultibodyConstraintId(1.5)
