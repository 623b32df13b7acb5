"""Fixed-offset frames from Python: AddFrame (with a model instance),
GetFrameByName, a frame's body and pose in it."""
import numpy as np
import pytest

from teal import (FixedOffsetFrame, Frame, MultibodyPlant, Parser, RigidTransform, TealError,
                  TealInvalidArgumentError, TealNotFoundError)


def _acrobot(path):
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(path)
    return plant, plant.GetModelInstanceByName("acrobot")


def test_frames_compose_their_offsets_on_their_body(acrobot_urdf):
    plant, _ = _acrobot(acrobot_urdf)
    link2 = plant.GetBodyByName("link2")
    n = plant.num_frames()
    mid = plant.AddFrame(FixedOffsetFrame("mid", link2, RigidTransform([0, 0, -1.0])))
    Rz = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])  # 90 degrees about z
    tip = plant.AddFrame(FixedOffsetFrame("tip", mid, RigidTransform(Rz, [1.0, 0, 0])))
    assert plant.num_frames() == n + 2
    assert isinstance(tip, Frame) and tip.name() == "tip" and tip.body() == link2
    X = tip.GetFixedPoseInBodyFrame()
    np.testing.assert_allclose(X.rotation(), Rz, atol=1e-15)
    np.testing.assert_allclose(X.translation(), [1.0, 0, -1.0], atol=1e-15)
    assert plant.GetFrameByName("tip") == tip
    assert link2.body_frame().body() == link2
    np.testing.assert_allclose(link2.body_frame().GetFixedPoseInBodyFrame().GetAsMatrix4(),
                               np.eye(4))


def test_frame_belongs_to_the_given_model_instance(acrobot_urdf):
    plant, acrobot = _acrobot(acrobot_urdf)
    world = plant.world_body()
    # on the world body (world instance 0), but in the acrobot's instance
    anchor = plant.AddFrame(FixedOffsetFrame("anchor", world.body_frame(),
                                             RigidTransform([0, 0, 1.0]), acrobot))
    assert anchor.body() == world
    assert plant.GetFrameByName("anchor", acrobot) == anchor
    with pytest.raises(TealNotFoundError, match="anchor"):
        plant.GetFrameByName("anchor", 0)
    # without an instance it joins its parent's
    plant.AddFrame(FixedOffsetFrame("plain", world, RigidTransform()))
    assert plant.GetFrameByName("plain", 0).name() == "plain"


def test_bad_frames_raise_with_teals_messages(acrobot_urdf):
    # a model error is sticky in the plant, so each case starts afresh
    plant, acrobot = _acrobot(acrobot_urdf)
    link1 = plant.GetBodyByName("link1")
    plant.AddFrame(FixedOffsetFrame("f", link1, RigidTransform(), acrobot))
    with pytest.raises(TealError, match="frame 'f' already exists in model instance 'acrobot'"):
        plant.AddFrame(FixedOffsetFrame("f", link1, RigidTransform(), acrobot))
    plant, _ = _acrobot(acrobot_urdf)
    with pytest.raises(TealNotFoundError, match="57"):
        plant.AddFrame(FixedOffsetFrame("g", plant.GetBodyByName("link1"), RigidTransform(), 57))
    plant, _ = _acrobot(acrobot_urdf)
    with pytest.raises(TealInvalidArgumentError, match="expected a Frame or a RigidBody"):
        plant.AddFrame(FixedOffsetFrame("h", "link1", RigidTransform()))
    with pytest.raises(TealInvalidArgumentError, match="expected a FixedOffsetFrame"):
        plant.AddFrame("link1")
    with pytest.raises(TealNotFoundError, match="frame 999"):
        Frame(plant, 999).body()
