"""Unrestricted updates of a Python leaf writing its continuous state."""
import numpy as np
import pytest

from teal import LeafSystem, ResetIntegratorFromFlags, Simulator, TealNotFoundError, TealSizeError

G = 9.81


class DroppedAgain(LeafSystem):
    """A falling point h'' = -g with a clock z' = 1, x = [h; v; z]; every
    0.5 s an unrestricted update lifts it back to h = 1 at rest and adds 10
    to the clock (so the update must read the current x as well)."""

    def __init__(self, write=None):
        LeafSystem.__init__(self)
        self.DeclareContinuousState(1, 1, 1, model_value=[1.0, 0.0, 0.0])
        self.DeclarePeriodicUnrestrictedUpdateEvent(0.5, 0.5, write or self.reset)
        self.seen = []

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector()
        derivatives.SetFromVector([x[1], -G, 1.0])

    def reset(self, context, state):
        x = state.get_mutable_continuous_state()
        self.seen.append(x.CopyToVector())
        x.get_mutable_vector().SetFromVector([1.0, 0.0, x.get_value()[2] + 10.0])


def simulate(system, t):
    simulator = Simulator(system)
    ResetIntegratorFromFlags(simulator, "runge_kutta3", 1e-3)
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.AdvanceTo(t)
    return simulator.get_context().get_continuous_state_vector().copy()


def test_unrestricted_update_resets_the_continuous_state():
    system = DroppedAgain()
    x = simulate(system, 0.75)
    # before the reset at 0.5: h = 1 - g t^2 / 2, v = -g t, z = t
    assert len(system.seen) == 1
    np.testing.assert_allclose(system.seen[0], [1 - G * 0.125, -G * 0.5, 0.5], atol=1e-6)
    # after it: dropped again from rest for 0.25 s, the clock moved by 10
    np.testing.assert_allclose(x, [1 - G * 0.25 ** 2 / 2, -G * 0.25, 10.75], atol=1e-6)


def test_parts_and_single_entries_of_the_continuous_state():
    def lift(context, state):
        x = state.get_mutable_continuous_state()
        assert x.size() == 3
        x.get_generalized_position().SetFromVector([2.0])
        x.get_generalized_velocity().SetAtIndex(0, 1.0)
        x.SetAtIndex(2, -1.0)

    x = simulate(DroppedAgain(lift), 0.5 + 1e-9)
    np.testing.assert_allclose(x, [2.0, 1.0, -1.0], atol=1e-6)


@pytest.mark.parametrize("write, error, message", [
    (lambda x: x.SetFromVector([1.0, 2.0]), TealSizeError, "expected 3 values, got 2"),
    (lambda x: x.SetAtIndex(3, 0.0), TealNotFoundError, "no entry 3"),
])
def test_bad_writes_raise_from_the_callback(write, error, message):
    system = DroppedAgain(lambda context, state: write(state.get_mutable_continuous_state()))
    with pytest.raises(error, match=message):
        simulate(system, 0.75)
