"""The finite-horizon LQR: its cost-to-go tends to the infinite-horizon one,
and its controller applies K(t)."""
import numpy as np
import pytest

from teal import (FiniteHorizonLinearQuadraticRegulator,
                  FiniteHorizonLinearQuadraticRegulatorOptions, LinearQuadraticRegulator,
                  LinearSystem, MakeFiniteHorizonLinearQuadraticRegulator, TealSizeError,
                  TealInvalidArgumentError)

A = np.array([[0.0, 1.0], [0.0, 0.0]])  # the double integrator
B = np.array([[0.0], [1.0]])
Q, R = np.eye(2), np.array([[1.0]])


def _plant():
    plant = LinearSystem(A, B, np.eye(2), np.zeros((2, 1)))
    ctx = plant.CreateDefaultContext()
    plant.get_input_port().FixValue(ctx, [0.0])
    return plant, ctx


def test_long_horizon_tends_to_the_care_solution():
    plant, ctx = _plant()
    result = FiniteHorizonLinearQuadraticRegulator(plant, ctx, 0.0, 20.0, Q, R)
    K_inf, S_inf = LinearQuadraticRegulator(A, B, Q, R)
    np.testing.assert_allclose(result.S.value(0.0), S_inf, rtol=1e-6)
    np.testing.assert_allclose(result.K.value(0.0), K_inf, rtol=1e-6)
    assert result.K.value(0.0).shape == (1, 2)
    np.testing.assert_allclose(result.S.value(20.0), np.zeros((2, 2)), atol=1e-12)  # Qf = 0
    assert result.K.start_time() == 0.0 and result.K.end_time() == 20.0


def test_final_cost_is_the_terminal_value():
    plant, ctx = _plant()
    options = FiniteHorizonLinearQuadraticRegulatorOptions()
    options.Qf = np.diag([5.0, 2.0])
    result = FiniteHorizonLinearQuadraticRegulator(plant, ctx, 0.0, 1.0, Q, R, options)
    np.testing.assert_allclose(result.S.value(1.0), options.Qf, atol=1e-10)
    # K(tf) = R^-1 B' Qf
    np.testing.assert_allclose(result.K.value(1.0), B.T @ options.Qf, atol=1e-9)


def test_controller_applies_the_time_varying_gain():
    plant, ctx = _plant()
    result = FiniteHorizonLinearQuadraticRegulator(plant, ctx, 0.0, 2.0, Q, R)
    controller = MakeFiniteHorizonLinearQuadraticRegulator(plant, ctx, 0.0, 2.0, Q, R)
    cctx = controller.CreateDefaultContext()
    x = np.array([0.3, -0.2])
    controller.get_input_port().FixValue(cctx, x)
    for t in (0.0, 1.0, 1.9):
        cctx.SetTime(t)
        np.testing.assert_allclose(controller.get_output_port().Eval(cctx),
                                   -result.K.value(t) @ x, rtol=1e-9, atol=1e-12)


def test_bad_inputs_raise():
    plant, ctx = _plant()
    with pytest.raises(TealSizeError):
        FiniteHorizonLinearQuadraticRegulator(plant, ctx, 0.0, 1.0, np.eye(3), R)
    with pytest.raises(TealInvalidArgumentError, match="t0"):
        FiniteHorizonLinearQuadraticRegulator(plant, ctx, 1.0, 0.0, Q, R)
