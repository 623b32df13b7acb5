"""ConstantVectorSource, Gain, Adder, Saturation, PidController, ZeroOrderHold, LinearSystem."""
import numpy as np
import pytest

from teal import (ConstantVectorSource, DiagramBuilder, Gain, LinearSystem, LogVectorOutput,
                  PidController, Saturation, Simulator, TealError, TealNonFiniteError,
                  TealSizeError, ZeroOrderHold)


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
