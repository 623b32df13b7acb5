"""Events of Python leaves (publishes, initialization, witnesses), numeric
parameters, and exceptions raised from each kind of callback."""
import math

import numpy as np
import pytest

from teal import (DiscreteUpdateEvent, EventStatus, LeafSystem, PublishEvent, Simulator,
                  TealCallbackError, TealInvalidArgumentError, TealStateError,
                  WitnessFunctionDirection)


class Decay(LeafSystem):
    """x' = -x from x = 1 (x(t) = exp(-t)), recording what its events saw."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.DeclareContinuousState(1, model_value=[1.0])
        self.seen = []

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_value()[0] = -context.get_continuous_state_vector()[0]

    def record(self, context):
        self.seen.append((context.get_time(), context.get_continuous_state_vector()[0]))


def _run(system, t_final, accuracy=1e-10, **settings):
    sim = Simulator(system)
    sim.get_mutable_integrator().set_target_accuracy(accuracy)
    if settings.get("publish_every_time_step"):
        sim.set_publish_every_time_step(True)
    status = sim.AdvanceTo(t_final)
    return sim, status


def test_periodic_publish_sees_the_state_at_each_period():
    sys = Decay()
    sys.DeclarePeriodicPublishEvent(0.25, 0.0, sys.record)
    _run(sys, 1.0)
    times = [t for t, _ in sys.seen]
    assert times == pytest.approx([0.0, 0.25, 0.5, 0.75, 1.0])
    for t, x in sys.seen:
        assert x == pytest.approx(math.exp(-t), rel=1e-8)


def test_forced_publish_runs_when_forced_and_every_step_when_asked():
    sys = Decay()
    sys.DeclareForcedPublishEvent(sys.record)
    ctx = sys.CreateDefaultContext()
    sys.ForcedPublish(ctx)
    assert sys.seen == [(0.0, 1.0)]
    sys.seen.clear()
    _run(sys, 0.5)
    assert sys.seen == []  # not forced: never runs
    sim, _ = _run(sys, 0.5, publish_every_time_step=True)
    assert len(sys.seen) >= sim.get_num_steps_taken() > 0
    assert sys.seen[-1][0] == pytest.approx(0.5)


def test_per_step_and_initialization_events():
    sys = Decay()
    inits = []
    sys.DeclarePerStepPublishEvent(sys.record)
    sys.DeclareInitializationPublishEvent(lambda context: inits.append(context.get_time()))
    sim, _ = _run(sys, 0.3)
    assert inits == [0.0]
    assert len(sys.seen) == sim.get_num_steps_taken() + 1  # the steps and the start


class Counter(LeafSystem):
    """A discrete counter set to 10 at initialization, then +1 every 0.1 s."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.DeclareDiscreteState(1)
        self.DeclareInitializationDiscreteUpdateEvent(
            lambda context, xd: xd.set_value([10.0]))
        self.DeclarePeriodicDiscreteUpdateEvent(
            0.1, 0.05, lambda context, xd: xd.set_value(context.get_discrete_state_vector() + 1))


def test_initialization_discrete_update():
    sys = Counter()
    sim, _ = _run(sys, 0.33)
    assert sim.get_context().get_discrete_state_vector()[0] == 13.0  # 0.05, 0.15, 0.25


class Bouncer(LeafSystem):
    """A ball falling from 1 m: x = [height, velocity]; a witness on the
    height marks the impact."""

    def __init__(self, update=False):
        LeafSystem.__init__(self)
        self.DeclareContinuousState(1, 1, 0, model_value=[1.0, 0.0])
        self.hits = []
        self.DeclareDiscreteState(1)
        event = DiscreteUpdateEvent(self.on_hit_update) if update else PublishEvent(self.on_hit)
        self.witness = self.MakeWitnessFunction(
            "ground", WitnessFunctionDirection.kPositiveThenNonPositive,
            lambda context: context.get_continuous_state_vector()[0], event)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.SetFromVector([context.get_continuous_state_vector()[1], -9.81])

    def on_hit(self, context):
        self.hits.append(context.get_time())

    def on_hit_update(self, context, xd):
        self.hits.append(context.get_time())
        xd.set_value([context.get_time()])


def test_witness_publish_isolates_the_impact_time():
    sys = Bouncer()
    assert sys.witness.description() == "ground"
    _run(sys, 0.6, accuracy=1e-8)
    assert len(sys.hits) == 1
    assert sys.hits[0] == pytest.approx(math.sqrt(2.0 / 9.81), abs=1e-6)


def test_witness_discrete_update_writes_the_state():
    sys = Bouncer(update=True)
    sim, _ = _run(sys, 0.6, accuracy=1e-8)
    xd = sim.get_context().get_discrete_state_vector()[0]
    assert xd == pytest.approx(math.sqrt(2.0 / 9.81), abs=1e-6)


def test_witness_needs_an_event():
    sys = Decay()
    with pytest.raises(TealInvalidArgumentError, match="PublishEvent or DiscreteUpdateEvent"):
        sys.MakeWitnessFunction("w", WitnessFunctionDirection.kCrossesZero, lambda c: 1.0,
                                lambda c: None)


def test_event_status_termination_stops_the_run():
    sys = Decay()
    sys.DeclarePeriodicPublishEvent(
        0.1, 0.0, lambda context: EventStatus.ReachedTermination(sys, "enough")
        if context.get_time() >= 0.3 - 1e-12 else None)
    sim, status = _run(sys, 1.0)
    assert status.reached_termination()
    assert sim.get_context().get_time() == pytest.approx(0.3)


def test_event_status_failed_raises_with_its_message():
    sys = Decay()
    sys.DeclarePeriodicPublishEvent(0.1, 0.2, lambda context: EventStatus.Failed(sys, "sensor"))
    with pytest.raises(TealCallbackError, match="sensor"):
        _run(sys, 1.0)


def _raiser(after):
    def callback(context, *rest):
        if context.get_time() >= after - 1e-12:
            raise KeyError("boom in a callback")
    return callback


@pytest.mark.parametrize("kind", ["periodic", "forced", "per_step", "init", "witness",
                                  "witness_calc", "monitor"])
def test_exceptions_from_each_callback_reach_advance_to_and_keep_the_state(kind):
    sys = Decay()
    when = 0.0 if kind in ("init", "witness_calc") else 0.5
    if kind == "periodic":
        sys.DeclarePeriodicPublishEvent(0.25, 0.0, _raiser(when))
    elif kind == "forced":
        sys.DeclareForcedPublishEvent(_raiser(when))
    elif kind == "per_step":
        sys.DeclarePerStepPublishEvent(_raiser(when))
    elif kind == "init":
        sys.DeclareInitializationPublishEvent(_raiser(when))
    elif kind == "witness":
        sys.MakeWitnessFunction("half", WitnessFunctionDirection.kPositiveThenNonPositive,
                                lambda c: c.get_continuous_state_vector()[0] - math.exp(-0.5),
                                PublishEvent(_raiser(0.0)))
    elif kind == "witness_calc":
        sys.MakeWitnessFunction("bad", WitnessFunctionDirection.kCrossesZero, _raiser(0.0),
                                PublishEvent(lambda c: None))
    sim = Simulator(sys)
    sim.get_mutable_integrator().set_target_accuracy(1e-10)
    sim.set_publish_every_time_step(kind == "forced")
    if kind == "monitor":
        sim.set_monitor(_raiser(when))
    with pytest.raises(KeyError, match="boom") as info:
        sim.AdvanceTo(1.0)
    assert "callback" in "".join(str(tb.name) for tb in info.traceback)  # its own traceback
    t = sim.get_context().get_time()
    x = sim.get_context().get_continuous_state_vector()[0]
    # stopped at the failing event (per-step ones at the first step end past
    # 0.5; steps are at most 0.1 s), with the last accepted state
    assert when - 1e-6 <= t <= when + 0.1
    assert x == pytest.approx(math.exp(-t), rel=1e-7)
    assert np.isfinite(x)


def test_declarations_after_first_use_are_refused():
    sys = Decay()
    sys.CreateDefaultContext()
    with pytest.raises(TealStateError, match="declarations must come before"):
        sys.DeclarePeriodicPublishEvent(0.1, 0.0, sys.record)
    with pytest.raises(TealStateError):
        sys.DeclareNumericParameter([1.0])


def test_bad_event_arguments_raise_teal_errors():
    sys = Decay()
    with pytest.raises(TealInvalidArgumentError, match="period"):
        sys.DeclarePeriodicPublishEvent(-1.0, 0.0, sys.record)
