"""ConstantVectorSource, Gain, Adder, Saturation, PidController, ZeroOrderHold, LinearSystem,
MatrixGain, Multiplexer, Demultiplexer, PassThrough, Integrator, FirstOrderLowPassFilter,
TrajectorySource."""
import math

import numpy as np
import pytest

from teal import (ConstantVectorSource, Demultiplexer, DiagramBuilder, FirstOrderLowPassFilter,
                  Gain, Integrator, LinearSystem, LogVectorOutput, MatrixGain, Multiplexer,
                  PassThrough, PidController, PiecewisePolynomial, Saturation, Simulator,
                  TealError, TealInvalidArgumentError, TealNonFiniteError, TealSizeError,
                  TrajectorySource, ZeroOrderHold)


def _eval(system, *inputs):
    ctx = system.CreateDefaultContext()
    for i, u in enumerate(inputs):
        system.get_input_port(i).FixValue(ctx, u)
    return system.get_output_port().Eval(ctx)


def test_constant_vector_source():
    np.testing.assert_array_equal(_eval(ConstantVectorSource([4.0, -1.0])), [4.0, -1.0])


def test_saturation_clamps_entrywise():
    sat = Saturation([-1.0, 0.0], [1.0, 2.0])
    np.testing.assert_array_equal(_eval(sat, [-5.0, 1.5]), [-1.0, 1.5])
    np.testing.assert_array_equal(_eval(sat, [0.5, 9.0]), [0.5, 2.0])
    with pytest.raises(TealSizeError):
        Saturation([0.0, 0.0], [1.0])
    with pytest.raises(TealError) as info:
        Saturation([1.0], [0.0])  # min above max
    assert str(info.value)


def test_pid_is_kp_error_plus_kd_error_rate_at_start():
    pid = PidController([2.0], [0.5], [0.25])
    ctx = pid.CreateDefaultContext()
    pid.get_input_port_estimated_state().FixValue(ctx, [1.0, 0.0])
    pid.get_input_port_desired_state().FixValue(ctx, [3.0, 4.0])
    np.testing.assert_allclose(pid.get_output_port_control().Eval(ctx), [2.0 * 2.0 + 0.25 * 4.0])
    with pytest.raises(TealNonFiniteError):
        PidController([np.nan], [0.0], [0.0])


def test_gain_rejects_vector_k_and_bad_size():
    with pytest.raises(TealError):
        Gain([1.0, 2.0], 2)
    with pytest.raises(TealSizeError):
        Gain(1.0, 0)


def test_zero_order_hold_samples_at_its_period():
    b = DiagramBuilder()
    t = b.AddSystem(LinearSystem([[0.0]], [[1.0]], [[1.0]], [[0.0]]))  # x' = 1: x = t
    zoh = b.AddSystem(ZeroOrderHold(0.25, 1))
    src = b.AddSystem(ConstantVectorSource([1.0]))
    b.Connect(src.get_output_port(), t.get_input_port())
    b.Connect(t.get_output_port(), zoh.get_input_port())
    log = LogVectorOutput(zoh.get_output_port(), b, 0.1)
    sim = Simulator(b.Build())
    sim.AdvanceTo(0.6)
    data = log.FindLog(sim.get_context()).data()[0]
    times = log.FindLog(sim.get_context()).sample_times()
    # held value is the ramp at the last sample instant k * 0.25 < t: as in
    # Drake, the publish at a sample instant runs before that instant's update
    expected = np.maximum(np.ceil(times / 0.25 - 1e-9) - 1.0, 0.0) * 0.25
    np.testing.assert_allclose(data, expected, atol=1e-9)


def test_linear_system_matrices_round_trip_and_errors():
    A, B, C, D = [[0.0, 1.0], [-2.0, -3.0]], [[0.0], [1.0]], [[1.0, 0.0]], [[0.5]]
    sys = LinearSystem(A, B, C, D)
    np.testing.assert_array_equal(sys.A(), A)
    np.testing.assert_array_equal(sys.B(), B)
    np.testing.assert_array_equal(sys.C(), C)
    np.testing.assert_array_equal(sys.D(), D)
    assert sys.time_period() == 0.0
    with pytest.raises(TealSizeError):
        LinearSystem(A, B, C, [[0.5, 1.0]])


def _ctx_with(system, *inputs):
    ctx = system.CreateDefaultContext()
    for i, u in enumerate(inputs):
        system.get_input_port(i).FixValue(ctx, u)
    return ctx


def test_gain_scalar_and_matrix_forms():
    D = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    g = Gain(D)
    ctx = _ctx_with(g, [1.0, -1.0])
    np.testing.assert_allclose(g.get_output_port().Eval(ctx), D @ [1.0, -1.0], rtol=0, atol=0)
    scalar = Gain(2.5, 2)
    np.testing.assert_allclose(scalar.get_output_port().Eval(_ctx_with(scalar, [1.0, 2.0])),
                               [2.5, 5.0])
    eye = MatrixGain(2)
    np.testing.assert_allclose(eye.get_output_port().Eval(_ctx_with(eye, [3.0, 4.0])), [3.0, 4.0])
    with pytest.raises(TealInvalidArgumentError, match="size is missing"):
        Gain(2.0)
    with pytest.raises(TealInvalidArgumentError, match="takes no size"):
        Gain(D, 3)


def test_multiplexer_and_demultiplexer_round_trip():
    mux = Multiplexer([2, 1])
    ctx = _ctx_with(mux, [1.0, 2.0], [3.0])
    np.testing.assert_allclose(mux.get_output_port().Eval(ctx), [1.0, 2.0, 3.0])
    assert Multiplexer(3).num_input_ports() == 3
    demux = Demultiplexer(4, 2)
    ctx = _ctx_with(demux, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(demux.get_output_port(1).Eval(ctx), [3.0, 4.0])
    uneven = Demultiplexer([1, 3])
    assert uneven.get_output_port(1).size() == 3
    with pytest.raises(TealInvalidArgumentError, match="not a multiple"):
        Demultiplexer(5, 2)
    with pytest.raises(TealError):
        Multiplexer([2, 0])


def test_pass_through_integrator_and_low_pass_filter_simulate_analytically():
    b = DiagramBuilder()
    src = b.AddSystem(ConstantVectorSource([1.0]))
    through = b.AddSystem(PassThrough(1))
    integ = b.AddSystem(Integrator([2.0]))
    lpf = b.AddSystem(FirstOrderLowPassFilter(0.5))
    b.Connect(src.get_output_port(), through.get_input_port())
    b.Connect(through.get_output_port(), integ.get_input_port())
    b.Connect(through.get_output_port(), lpf.get_input_port())
    sim = Simulator(b.Build())
    sim.get_mutable_integrator().set_target_accuracy(1e-10)
    sim.AdvanceTo(1.0)
    root = sim.get_context()
    assert integ.get_output_port().Eval(integ.GetMyContextFromRoot(root))[0] == \
        pytest.approx(3.0, rel=1e-12)
    assert lpf.get_output_port().Eval(lpf.GetMyContextFromRoot(root))[0] == \
        pytest.approx(1.0 - math.exp(-2.0), rel=1e-7)
    with pytest.raises(TealError):
        FirstOrderLowPassFilter([0.5, -1.0])


def test_trajectory_source_follows_a_first_order_hold():
    traj = PiecewisePolynomial.FirstOrderHold([0.0, 1.0, 2.0], [[0.0, 2.0, 0.0], [1.0, 1.0, 3.0]])
    assert traj.rows() == 2
    np.testing.assert_allclose(traj.value(0.5), [[1.0], [1.0]])
    src = TrajectorySource(traj, 1)
    ctx = src.CreateDefaultContext()
    ctx.SetTime(1.5)
    np.testing.assert_allclose(src.get_output_port(0).Eval(ctx), [1.0, 2.0])
    np.testing.assert_allclose(src.get_output_port(1).Eval(ctx), [-2.0, 2.0])
    zoh = PiecewisePolynomial.ZeroOrderHold([0.0, 1.0], [5.0, 6.0])
    assert zoh.value(0.7)[0, 0] == 5.0
    with pytest.raises(TealError):
        PiecewisePolynomial.FirstOrderHold([0.0, 0.0], [1.0, 2.0])
