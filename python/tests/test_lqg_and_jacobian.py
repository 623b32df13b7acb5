"""The LQG compensator and the simulator's analytic-Jacobian setting."""
import numpy as np
import pytest

from teal import (DiagramBuilder, LeafSystem, LinearQuadraticGaussianController,
                  LinearQuadraticRegulator, LinearSystem, MultibodyPlant, Parser,
                  ResetIntegratorFromFlags, Simulator, SteadyStateKalmanFilter, TealError,
                  TealSizeError)

A = [[0.0, 1.0], [0.0, 0.0]]
B = [[0.0], [1.0]]
C = [[1.0, 0.0]]
Q, R = np.diag([10.0, 1.0]), [[1.0]]
W, V = np.diag([0.1, 0.2]), [[0.05]]


def double_integrator():
    system = LinearSystem(A, B, C, [[0.0]])
    context = system.CreateDefaultContext()
    system.get_input_port().FixValue(context, [0.0])
    return system, context


def test_lqg_gains_are_the_lqr_and_kalman_gains():
    system, context = double_integrator()
    lqg = LinearQuadraticGaussianController(system, context, Q, R, W, V)
    K, _ = LinearQuadraticRegulator(A, B, Q, R)
    np.testing.assert_allclose(lqg.K(), K, rtol=1e-10)
    np.testing.assert_allclose(lqg.L(), SteadyStateKalmanFilter(A, C, W, V), rtol=1e-10)
    assert lqg.get_measurement_input_port().size() == 1
    assert lqg.get_control_output_port().size() == 1
    assert lqg.get_estimated_state_output_port().size() == 2


def test_lqg_closes_the_loop():
    system, _ = double_integrator()
    builder = DiagramBuilder()
    plant = builder.AddSystem(system)
    design_context = system.CreateDefaultContext()
    system.get_input_port().FixValue(design_context, [0.0])
    lqg = builder.AddSystem(LinearQuadraticGaussianController(system, design_context, Q, R, W, V))
    builder.Connect(plant.get_output_port(), lqg.get_measurement_input_port())
    builder.Connect(lqg.get_control_output_port(), plant.get_input_port())
    diagram = builder.Build()
    simulator = Simulator(diagram)
    plant_context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
    plant_context.SetContinuousState([1.0, 0.0])
    simulator.AdvanceTo(20.0)
    # separation principle: the loop's poles are those of A - B K and A - L C, all stable
    x = plant.GetMyContextFromRoot(simulator.get_context()).get_continuous_state_vector()
    assert np.linalg.norm(x) < 1e-3


def test_lqg_bad_input_raises_with_teals_message():
    system, context = double_integrator()
    with pytest.raises(TealSizeError, match="LQG V"):
        LinearQuadraticGaussianController(system, context, Q, R, W, np.eye(2))
    with pytest.raises(TealError, match="[Ss]ingular|positive|R"):
        LinearQuadraticGaussianController(system, context, Q, [[0.0]], W, V)
    unfixed = system.CreateDefaultContext()
    with pytest.raises(TealError):
        LinearQuadraticGaussianController(system, unfixed, Q, R, W, V)


def implicit_run(acrobot_urdf, analytic):
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.5, -0.3])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    simulator = Simulator(plant, context)
    ResetIntegratorFromFlags(simulator, "implicit_euler", 1e-3)
    simulator.get_mutable_integrator().set_target_accuracy(1e-6)
    simulator.set_analytic_jacobian(analytic)
    assert simulator.uses_analytic_jacobian() == analytic
    simulator.AdvanceTo(1.0)
    return plant.GetPositionsAndVelocities(simulator.get_context())


def test_analytic_and_differenced_jacobians_agree(acrobot_urdf):
    analytic = implicit_run(acrobot_urdf, True)
    differenced = implicit_run(acrobot_urdf, False)
    # the same error-controlled run with either Newton matrix: the same motion to its accuracy
    np.testing.assert_allclose(analytic, differenced, atol=1e-3)
    assert abs(analytic[0] - 0.5) > 0.1


class PythonDecay(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector(
            -context.get_continuous_state_vector().CopyToVector())


def test_analytic_jacobian_refused_where_it_does_not_compose():
    simulator = Simulator(PythonDecay())
    simulator.set_analytic_jacobian(False)
    assert not simulator.uses_analytic_jacobian()
    with pytest.raises(TealError) as info:
        simulator.set_analytic_jacobian(True)
    assert info.value.code == -14 and str(info.value)
