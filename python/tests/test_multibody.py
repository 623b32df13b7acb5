"""MultibodyPlant, Parser and AddMultibodyPlantSceneGraph."""
import numpy as np
import pytest

from teal import (AddMultibodyPlantSceneGraph, DiagramBuilder, MultibodyPlant, Parser,
                  Simulator, TealError, TealNonFiniteError, TealParseError, TealSizeError,
                  TealStateError)

PENDULUM = """<robot name="pendulum">
  <link name="arm"><inertial><mass value="2.0"/><origin xyz="0 0 -0.5"/>
    <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="pin" type="continuous"><parent link="world"/><child link="arm"/>
    <axis xyz="0 1 0"/></joint>
</robot>"""


def test_acrobot_plant_sizes_and_ports(acrobot_urdf):
    b = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(b, 1e-3)
    assert Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    assert plant.is_finalized() and plant.time_step() == 1e-3
    assert (plant.num_positions(), plant.num_velocities(), plant.num_actuators()) == (2, 2, 1)
    assert plant.get_state_output_port().size() == 4
    assert plant.get_actuation_input_port().size() == 1
    diagram = b.Build()
    assert diagram.GetSubsystemByName("plant") is plant
    ctx = diagram.CreateDefaultContext()
    plant_ctx = plant.GetMyMutableContextFromRoot(ctx)
    plant.SetPositions(plant_ctx, [0.1, -0.2])
    plant.SetVelocities(plant_ctx, [0.3, 0.4])
    np.testing.assert_array_equal(plant.GetPositionsAndVelocities(plant_ctx), [0.1, -0.2, 0.3, 0.4])
    np.testing.assert_array_equal(plant.get_state_output_port().Eval(plant_ctx),
                                  [0.1, -0.2, 0.3, 0.4])
    assert scene_graph is not None


def test_pendulum_from_string_swings_with_the_small_angle_period():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(PENDULUM, "urdf")
    plant.Finalize()
    b = DiagramBuilder()
    b.AddSystem(plant)
    sim = Simulator(b.Build())
    ctx = plant.GetMyContextFromRoot(sim.get_context())
    plant.SetPositions(ctx, [1e-3])
    period = 2.0 * np.pi * np.sqrt(0.5 / 9.81)  # point mass at 0.5 m
    # q(t) = q0 cos(w t): back to -q0 at half the period, +q0 at the period
    # (to the default integrator accuracy)
    sim.AdvanceTo(period / 2)
    assert plant.GetPositions(ctx)[0] == pytest.approx(-1e-3, rel=0.03)
    sim.AdvanceTo(period)
    assert plant.GetPositions(ctx)[0] == pytest.approx(1e-3, rel=0.03)


def test_plant_bad_inputs_raise_teal_messages(acrobot_urdf):
    plant = MultibodyPlant(0.0)
    with pytest.raises(TealStateError, match="Finalize"):
        plant.get_state_output_port()
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    with pytest.raises(TealSizeError, match="SetPositions"):
        plant.SetPositions(ctx, [1.0, 2.0, 3.0])
    with pytest.raises(TealNonFiniteError) as info:
        plant.SetPositions(ctx, [np.nan, 0.0])
    assert str(info.value)
    with pytest.raises(TealError):
        plant.Finalize()


def test_malformed_and_missing_urdf_raise(tmp_path):
    plant = MultibodyPlant(0.0)
    with pytest.raises(TealParseError) as info:
        Parser(plant).AddModelsFromString("<robot name='x'><link name='a'>", "urdf")
    assert info.value.code == -13 and str(info.value)
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><joint name='j' type='bogus'/></robot>")
    with pytest.raises(TealError) as info:
        Parser(MultibodyPlant(0.0)).AddModels(str(bad))
    assert "bad.urdf" in str(info.value)
    with pytest.raises(TealError):
        Parser(MultibodyPlant(0.0)).AddModels(str(tmp_path / "missing.urdf"))
    with pytest.raises(TealError, match="model.sdf.*not found"):  # every format now
        Parser(MultibodyPlant(0.0)).AddModels("model.sdf")
