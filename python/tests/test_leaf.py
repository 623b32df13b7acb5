"""LeafSystem subclasses written in Python, and exceptions raised in their callbacks."""
import math

import numpy as np
import pytest

from teal import (BasicVector, ConstantVectorSource, DiagramBuilder, Linearize,
                  LinearQuadraticRegulator, LeafSystem, LogVectorOutput, Simulator, TealError,
                  TealStateError)


class Pendulum(LeafSystem):
    """theta'' = -(g / l) sin(theta) + u / (m l^2), output [theta; theta']."""

    def __init__(self, fail_after=None):
        LeafSystem.__init__(self)
        self.fail_after = fail_after
        self.calls = 0
        self.u = self.DeclareVectorInputPort("tau", 1)
        self.DeclareContinuousState(1, 1, 0)
        self.DeclareVectorOutputPort("state", 2, self.CopyStateOut, {self.xc_ticket()})

    def CopyStateOut(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        self.calls += 1
        if self.fail_after is not None and context.get_time() > self.fail_after:
            raise ZeroDivisionError("pendulum exploded")
        theta, omega = context.get_continuous_state_vector()
        tau = self.u.Eval(context)[0]
        derivatives.get_mutable_vector().SetFromVector(
            [omega, -9.81 * math.sin(theta) + tau])


def _pendulum_diagram(fail_after=None, torque=0.0):
    b = DiagramBuilder()
    p = b.AddSystem(Pendulum(fail_after))
    src = b.AddSystem(ConstantVectorSource([torque]))
    b.Connect(src.get_output_port(), p.get_input_port())
    log = LogVectorOutput(p.get_output_port(), b, 0.05)
    return b.Build(), p, log


def test_python_pendulum_small_oscillation_period():
    diagram, p, log = _pendulum_diagram()
    sim = Simulator(diagram)
    ctx = p.GetMyContextFromRoot(sim.get_mutable_context())
    ctx.SetContinuousState([1e-3, 0.0])
    sim.AdvanceTo(2 * math.pi / math.sqrt(9.81))
    x = ctx.get_continuous_state_vector()
    assert x[0] == pytest.approx(1e-3, rel=0.03) and p.calls > 0
    data = log.FindLog(sim.get_context()).data()
    assert data.shape[0] == 2 and np.abs(data[0]).max() == pytest.approx(1e-3, rel=1e-3)


def test_python_leaf_linearizes_and_lqr_balances_it():
    p = Pendulum()
    ctx = p.CreateDefaultContext()
    ctx.SetContinuousState([math.pi, 0.0])
    p.get_input_port().FixValue(ctx, [0.0])
    lin = Linearize(p, ctx)
    np.testing.assert_allclose(lin.A(), [[0.0, 1.0], [9.81, 0.0]], atol=1e-5)
    np.testing.assert_allclose(lin.B(), [[0.0], [1.0]], atol=1e-6)
    controller = LinearQuadraticRegulator(p, ctx, np.eye(2), [[1.0]])
    b = DiagramBuilder()
    b.AddSystem(p)
    b.AddSystem(controller)
    b.Connect(p.get_output_port(), controller.get_input_port())
    b.Connect(controller.get_output_port(), p.get_input_port())
    sim = Simulator(b.Build())
    pctx = p.GetMyContextFromRoot(sim.get_mutable_context())
    pctx.SetContinuousState([math.pi + 0.1, 0.0])
    sim.AdvanceTo(10.0)
    np.testing.assert_allclose(pctx.get_continuous_state_vector(), [math.pi, 0.0], atol=1e-4)


def test_exception_in_callback_is_reraised_from_advance_to_with_last_good_state():
    diagram, p, _ = _pendulum_diagram(fail_after=0.5)
    sim = Simulator(diagram)
    ctx = p.GetMyContextFromRoot(sim.get_mutable_context())
    ctx.SetContinuousState([0.2, 0.0])
    with pytest.raises(ZeroDivisionError, match="pendulum exploded") as info:
        sim.AdvanceTo(1.0)
    assert any("DoCalcTimeDerivatives" in str(tb.name) for tb in info.traceback)
    assert any("Python ZeroDivisionError" in note for note in info.value.__notes__)
    t = sim.get_context().get_time()
    assert 0.0 < t <= 0.5 + 1e-12
    x = ctx.get_continuous_state_vector()
    assert np.all(np.isfinite(x)) and abs(x[0]) <= 0.2 + 1e-9  # energy bound of the swing


def test_exception_in_output_callback_is_reraised_from_eval():
    class Broken(LeafSystem):
        def __init__(self):
            LeafSystem.__init__(self)
            self.DeclareVectorOutputPort("y", 1, self.Calc)

        def Calc(self, context, output):
            raise KeyError("no such signal")

    b = Broken()
    with pytest.raises(KeyError, match="no such signal"):
        b.get_output_port().Eval(b.CreateDefaultContext())


def test_discrete_update_counts_periods():
    class Counter(LeafSystem):
        def __init__(self):
            LeafSystem.__init__(self)
            self.DeclareDiscreteState(1)
            self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.Update)

        def Update(self, context, discrete_state):
            x = context.get_discrete_state_vector()
            discrete_state.get_mutable_vector().SetFromVector(x + 1.0)

    c = Counter()
    b = DiagramBuilder()
    b.AddSystem(c)
    sim = Simulator(b.Build())
    sim.AdvanceTo(0.55)  # updates at 0, 0.1, ..., 0.5
    assert c.GetMyContextFromRoot(sim.get_context()).get_discrete_state_vector()[0] == 6.0


def test_declaration_errors():
    class Late(LeafSystem):
        pass

    leaf = Late()
    leaf.DeclareVectorInputPort("u", 1)
    with pytest.raises(TealError):
        leaf.DeclareVectorInputPort("u", 1)  # duplicate port name
    leaf2 = Late()
    leaf2.DeclareVectorInputPort("u", 1)
    leaf2.CreateDefaultContext()
    with pytest.raises(TealStateError, match="before the first use"):
        leaf2.DeclareVectorInputPort("v", 1)
    with pytest.raises(TealError):
        Late().DeclareContinuousState(2, model_value=[1.0])


def test_basic_vector_views_c_memory():
    buf = np.zeros(3)
    from teal._ffi import ffi
    v = BasicVector(ffi.cast("double *", ffi.from_buffer(buf)), 3)
    v.SetAtIndex(1, 5.0)
    assert buf[1] == 5.0 and v.GetAtIndex(1) == 5.0 and v.size() == 3
    with pytest.raises(ValueError):
        v.get_value()[0] = 1.0
