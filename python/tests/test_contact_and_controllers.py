"""ContactResults from the plant's contact port, and InverseDynamicsController."""
import gc

import numpy as np
import pytest

from teal import (AddMultibodyPlantSceneGraph, ConstantVectorSource, DiagramBuilder,
                  InverseDynamicsController, MultibodyPlant, Parser, Simulator, TealError,
                  TealSizeError)

BALL_ON_GROUND = """<robot name="ball_on_ground">
  <link name="world">
    <collision><origin xyz="0 0 -0.5"/><geometry><box size="4 4 1"/></geometry></collision>
  </link>
  <link name="ball">
    <inertial><mass value="1.0"/>
      <inertia ixx="0.004" iyy="0.004" izz="0.004" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
</robot>"""


def test_ball_at_rest_contact_force_carries_its_weight():
    b = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(b, 1e-3)
    Parser(plant).AddModelsFromString(BALL_ON_GROUND, "urdf")
    plant.Finalize()
    sim = Simulator(b.Build())
    ctx = plant.GetMyContextFromRoot(sim.get_mutable_context())
    q = plant.GetPositions(ctx)
    q[-1] = 0.1  # centre one radius above the ground (q = quaternion, position)
    plant.SetPositions(ctx, q)
    sim.AdvanceTo(2.0)
    results = plant.get_contact_results_output_port().Eval(ctx)
    assert results.num_point_pair_contacts() == 1
    info = results.point_pair_contact_info(0)
    weight = 9.81 * 1.0
    force_on_ball = info.contact_force() if info.bodyB_index() != 0 else -info.contact_force()
    np.testing.assert_allclose(force_on_ball, [0.0, 0.0, weight], rtol=1e-2, atol=1e-6)
    assert info.point_pair().depth > 0 and abs(info.separation_speed()) < 1e-3
    assert info.contact_point()[2] == pytest.approx(0.0, abs=2e-3)


def test_contact_results_without_a_scene_graph_are_empty(acrobot_urdf):
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    assert plant.get_contact_results_output_port().Eval(ctx).num_point_pair_contacts() == 0
    with pytest.raises(TealError):
        plant.get_contact_results_output_port().Eval(Simulator(_acrobot_diagram()).get_context())


def _acrobot_diagram():
    b = DiagramBuilder()
    b.AddSystem(ConstantVectorSource([0.0]))
    return b.Build()


def _acrobot(path):
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(path)
    plant.Finalize()
    return plant


def test_inverse_dynamics_controller_tracks_a_set_point(acrobot_urdf):
    b = DiagramBuilder()
    plant = b.AddSystem(_acrobot(acrobot_urdf))
    controller = b.AddSystem(InverseDynamicsController(
        _acrobot(acrobot_urdf), [100.0, 100.0], [0.0, 0.0], [20.0, 20.0], False))
    target = b.AddSystem(ConstantVectorSource([0.3, -0.2, 0.0, 0.0]))
    b.Connect(plant.get_state_output_port(), controller.get_input_port_estimated_state())
    b.Connect(target.get_output_port(), controller.get_input_port_desired_state())
    b.Connect(controller.get_output_port_control(),
              plant.get_applied_generalized_force_input_port())
    sim = Simulator(b.Build())
    gc.collect()  # the controller's model plant has no other Python reference now
    sim.AdvanceTo(3.0)
    x = plant.GetPositionsAndVelocities(plant.GetMyContextFromRoot(sim.get_context()))
    # exact model: the error obeys e'' + 20 e' + 100 e = 0, e(3) ~ 31 e0 exp(-30)
    np.testing.assert_allclose(x, [0.3, -0.2, 0.0, 0.0], atol=1e-6)


def test_inverse_dynamics_controller_bad_gains(acrobot_urdf):
    with pytest.raises(TealSizeError):
        InverseDynamicsController(_acrobot(acrobot_urdf), [1.0], [0.0], [1.0], False)
    with pytest.raises(TealError):
        InverseDynamicsController(_acrobot(acrobot_urdf), [np.nan, 1.0], [0.0, 0.0],
                                  [1.0, 1.0], False)
