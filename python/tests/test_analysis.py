"""Simulator, LogVectorOutput / VectorLog, Linearize and LinearQuadraticRegulator."""
import math

import numpy as np
import pytest

from teal import (NO_PORT, ConstantVectorSource, DiagramBuilder,
                  DiscreteTimeLinearQuadraticRegulator, Gain, Linearize,
                  LinearQuadraticRegulator, LinearSystem, LogVectorOutput, Simulator, TealError,
                  TealSizeError)


def _decay_diagram(period):
    """x' = -x + u with u = 0, logged every period."""
    b = DiagramBuilder()
    sys = b.AddSystem(LinearSystem([[-1.0]], [[1.0]], [[1.0]], [[0.0]]))
    zero = b.AddSystem(ConstantVectorSource([0.0]))
    b.Connect(zero.get_output_port(), sys.get_input_port())
    log = LogVectorOutput(sys.get_output_port(), b, period)
    return b.Build(), sys, log


def test_simulator_matches_exponential_and_log_is_sampled():
    diagram, sys, log = _decay_diagram(0.1)
    sim = Simulator(diagram)
    ctx = sim.get_mutable_context()
    sys.GetMyContextFromRoot(ctx).SetContinuousState([1.0])
    status = sim.AdvanceTo(1.0)
    assert status.time == pytest.approx(1.0) and not status.reached_termination()
    assert ctx.get_time() == pytest.approx(1.0)
    x = sys.GetMyContextFromRoot(ctx).get_continuous_state_vector()
    assert x[0] == pytest.approx(math.exp(-1.0), rel=1e-4)
    vlog = log.FindLog(ctx)
    times, data = vlog.sample_times(), vlog.data()
    np.testing.assert_allclose(times, np.arange(11) * 0.1, atol=1e-12)
    assert data.shape == (1, 11) and vlog.num_samples() == 11
    np.testing.assert_allclose(data[0], np.exp(-times), rtol=1e-4)
    vlog.Clear()
    assert vlog.num_samples() == 0


def test_simulator_on_unconnected_input_raises_teal_message():
    b = DiagramBuilder()
    g = b.AddSystem(Gain(1.0, 1))
    LogVectorOutput(g.get_output_port(), b)
    sim = Simulator(b.Build())
    with pytest.raises(TealError) as info:
        sim.AdvanceTo(0.1)
    assert "connected" in str(info.value)


def test_linearize_recovers_a_linear_system():
    A, B = [[0.0, 1.0], [-2.0, -3.0]], [[0.0], [1.0]]
    sys = LinearSystem(A, B, [[1.0, 0.0]], [[0.0]])
    ctx = sys.CreateDefaultContext()
    sys.get_input_port().FixValue(ctx, [0.0])
    lin = Linearize(sys, ctx)
    np.testing.assert_allclose(lin.A(), A, atol=1e-8)
    np.testing.assert_allclose(lin.B(), B, atol=1e-8)
    np.testing.assert_allclose(lin.C(), [[1.0, 0.0]], atol=1e-8)
    no_out = Linearize(sys, ctx, output_port_index=NO_PORT)
    assert no_out.C().shape == (0, 2)


def test_linearize_away_from_equilibrium_raises():
    sys = LinearSystem([[-1.0]], [[1.0]], [[1.0]], [[0.0]])
    ctx = sys.CreateDefaultContext()
    ctx.SetContinuousState([1.0])
    sys.get_input_port().FixValue(ctx, [0.0])
    with pytest.raises(TealError, match="equilibrium"):
        Linearize(sys, ctx)


def test_lqr_double_integrator_matches_analytic_gain():
    A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    K, S = LinearQuadraticRegulator(A, B, np.eye(2), [[1.0]])
    np.testing.assert_allclose(K, [[1.0, math.sqrt(3.0)]], rtol=1e-10)
    # the continuous algebraic Riccati equation holds
    res = A.T @ S + S @ A - S @ B @ B.T @ S + np.eye(2)
    assert np.abs(res).max() < 1e-10


def test_discrete_lqr_satisfies_the_discrete_riccati_equation():
    A, B = np.array([[1.0, 0.1], [0.0, 1.0]]), np.array([[0.005], [0.1]])
    Q, R = np.eye(2), np.array([[1.0]])
    K, S = DiscreteTimeLinearQuadraticRegulator(A, B, Q, R)
    K_ref = np.linalg.solve(R + B.T @ S @ B, B.T @ S @ A)
    np.testing.assert_allclose(K, K_ref, rtol=1e-9)
    res = A.T @ S @ A - S - A.T @ S @ B @ K_ref + Q
    assert np.abs(res).max() < 1e-9


def test_lqr_system_form_equals_matrix_form():
    A, B = [[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0]]
    plant = LinearSystem(A, B, np.eye(2), np.zeros((2, 1)))
    ctx = plant.CreateDefaultContext()
    plant.get_input_port().FixValue(ctx, [0.0])
    controller = LinearQuadraticRegulator(plant, ctx, np.eye(2), [[1.0]])
    K, _ = LinearQuadraticRegulator(A, B, np.eye(2), [[1.0]])
    np.testing.assert_allclose(-controller.D(), K, rtol=1e-8)


def test_lqr_bad_sizes_raise():
    with pytest.raises(TealSizeError):
        LinearQuadraticRegulator(np.eye(2), [[0.0], [1.0]], np.eye(3), [[1.0]])
    with pytest.raises(TealSizeError):
        LinearQuadraticRegulator(np.eye(2), [[0.0], [1.0]], np.eye(2), np.eye(2))


def test_simulator_with_a_given_context_and_diagram_input():
    b = DiagramBuilder()
    sys = b.AddSystem(LinearSystem([[0.0]], [[1.0]], [[1.0]], [[0.0]]))  # x' = u
    b.ExportInput(sys.get_input_port(), "u")
    b.ExportOutput(sys.get_output_port(), "x")
    diagram = b.Build()
    ctx = diagram.CreateDefaultContext()
    diagram.get_input_port().FixValue(ctx, [2.0])
    sim = Simulator(diagram, ctx)
    assert sim.get_context() is ctx
    sim.Initialize()
    sim.set_target_realtime_rate(0.0)
    sim.AdvanceTo(1.5)
    del sim  # the context stays usable: the simulator only borrowed it
    np.testing.assert_allclose(diagram.get_output_port().Eval(ctx), [3.0], rtol=1e-9)
    with pytest.raises(TealError):
        Simulator(diagram).set_target_realtime_rate(-1.0)
