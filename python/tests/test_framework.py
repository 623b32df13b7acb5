"""DiagramBuilder, Diagram, System, ports and Context."""
import numpy as np
import pytest

from teal import (Adder, ConstantVectorSource, DiagramBuilder, Gain, TealError,
                  TealNotConnectedError, TealNotFoundError, TealSizeError, TealStateError)


def _sum_diagram():
    b = DiagramBuilder()
    c1 = b.AddSystem(ConstantVectorSource([1.0, 2.0]))
    c2 = b.AddSystem(ConstantVectorSource([10.0, 20.0]))
    add = b.AddSystem(Adder(2, 2))
    gain = b.AddSystem(Gain(3.0, 2))
    b.Connect(c1.get_output_port(), add.get_input_port(0))
    b.Connect(c2.get_output_port(), add.get_input_port(1))
    b.Connect(add.get_output_port(), gain.get_input_port())
    b.ExportOutput(gain.get_output_port(), "y")
    return b.Build(), gain


def test_diagram_output_is_the_wired_sum():
    diagram, gain = _sum_diagram()
    ctx = diagram.CreateDefaultContext()
    np.testing.assert_array_equal(diagram.get_output_port().Eval(ctx), [33.0, 66.0])
    assert diagram.GetOutputPort("y").size() == 2
    assert diagram.GetSubsystemByName(gain.get_name()) is gain
    assert len(diagram.GetSystems()) == 4
    with pytest.raises(TealNotFoundError, match="no subsystem named 'nope'"):
        diagram.GetSubsystemByName("nope")
    gain_ctx = gain.GetMyContextFromRoot(ctx)
    np.testing.assert_array_equal(gain.get_output_port().Eval(gain_ctx), [33.0, 66.0])


def test_fixed_input_and_port_queries():
    g = Gain(2.0, 3, name="g")
    assert g.get_name() == "g" and g.num_input_ports() == 1 and g.num_output_ports() == 1
    ctx = g.CreateDefaultContext()
    g.get_input_port().FixValue(ctx, np.array([1.0, -2.0, 0.5]))
    np.testing.assert_array_equal(g.get_output_port().Eval(ctx), [2.0, -4.0, 1.0])
    assert g.GetInputPort(g.get_input_port().get_name()).get_index() == 0


def test_context_time():
    ctx = Gain(1.0, 1).CreateDefaultContext()
    ctx.SetTime(2.5)
    assert ctx.get_time() == 2.5
    with pytest.raises(TealError, match="finite|time"):
        ctx.SetTime(float("nan"))


def test_unconnected_input_raises_with_message():
    g = Gain(2.0, 2)
    ctx = g.CreateDefaultContext()
    with pytest.raises(TealNotConnectedError) as info:
        g.get_output_port().Eval(ctx)
    assert info.value.code == -7 and str(info.value)


def test_wrong_sizes_raise():
    g = Gain(2.0, 2)
    ctx = g.CreateDefaultContext()
    with pytest.raises(TealSizeError):
        g.get_input_port().FixValue(ctx, [1.0, 2.0, 3.0])
    b = DiagramBuilder()
    src = b.AddSystem(ConstantVectorSource([1.0, 2.0, 3.0]))
    g2 = b.AddSystem(Gain(1.0, 2))
    with pytest.raises(TealError) as info:
        b.Connect(src.get_output_port(), g2.get_input_port())
    assert "size" in str(info.value).lower()


def test_unknown_port_and_name_raise():
    g = Gain(1.0, 1)
    with pytest.raises(TealNotFoundError, match="no input port named 'nope'"):
        g.GetInputPort("nope")
    with pytest.raises(TealNotFoundError):
        g.get_output_port(3)


def test_builder_is_spent_after_build_and_systems_cannot_be_added_twice():
    b = DiagramBuilder()
    g = b.AddSystem(Gain(1.0, 1))
    b.ExportInput(g.get_input_port(), "u")
    b.ExportOutput(g.get_output_port(), "y")
    b.Build()
    with pytest.raises(TealStateError, match="Build"):
        b.AddSystem(Gain(1.0, 1))
    with pytest.raises(TealError, match="already belongs"):
        DiagramBuilder().AddSystem(g)


def test_failed_build_frees_children_and_they_refuse_use():
    b = DiagramBuilder()
    g = b.AddSystem(Gain(1.0, 1, name="same"))
    with pytest.raises(TealError):
        b.AddSystem(Gain(1.0, 1, name="same"))  # duplicate name: a sticky builder error
    with pytest.raises(TealError):
        b.Build()
    with pytest.raises(TealStateError, match="freed"):
        g.get_name()
