"""numpy views over Teal's memory: what they see, that they are read-only,
and that they keep their owner alive (python/README.md lists which calls copy)."""
import gc
import math
import weakref

import numpy as np
import pytest

from teal import (ConstantVectorSource, DiagramBuilder, Integrator, LeafSystem, Simulator,
                  TealNotFoundError, TealSizeError, ZeroOrderHold)
from teal import _core


def _integrator_diagram(rate=2.0):
    """x' = rate from x = 0, so x(t) = rate t exactly (any integrator)."""
    b = DiagramBuilder()
    src = b.AddSystem(ConstantVectorSource([rate]))
    integ = b.AddSystem(Integrator(1))
    b.Connect(src.get_output_port(), integ.get_input_port())
    return b.Build(), integ


def test_continuous_state_view_follows_the_simulation_without_copy():
    diagram, _ = _integrator_diagram()
    sim = Simulator(diagram)
    x = sim.get_context().get_continuous_state_vector()
    snapshot = x.CopyToVector()
    sim.AdvanceTo(1.5)
    assert x[0] == pytest.approx(3.0, rel=1e-12)  # the view sees the new state
    assert snapshot[0] == 0.0  # the copy does not
    again = sim.get_context().get_continuous_state_vector()
    assert np.shares_memory(x, again)


def test_views_are_read_only_and_setters_invalidate_caches():
    diagram, integ = _integrator_diagram()
    sim = Simulator(diagram)
    root = sim.get_mutable_context()
    x = root.get_continuous_state_vector()
    with pytest.raises(ValueError):
        x[0] = 5.0  # a write here would bypass Teal's change tracking
    y = integ.get_output_port().Eval(integ.GetMyContextFromRoot(root))
    assert y[0] == 0.0
    root.SetContinuousState([5.0])  # the setter marks the state changed
    assert x[0] == 5.0
    assert integ.get_output_port().Eval(integ.GetMyContextFromRoot(root))[0] == 5.0


def test_output_eval_view_is_the_cache_entry_and_copy_is_a_snapshot():
    diagram, integ = _integrator_diagram()
    sim = Simulator(diagram)
    ctx = integ.GetMyContextFromRoot(sim.get_mutable_context())
    view = integ.get_output_port().Eval(ctx, copy=False)
    copy = integ.get_output_port().Eval(ctx)
    sim.AdvanceTo(1.0)
    assert view[0] == 0.0 and copy[0] == 0.0  # not re-evaluated yet
    fresh = integ.get_output_port().Eval(ctx, copy=False)
    assert fresh[0] == pytest.approx(2.0) and view[0] == pytest.approx(2.0)
    assert np.shares_memory(view, fresh) and copy[0] == 0.0
    with pytest.raises(ValueError):
        view[0] = 1.0


def test_discrete_state_view_follows_updates():
    b = DiagramBuilder()
    src = b.AddSystem(ConstantVectorSource([7.0]))
    zoh = b.AddSystem(ZeroOrderHold(0.1, 1))
    b.Connect(src.get_output_port(), zoh.get_input_port())
    sim = Simulator(b.Build())
    xd = zoh.GetMyContextFromRoot(sim.get_context()).get_discrete_state_vector()
    assert xd.shape == (1,) and xd[0] == 0.0
    sim.AdvanceTo(0.25)
    assert xd[0] == 7.0


def test_subcontext_state_of_a_leaf_is_a_view_when_contiguous():
    diagram, integ = _integrator_diagram()
    sim = Simulator(diagram)
    sub = integ.GetMyContextFromRoot(sim.get_context())
    x = sub.get_continuous_state_vector()
    sim.AdvanceTo(0.5)
    assert x[0] == pytest.approx(1.0)
    assert np.shares_memory(x, sim.get_context().get_continuous_state_vector())


def test_view_keeps_its_owner_alive_after_del():
    # numpy reads the memory without ASan's checks, so the test watches the
    # owners themselves: the simulator (which owns the context's memory)
    # lives while a view does, and is freed with the last view (no leak).
    diagram, integ = _integrator_diagram()
    sim = Simulator(diagram)
    sim.AdvanceTo(2.0)
    owner = weakref.ref(sim._h)
    x = integ.GetMyContextFromRoot(sim.get_context()).get_continuous_state_vector()
    y = integ.get_output_port().Eval(integ.GetMyContextFromRoot(sim.get_context()), copy=False)
    del sim, diagram, integ
    gc.collect()
    assert owner() is not None and owner().dead_reason is None
    for _ in range(3):  # churn the allocator: a freed block would be reused
        _integrator_diagram()
    assert x[0] == pytest.approx(4.0) and y[0] == pytest.approx(4.0)
    del x
    gc.collect()
    assert owner() is not None and y[0] == pytest.approx(4.0)
    del y
    gc.collect()
    assert owner() is None


def test_view_of_a_standalone_context_outlives_system_and_context():
    integ = Integrator([3.0])
    ctx = integ.CreateDefaultContext()
    owners = weakref.ref(ctx._h), weakref.ref(integ._h)
    x = ctx.get_continuous_state_vector()
    del ctx, integ
    gc.collect()
    assert all(o() is not None for o in owners) and x[0] == 3.0
    del x
    gc.collect()
    assert all(o() is None for o in owners)


def test_inputs_pass_without_copy_when_already_float64_contiguous():
    a = np.arange(4.0)
    assert _core.as_vector(a) is a  # handed to C through ffi.from_buffer
    m = np.eye(3)
    assert _core.as_matrix(m) is m
    strided = np.arange(8.0)[::2]
    assert not np.shares_memory(_core.as_vector(strided), strided)  # copied: C needs contiguity


class Parameterized(LeafSystem):
    """x' = -k x with k a numeric parameter."""

    def __init__(self, k):
        LeafSystem.__init__(self)
        self.k = self.DeclareNumericParameter(np.array([k]))
        self.DeclareContinuousState(1, model_value=[1.0])

    def DoCalcTimeDerivatives(self, context, derivatives):
        k = context.get_numeric_parameter(self.k)[0]
        derivatives.get_mutable_value()[0] = -k * context.get_continuous_state_vector()[0]


def test_numeric_parameter_view_and_setter():
    sys = Parameterized(2.0)
    assert sys.num_numeric_parameter_groups() == 1
    ctx = sys.CreateDefaultContext()
    p = ctx.get_numeric_parameter(0)
    assert p[0] == 2.0 and LeafSystem.GetNumericParameter(ctx, 0)[0] == 2.0
    with pytest.raises(ValueError):
        p[0] = 1.0
    ctx.get_mutable_numeric_parameter(0).SetFromVector([0.5])
    assert p[0] == 0.5  # the view follows
    sim = Simulator(sys, ctx)
    sim.get_mutable_integrator().set_target_accuracy(1e-10)
    sim.AdvanceTo(2.0)
    assert ctx.get_continuous_state_vector()[0] == pytest.approx(math.exp(-1.0), rel=1e-7)
    with pytest.raises(TealSizeError, match="parameter"):
        ctx.get_mutable_numeric_parameter(0).SetFromVector([1.0, 2.0])
    with pytest.raises(TealNotFoundError):
        ctx.get_numeric_parameter(3)


def test_set_discrete_state_marks_the_state_changed():
    zoh = ZeroOrderHold(0.1, 2)
    ctx = zoh.CreateDefaultContext()
    zoh.get_input_port().FixValue(ctx, [0.0, 0.0])
    xd = ctx.get_discrete_state_vector()
    assert list(zoh.get_output_port().Eval(ctx)) == [0.0, 0.0]
    ctx.SetDiscreteState([1.0, 2.0])
    assert list(xd) == [1.0, 2.0] and list(zoh.get_output_port().Eval(ctx)) == [1.0, 2.0]
    ctx.SetDiscreteState(0, [3.0, 4.0])
    assert list(zoh.get_output_port().Eval(ctx)) == [3.0, 4.0]
    with pytest.raises(TealSizeError):
        ctx.SetDiscreteState([1.0])


def test_views_behave_as_numpy_arrays():
    diagram, _ = _integrator_diagram()
    sim = Simulator(diagram)
    x = sim.get_context().get_continuous_state_vector()
    assert isinstance(x, np.ndarray) and x.size == 1 and x.dtype == np.float64
    assert x.get_value() is x
    snapshot = x.CopyToVector()
    snapshot[0] = 9.0  # a snapshot is writable and separate
    assert x[0] == 0.0 and not np.shares_memory(x, snapshot)
