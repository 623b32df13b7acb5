"""Simulator settings: integrators (ResetIntegratorFromFlags), accuracy, step
sizes, publishing every step, the monitor and the statistics."""
import math

import pytest

from teal import (EventStatus, GetIntegrationSchemes, LeafSystem, LinearSystem,
                  ResetIntegratorFromFlags, Simulator, TealInvalidArgumentError)


def _decay():
    """x' = -x from x = 1, a C LinearSystem."""
    sys = LinearSystem([[-1.0]], [[0.0]], [[1.0]], [[0.0]])
    ctx = sys.CreateDefaultContext()
    ctx.SetContinuousState([1.0])
    sys.get_input_port().FixValue(ctx, [0.0])
    return sys, ctx


def test_explicit_euler_at_fixed_step_matches_its_recurrence():
    sys, ctx = _decay()
    sim = Simulator(sys, ctx)
    integrator = ResetIntegratorFromFlags(sim, "explicit_euler", 0.1)
    assert integrator.get_name() == "explicit_euler"
    assert integrator.get_maximum_step_size() == 0.1
    sim.AdvanceTo(1.0)
    assert ctx.get_continuous_state_vector()[0] == pytest.approx(0.9 ** 10, rel=1e-12)
    assert sim.get_num_steps_taken() == 10


def test_rk4_fixed_step_is_fourth_order():
    errors = []
    for h in (0.1, 0.05):
        sys, ctx = _decay()
        sim = Simulator(sys, ctx)
        integrator = ResetIntegratorFromFlags(sim, "runge_kutta4", h)
        integrator.set_fixed_step_mode(True)
        assert integrator.get_fixed_step_mode()
        sim.AdvanceTo(1.0)
        errors.append(abs(ctx.get_continuous_state_vector()[0] - math.exp(-1.0)))
        assert sim.get_integrator().get_num_derivative_evaluations() >= 4 * round(1.0 / h)
    assert errors[0] / errors[1] == pytest.approx(16.0, rel=0.05)


@pytest.mark.parametrize("scheme,tol", [("runge_kutta3", 1e-5), ("runge_kutta5", 1e-5),
                                        ("radau3", 1e-5), ("implicit_euler", 1e-3)])
def test_error_controlled_schemes_meet_the_accuracy(scheme, tol):
    # local error control: the global error of the first-order method is larger
    sys, ctx = _decay()
    sim = Simulator(sys, ctx)
    integrator = ResetIntegratorFromFlags(sim, scheme, 0.05)
    integrator.set_target_accuracy(1e-6)
    assert integrator.get_target_accuracy() == 1e-6
    sim.AdvanceTo(2.0)
    assert ctx.get_continuous_state_vector()[0] == pytest.approx(math.exp(-2.0), abs=tol)
    stats = sim.get_statistics()
    assert stats["steps"] == sim.get_num_steps_taken() > 0
    assert stats["largest_step"] <= 0.05 + 1e-12
    assert integrator.get_largest_step_size_taken() == stats["largest_step"]
    assert integrator.get_smallest_adapted_step_size_taken() == stats["smallest_step"]
    assert integrator.get_num_step_shrinkages_from_error_control() == stats["failed_steps"]


def test_tighter_accuracy_takes_more_steps_and_is_closer():
    results = []
    for accuracy in (1e-3, 1e-9):
        sys, ctx = _decay()
        sim = Simulator(sys, ctx)
        sim.get_mutable_integrator().set_target_accuracy(accuracy)
        sim.AdvanceTo(3.0)
        assert sim.get_integrator().get_name() == "rk3"  # the default
        assert sim.get_integrator().supports_error_estimation()
        results.append((sim.get_num_steps_taken(),
                        abs(ctx.get_continuous_state_vector()[0] - math.exp(-3.0))))
    assert results[1][0] > results[0][0] and results[1][1] < results[0][1]
    assert results[1][1] < 1e-8


def test_unknown_scheme_and_bad_values_raise_with_messages():
    sys, ctx = _decay()
    sim = Simulator(sys, ctx)
    assert "runge_kutta3" in GetIntegrationSchemes()
    with pytest.raises(TealInvalidArgumentError, match="unknown scheme 'rk9'"):
        ResetIntegratorFromFlags(sim, "rk9", 0.1)
    with pytest.raises(TealInvalidArgumentError, match="max step"):
        sim.get_mutable_integrator().set_maximum_step_size(-1.0)
    with pytest.raises(TealInvalidArgumentError, match="accuracy"):
        sim.get_mutable_integrator().set_target_accuracy(float("nan"))
    with pytest.raises(TealInvalidArgumentError):
        sim.set_target_realtime_rate(-2.0)


class Tick(LeafSystem):
    """Counts its forced publishes."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.DeclareContinuousState(1)
        self.forced = 0
        self.DeclareForcedPublishEvent(self.count)

    def count(self, context):
        self.forced += 1

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_value()[0] = 1.0


def test_publish_every_time_step_and_statistics():
    sys = Tick()
    sim = Simulator(sys)
    sim.set_publish_every_time_step(True)
    sim.get_mutable_integrator().set_maximum_step_size(0.01)
    sim.Initialize()
    sim.AdvanceTo(0.1)
    assert sim.get_num_steps_taken() >= 10
    assert sys.forced == sim.get_num_steps_taken() + 1  # each step and the start
    assert sim.get_num_publishes() == sys.forced
    assert sim.get_num_discrete_updates() == 0 and sim.get_num_unrestricted_updates() == 0


def test_monitor_terminates_and_sees_the_root_context():
    sys, ctx = _decay()
    sim = Simulator(sys, ctx)
    seen = []

    def monitor(root):
        seen.append(root.get_time())
        if root.get_continuous_state_vector()[0] < 0.5:
            return EventStatus.ReachedTermination(sys, "half gone")
        return None
    sim.set_monitor(monitor)
    status = sim.AdvanceTo(5.0)
    assert status.reached_termination()
    t = ctx.get_time()
    assert math.exp(-t) < 0.5 and t < 1.0 and seen[-1] == t
    sim.clear_monitor()
    status = sim.AdvanceTo(2.0)
    assert not status.reached_termination() and ctx.get_time() == 2.0


def test_realtime_rate_paces_the_run():
    import time
    sys, ctx = _decay()
    sim = Simulator(sys, ctx)
    sim.set_target_realtime_rate(1.0)
    t0 = time.perf_counter()
    sim.AdvanceTo(0.2)
    assert time.perf_counter() - t0 >= 0.15
