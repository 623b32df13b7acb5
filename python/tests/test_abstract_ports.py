"""Abstract-valued ports of Python leaves: Python objects through the diagram."""
import gc

import numpy as np
import pytest

from teal import (AbstractValue, AddMultibodyPlantSceneGraph, ContactResults, DiagramBuilder, Gain,
                  LeafSystem, Parser, Simulator, TealError, TealInvalidArgumentError)
from teal import abstract
from teal._core import ffi


class Producer(LeafSystem):
    """Integrates x' = 1 and publishes {"t": time, "x": x} as a Python dict."""

    def __init__(self, fail=False):
        LeafSystem.__init__(self)
        self.DeclareContinuousState(1)
        self.fail = fail
        self.calls = 0
        self.port = self.DeclareAbstractOutputPort(
            "report", lambda: AbstractValue.Make({}), self.report,
            {self.time_ticket(), self.xc_ticket()})

    def report(self, context, output):
        self.calls += 1
        if self.fail and context.get_time() > 0.5:
            raise RuntimeError("bad report")
        output.set_value({"t": context.get_time(), "x": context.get_continuous_state_vector()[0]})

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_value()[0] = 1.0


class Consumer(LeafSystem):
    """Reads the dict and outputs [t + x]."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.input = self.DeclareAbstractInputPort("report", AbstractValue.Make({}))
        self.DeclareVectorOutputPort("sum", 1, self.add)
        self.seen = []
        self.DeclarePerStepPublishEvent(
            lambda context: self.seen.append(self.input.Eval(context)["t"]))

    def add(self, context, output):
        report = self.input.Eval(context)
        output.SetAtIndex(0, report["t"] + report["x"])


def _diagram(fail=False):
    b = DiagramBuilder()
    producer = b.AddSystem(Producer(fail))
    consumer = b.AddSystem(Consumer())
    b.Connect(producer.get_output_port(), consumer.get_input_port())
    return b.Build(), producer, consumer


def test_python_objects_flow_through_the_diagram():
    diagram, producer, consumer = _diagram()
    sim = Simulator(diagram)
    sim.AdvanceTo(2.0)
    root = sim.get_context()
    report = producer.get_output_port().Eval(producer.GetMyContextFromRoot(root))
    assert report == {"t": 2.0, "x": pytest.approx(2.0)}
    assert consumer.get_output_port().Eval(consumer.GetMyContextFromRoot(root))[0] == \
        pytest.approx(4.0)
    # the input sees the very object the output holds (no copy)
    assert consumer.input.Eval(consumer.GetMyContextFromRoot(root)) is report
    assert consumer.seen[0] == 0.0 and consumer.seen[-1] == 2.0  # a publish read it each step


def test_output_is_cached_and_recomputed_after_a_change():
    producer = Producer()
    ctx = producer.CreateDefaultContext()
    first = producer.port.Eval(ctx)
    assert producer.port.Eval(ctx) is first and producer.calls == 1
    ctx.SetContinuousState([5.0])
    assert producer.port.Eval(ctx)["x"] == 5.0 and producer.calls == 2


def test_fix_value_with_an_object_and_an_abstract_value():
    consumer = Consumer()
    ctx = consumer.CreateDefaultContext()
    report = {"t": 1.0, "x": 2.5}
    consumer.get_input_port().FixValue(ctx, report)
    assert consumer.input.Eval(ctx) is report
    assert consumer.get_output_port().Eval(ctx)[0] == 3.5
    consumer.get_input_port().FixValue(ctx, AbstractValue.Make({"t": 0.0, "x": 1.0}))
    assert consumer.get_output_port().Eval(ctx)[0] == 1.0


def test_exception_in_an_abstract_calc_reaches_advance_to():
    diagram, producer, consumer = _diagram(fail=True)
    sim = Simulator(diagram)
    with pytest.raises(RuntimeError, match="bad report"):
        sim.AdvanceTo(1.0)
    t = sim.get_context().get_time()  # the step that failed, with its state
    assert 0.5 < t <= 0.6 and consumer.seen[-1] <= 0.5
    assert sim.get_context().get_continuous_state_vector()[0] == pytest.approx(t)


def test_objects_are_released_with_their_contexts():
    gc.collect()
    before = abstract.num_live_objects()
    for _ in range(20):
        diagram, _, _ = _diagram()
        sim = Simulator(diagram)
        sim.AdvanceTo(0.1)
        consumer = Consumer()
        ctx = consumer.CreateDefaultContext()
        consumer.get_input_port().FixValue(ctx, {"t": 0.0, "x": 0.0})
        clone_source = ctx  # noqa: F841 -- released at the next iteration
    del diagram, sim, consumer, ctx, clone_source
    gc.collect()
    assert abstract.num_live_objects() == before


def test_type_mismatches_are_refused():
    b = DiagramBuilder()
    producer = b.AddSystem(Producer())
    gain = b.AddSystem(Gain(1.0, 1))
    with pytest.raises(TealError):
        b.Connect(producer.get_output_port(), gain.get_input_port())


def test_c_abstract_ports_read_through_their_c_readers(acrobot_urdf):
    b = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(b, 1e-3)
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    port = plant.get_contact_results_output_port()
    # a plain OutputPort of a C-typed value: read by the reader of its type
    results = plant.get_output_port(port.get_index()).Eval(ctx)
    assert isinstance(results, ContactResults) and results.num_point_pair_contacts() == 0
    assert np.isfinite(plant.get_state_output_port().Eval(ctx)).all()
    # a C type without a reader (the visualizer's marker list) is refused by name
    name = ffi.new("char[]", b"teal_marker_list")
    marker_type = ffi.new("teal_value_type *", {"name": name, "size": 8})
    with pytest.raises(TealInvalidArgumentError,
                       match="C type 'teal_marker_list' cannot be read.*teal_contact_results"):
        abstract.read_port_value(marker_type, ffi.NULL, "port 'markers'")


class Planner(LeafSystem):
    """Keeps a plan (a Python list) as abstract state: initialized to
    ["start"], extended every 0.25 s by an unrestricted update that also
    counts in its discrete state."""

    def __init__(self, fail_at=None):
        LeafSystem.__init__(self)
        self.fail_at = fail_at
        self.plan = self.DeclareAbstractState(AbstractValue.Make(["default"]))
        self.DeclareDiscreteState(1)
        self.DeclareInitializationUnrestrictedUpdateEvent(
            lambda context, state: state.get_mutable_abstract_state(self.plan).set_value(
                ["start"]))
        self.DeclarePeriodicUnrestrictedUpdateEvent(0.25, 0.25, self.replan)
        self.DeclareAbstractOutputPort("plan", None, self.output_plan, {self.all_state_ticket()})

    def replan(self, context, state):
        t = context.get_time()
        if self.fail_at is not None and t >= self.fail_at - 1e-12:
            raise ValueError("cannot replan")
        old = context.get_abstract_state(self.plan).get_value()
        state.get_mutable_abstract_state(self.plan).set_value(old + [round(t, 6)])
        count = state.get_mutable_discrete_state()
        count.SetAtIndex(0, count.GetAtIndex(0) + 1)

    def output_plan(self, context, output):
        output.set_value(context.get_abstract_state(self.plan).get_value())


def test_abstract_state_with_unrestricted_updates():
    planner = Planner()
    ctx = planner.CreateDefaultContext()
    assert ctx.get_abstract_state(0).get_value() == ["default"]
    sim = Simulator(planner, ctx)
    sim.AdvanceTo(1.0)
    # as in Drake, an update due at the end time waits for the next AdvanceTo
    assert ctx.get_abstract_state(planner.plan).get_value() == ["start", 0.25, 0.5, 0.75]
    assert ctx.get_discrete_state_vector()[0] == 3.0
    assert planner.get_output_port().Eval(ctx)[-1] == 0.75
    assert sim.get_num_unrestricted_updates() == 4  # the initialization and three periods
    ctx.SetAbstractState(planner.plan, ["reset"])
    assert planner.get_output_port().Eval(ctx) == ["reset"]  # the cache saw the change


def test_unrestricted_update_exception_keeps_the_last_state():
    planner = Planner(fail_at=0.5)
    sim = Simulator(planner)
    with pytest.raises(ValueError, match="cannot replan"):
        sim.AdvanceTo(1.0)
    ctx = sim.get_context()
    assert ctx.get_abstract_state(planner.plan).get_value() == ["start", 0.25]
    assert ctx.get_discrete_state_vector()[0] == 1.0


def test_abstract_state_objects_are_released():
    gc.collect()
    before = abstract.num_live_objects()
    for _ in range(10):
        planner = Planner()
        sim = Simulator(planner)
        sim.AdvanceTo(0.5)
    del planner, sim
    gc.collect()
    assert abstract.num_live_objects() == before


def test_abstract_state_bad_index():
    planner = Planner()
    ctx = planner.CreateDefaultContext()
    with pytest.raises(TealError):
        ctx.get_abstract_state(3)
