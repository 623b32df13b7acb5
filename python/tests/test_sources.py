"""Sine, Step, Ramp, RandomSource and DiscreteDerivative against their formulas."""
import math

import numpy as np
import pytest

from teal import (DiagramBuilder, DiscreteDerivative, LogVectorOutput, Ramp, RandomDistribution,
                  RandomSource, Simulator, Sine, Step, TealError, TealInvalidArgumentError,
                  TealNonFiniteError)


def _at(system, t, port=0):
    ctx = system.CreateDefaultContext()
    ctx.SetTime(t)
    return system.get_output_port(port).Eval(ctx)


def test_sine_scalar_and_vector_forms_and_derivatives():
    s = Sine(2.0, 3.0, 0.5, 2)
    t = 0.7
    np.testing.assert_allclose(_at(s, t), [2 * math.sin(3 * t + 0.5)] * 2, rtol=1e-14)
    np.testing.assert_allclose(_at(s, t, 1), [6 * math.cos(3 * t + 0.5)] * 2, rtol=1e-14)
    np.testing.assert_allclose(_at(s, t, 2), [-18 * math.sin(3 * t + 0.5)] * 2, rtol=1e-14)
    v = Sine([1.0, 2.0], [1.0, 0.5], [0.0, 0.1])
    np.testing.assert_allclose(_at(v, 1.0), [math.sin(1.0), 2 * math.sin(0.6)], rtol=1e-14)
    with pytest.raises(TealInvalidArgumentError, match="size is missing"):
        Sine(1.0, 1.0, 0.0)
    with pytest.raises(TealNonFiniteError):
        Sine(float("nan"), 1.0, 0.0, 1)


def test_step_and_ramp():
    s = Step(1.0, [0.0, 1.0], [2.0, 3.0])
    assert list(_at(s, 0.999)) == [0.0, 1.0] and list(_at(s, 1.0)) == [2.0, 3.0]
    r = Ramp(2.0, 1.0, 0.5)
    assert _at(r, 0.5)[0] == 0.5 and _at(r, 2.0)[0] == pytest.approx(2.5)


def test_random_source_is_reproducible_and_in_range():
    def draws(seed):
        b = DiagramBuilder()
        src = b.AddSystem(RandomSource(RandomDistribution.kUniform, 3, 0.1, seed=seed))
        log = LogVectorOutput(src.get_output_port(), b, 0.1)
        sim = Simulator(b.Build())
        sim.AdvanceTo(1.0)
        return log.FindLog(sim.get_context()).data()
    a, b = draws(7), draws(7)
    np.testing.assert_array_equal(a, b)
    assert a.min() >= 0.0 and a.max() < 1.0 and not np.array_equal(a, draws(8))
    with pytest.raises(TealError):
        RandomSource(RandomDistribution.kGaussian, 1, -0.1)


def test_discrete_derivative_of_a_ramp_is_its_slope():
    b = DiagramBuilder()
    ramp = b.AddSystem(Ramp(3.0, 0.0, 0.0))
    dd = b.AddSystem(DiscreteDerivative(1, 0.01))
    b.Connect(ramp.get_output_port(), dd.get_input_port())
    sim = Simulator(b.Build())
    sim.AdvanceTo(0.5)
    y = dd.get_output_port().Eval(dd.GetMyContextFromRoot(sim.get_context()))
    assert y[0] == pytest.approx(3.0, rel=1e-9)
    with pytest.raises(TealError):
        DiscreteDerivative(1, 0.0)
