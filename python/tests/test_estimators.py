"""Steady-state Kalman filters and the Luenberger observer."""
import numpy as np
import pytest

from teal import (DiscreteTimeLinearQuadraticRegulator, DiscreteTimeSteadyStateKalmanFilter,
                  LinearQuadraticRegulator, LinearSystem, LuenbergerObserver, Simulator,
                  SteadyStateKalmanFilter, TealSizeError, DiagramBuilder, ConstantVectorSource)

A = np.array([[0.0, 1.0], [-2.0, -0.3]])
C = np.array([[1.0, 0.0]])
W, V = np.diag([0.1, 0.2]), np.array([[0.05]])


def test_kalman_gain_is_the_dual_lqr():
    L = SteadyStateKalmanFilter(A, C, W, V)
    K, _ = LinearQuadraticRegulator(A.T, C.T, W, V)
    np.testing.assert_allclose(L, K.T, rtol=1e-10, atol=1e-12)
    Ad = np.array([[1.0, 0.1], [-0.2, 0.97]])
    Ld = DiscreteTimeSteadyStateKalmanFilter(Ad, C, W, V)
    Kd, P = DiscreteTimeLinearQuadraticRegulator(Ad.T, C.T, W, V)
    # the discrete filter gain is A P C' (C P C' + V)^-1 with P the dual Riccati solution
    np.testing.assert_allclose(Ld, Ad @ P @ C.T @ np.linalg.inv(C @ P @ C.T + V), rtol=1e-9)
    with pytest.raises(TealSizeError):
        SteadyStateKalmanFilter(A, C, W, np.eye(2))


def _plant():
    plant = LinearSystem(A, [[0.0], [1.0]], C, [[0.0]])
    ctx = plant.CreateDefaultContext()
    plant.get_input_port().FixValue(ctx, [0.0])
    return plant, ctx


def test_luenberger_observer_converges_to_the_state():
    model, ctx = _plant()  # the observer's model: a system of its own, outside the diagram
    L = np.array([[3.0], [2.0]])
    observer = LuenbergerObserver(model, ctx, L)
    plant, _ = _plant()
    np.testing.assert_allclose(observer.L(), L)
    b = DiagramBuilder()
    b.AddSystem(plant)
    b.AddSystem(observer)
    u = b.AddSystem(ConstantVectorSource([0.5]))
    b.Connect(u.get_output_port(), plant.get_input_port())
    b.Connect(u.get_output_port(), observer.get_observed_system_input_input_port())
    b.Connect(plant.get_output_port(), observer.get_observed_system_output_input_port())
    sim = Simulator(b.Build())
    root = sim.get_mutable_context()
    plant.GetMyMutableContextFromRoot(root).SetContinuousState([1.0, -1.0])
    sim.AdvanceTo(15.0)
    x = plant.GetMyContextFromRoot(root).get_continuous_state_vector()
    xhat = observer.get_estimated_state_output_port().Eval(observer.GetMyContextFromRoot(root))
    np.testing.assert_allclose(xhat, x, atol=1e-5)


def test_kalman_filter_system_has_the_matrix_gain():
    plant, ctx = _plant()
    kf = SteadyStateKalmanFilter(plant, ctx, W, V)
    np.testing.assert_allclose(kf.L(), SteadyStateKalmanFilter(A, C, W, V), rtol=1e-9)
    del plant, ctx  # the filter keeps the observed system alive
    assert kf.get_estimated_state_output_port().size() == 2
