"""The visualizer binding: frames recorded in the context, the replay page written."""
import json
import os

import numpy as np
import pytest

from teal import (AddDefaultVisualization, AddMultibodyPlantSceneGraph, DiagramBuilder,
                  LogVectorOutput, Parser, Simulator, TealError, TealInvalidArgumentError,
                  Visualizer, strerror)

THREE = os.path.join(os.environ.get("TEAL_THREE_JS_DIR", "/usr/share/javascript/three"),
                     "build", "three.min.js")


def _acrobot(acrobot_urdf, period=0.05):
    b = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(b, 1e-3)
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    logger = LogVectorOutput(plant.get_state_output_port(), b, 0.01)
    viz = AddDefaultVisualization(b, publish_period=period)
    diagram = b.Build()
    assert viz in diagram.GetSystems()
    sim = Simulator(diagram)
    plant.SetPositions(plant.GetMyMutableContextFromRoot(sim.get_mutable_context()), [0.3, 0.0])
    return sim, viz, logger


def _replay_data(path):
    with open(path, encoding="utf-8") as f:
        page = f.read()
    start = page.index("var TEAL_REPLAY = ") + len("var TEAL_REPLAY = ")
    data, _ = json.JSONDecoder().raw_decode(page[start:])
    return page, data


def test_visualizer_records_frames_at_its_period(acrobot_urdf):
    sim, viz, _ = _acrobot(acrobot_urdf)
    sim.AdvanceTo(0.5)
    root = sim.get_context()
    times = viz.recording_times(root)
    assert viz.num_frames(root) == len(times) == 11  # 0, 0.05, ..., 0.5
    np.testing.assert_allclose(times, np.arange(11) * 0.05, atol=1e-3)
    poses = viz.recording_poses(root)
    assert poses.shape[0] == 11 and poses.shape[2] == 7
    np.testing.assert_allclose(np.linalg.norm(poses[:, :, 3:], axis=2), 1.0, rtol=1e-12)
    assert not np.allclose(poses[0], poses[-1])  # the acrobot swung
    viz.DeleteRecording(root)
    assert viz.num_frames(root) == 0


@pytest.mark.skipif(not os.path.exists(THREE), reason="libjs-three is not installed")
def test_write_html_holds_the_recorded_frames_and_plots(acrobot_urdf, tmp_path):
    sim, viz, logger = _acrobot(acrobot_urdf)
    sim.AdvanceTo(0.5)
    root = sim.get_context()
    path = tmp_path / "acrobot.html"
    viz.write_html(root, path, title="acrobot from Python",
                   plots=[("state", logger.FindLog(root), ["q1", "q2", "v1", "v2"])])
    page, data = _replay_data(path)
    assert "acrobot from Python" in page and '"q1"' in page
    np.testing.assert_allclose(data["times"], viz.recording_times(root), atol=1e-5)


def test_write_html_errors_are_teal_errors(acrobot_urdf, tmp_path):
    sim, viz, _ = _acrobot(acrobot_urdf)
    sim.AdvanceTo(0.1)
    with pytest.raises(TealError) as info:
        viz.write_html(sim.get_context(), tmp_path / "missing-dir" / "x.html")
    assert "missing-dir" in str(info.value) or "three" in str(info.value)
    assert strerror(info.value.code)


def test_default_visualization_needs_a_scene_graph():
    with pytest.raises(TealInvalidArgumentError, match="no scene graph"):
        AddDefaultVisualization(DiagramBuilder())


def test_bad_period_is_refused(acrobot_urdf):
    b = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(b, 1e-3)
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    with pytest.raises(TealInvalidArgumentError, match="period"):
        Visualizer.AddToBuilder(b, scene_graph, publish_period=-1.0)


def test_exact_times_put_frames_on_the_period(acrobot_urdf):
    b = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(b, 0.0)  # continuous: steps vary
    Parser(plant).AddModels(acrobot_urdf)
    plant.Finalize()
    viz = Visualizer.AddToBuilder(b, scene_graph, publish_period=0.1, exact_times=True,
                                  name="viz")
    diagram = b.Build()
    assert diagram.GetSubsystemByName("viz") is viz
    sim = Simulator(diagram)
    plant.get_actuation_input_port().FixValue(
        plant.GetMyMutableContextFromRoot(sim.get_mutable_context()), [0.0])
    plant.SetPositions(plant.GetMyMutableContextFromRoot(sim.get_mutable_context()), [0.3, 0.0])
    sim.AdvanceTo(0.5)
    np.testing.assert_allclose(viz.recording_times(sim.get_context()), np.arange(6) * 0.1,
                               rtol=0, atol=1e-12)
