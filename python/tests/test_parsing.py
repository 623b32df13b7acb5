"""Parser for URDF, SDFormat and MJCF, PackageMap, and the model summary."""
import math
import os

import numpy as np
import pytest

from teal import (MultibodyPlant, PackageMap, Parser, TealError, TealInvalidArgumentError,
                  TealNotFoundError, TealParseError)

ACROBOTS = ["acrobot.urdf", "acrobot.sdf", os.path.join("mjcf", "acrobot.xml")]


def acrobot_mass_matrix(q2):
    """Spong's acrobot (models/acrobot.urdf's numbers): m = 1, l1 = 1,
    lc1 = 0.5, lc2 = 1, Ic1 = 0.083, Ic2 = 0.33."""
    i1, i2 = 0.083 + 0.25, 0.33 + 1.0
    c = math.cos(q2)
    return np.array([[i1 + i2 + 1 + 2 * c, i2 + c], [i2 + c, i2]])


def loaded(load):
    plant = MultibodyPlant(0.0)
    instances = load(Parser(plant))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.3, -0.7])
    return plant, instances, plant.CalcMassMatrix(context)


@pytest.mark.parametrize("name", ACROBOTS)
def test_each_format_gives_the_acrobots_mass_matrix(name):
    path = os.path.join(os.environ["TEAL_MODEL_PATH"], name)
    plant, instances, M = loaded(lambda parser: parser.AddModels(path))
    assert len(instances) == 1 and plant.num_positions() == 2
    np.testing.assert_allclose(M, acrobot_mass_matrix(-0.7), atol=1e-12)
    assert plant.GetJointByName("elbow").name() == "elbow"
    text = open(path).read()
    file_type = os.path.splitext(name)[1][1:]
    _, _, M_string = loaded(lambda parser: parser.AddModelsFromString(text, file_type))
    np.testing.assert_array_equal(M_string, M)


def test_summary_names_the_model(acrobot_urdf):
    plant, _, _ = loaded(lambda parser: parser.AddModels(acrobot_urdf))
    summary = plant.Summary()
    assert "link1" in summary and "nq 2" in summary
    with pytest.raises(TealError):
        MultibodyPlant(0.0).Summary()  # before Finalize


NESTED_SDF = """<sdf version='1.9'><model name='outer'><link name='base'/>
<model name='inner'><link name='arm'/><link name='hand'/>
<joint name='wrist' type='revolute'><parent>arm</parent><child>hand</child></joint></model>
<joint name='shoulder' type='revolute'><parent>base</parent><child>inner::arm</child></joint>
</model></sdf>"""


def test_add_models_returns_nested_instances():
    plant = MultibodyPlant(0.0)
    instances = Parser(plant).AddModelsFromString(NESTED_SDF, "sdf")
    assert instances == [plant.GetModelInstanceByName("outer"),
                         plant.GetModelInstanceByName("outer::inner")]
    outer, inner = instances
    assert plant.GetBodyByName("arm", inner).name() == "arm"
    assert plant.GetJointByName("shoulder", outer).name() == "shoulder"
    with pytest.raises(TealNotFoundError):
        plant.GetBodyByName("arm", outer)


def test_parser_errors_carry_teals_message(tmp_path):
    bad = tmp_path / "bad.sdf"
    bad.write_text("<sdf version='1.9'><model name='m'><link name='a'></model></sdf>")
    with pytest.raises(TealParseError, match="bad.sdf"):
        Parser(MultibodyPlant(0.0)).AddModels(bad)
    odd = tmp_path / "model.foo"
    odd.write_text("<nothing/>")
    with pytest.raises(TealError, match="urdf") as info:
        Parser(MultibodyPlant(0.0)).AddModels(odd)
    assert info.value.code == -14  # TEAL_EUNSUPPORTED
    with pytest.raises(TealError, match="missing.sdf"):
        Parser(MultibodyPlant(0.0)).AddModels(tmp_path / "missing.sdf")
    with pytest.raises(TealError, match="mjcf|format"):
        Parser(MultibodyPlant(0.0)).AddModelsFromString("<robot name='r'/>", "step")
    plant = MultibodyPlant(0.0)
    plant.Finalize()
    with pytest.raises(TealError):
        Parser(plant).AddModelsFromString("<robot name='r'><link name='a'/></robot>", "urdf")


def make_package(root, name):
    root.mkdir(parents=True)
    (root / "package.xml").write_text(f"<package format='2'><name>{name}</name></package>")
    (root / "box.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                  "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    return root


MESH_URDF = """<robot name="r"><link name="a">
<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
<visual><geometry><mesh filename="package://{pkg}/box.obj"/></geometry></visual></link></robot>"""


def test_package_map_resolves_package_uris(tmp_path, monkeypatch):
    root = make_package(tmp_path / "somewhere" / "dir_name", "my_pkg")
    monkeypatch.delenv("TEAL_PACKAGE_PATH", raising=False)
    with pytest.raises(TealError, match="my_pkg"):
        Parser(MultibodyPlant(0.0)).AddModelsFromString(MESH_URDF.format(pkg="my_pkg"), "urdf")
    parser = Parser(MultibodyPlant(0.0))
    parser.package_map().AddPackageXml(root / "package.xml")
    assert parser.package_map().GetPath("my_pkg") == str(root)
    assert parser.AddModelsFromString(MESH_URDF.format(pkg="my_pkg"), "urdf")
    packages = PackageMap()
    packages.Add("other", tmp_path)
    assert packages.Contains("other") and not packages.Contains("my_pkg")
    monkeypatch.setenv("MY_PACKAGE_ROOTS", str(tmp_path / "somewhere"))
    packages.PopulateFromEnvironment("MY_PACKAGE_ROOTS")
    assert packages.size() == 2 and packages.GetPath("my_pkg") == str(root)


def test_package_map_bad_input(tmp_path):
    packages = PackageMap()
    packages.Add("p", tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(TealError, match="other") as info:
        packages.Add("p", other)  # another directory for the same name
    assert info.value.code == -6  # TEAL_EDUPLICATE
    with pytest.raises(TealNotFoundError):
        packages.Add("q", tmp_path / "no_such_dir")
    with pytest.raises(TealInvalidArgumentError):
        packages.Add("a/b", tmp_path)
    with pytest.raises(TealNotFoundError, match="package.xml"):
        packages.AddPackageXml(tmp_path / "nothing.xml")
    with pytest.raises(LookupError, match="nope"):
        packages.GetPath("nope")


def test_add_models_from_url(tmp_path, monkeypatch, acrobot_urdf):
    root = make_package(tmp_path / "pkgs" / "robot", "robot_pkg")
    (root / "acrobot.urdf").write_text(open(acrobot_urdf).read())
    parser = Parser(MultibodyPlant(0.0))
    parser.package_map().Add("robot_pkg", root)
    assert len(parser.AddModelsFromUrl("package://robot_pkg/acrobot.urdf")) == 1
    monkeypatch.setenv("TEAL_PACKAGE_PATH", str(tmp_path / "pkgs"))
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromUrl("package://robot_pkg/acrobot.urdf")
    plant.Finalize()
    assert plant.num_positions() == 2
    with pytest.raises(TealInvalidArgumentError):
        Parser(MultibodyPlant(0.0)).AddModelsFromUrl("http://example.com/acrobot.urdf")
    with pytest.raises(TealNotFoundError, match="no_pkg"):
        Parser(MultibodyPlant(0.0)).AddModelsFromUrl("package://no_pkg/acrobot.urdf")


def test_mjcf_motor_gear_is_the_actuator_input_gain():
    """models/mjcf/geared_motors.xml: gears 2.5, -0.5 and 1 are the input
    gains, so B holds them and ctrl drives the joints through the gear."""
    path = os.path.join(os.environ["TEAL_MODEL_PATH"], "mjcf", "geared_motors.xml")
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(path)
    plant.Finalize()
    gains = [plant.actuator_input_gain(a) for a in range(plant.num_actuators())]
    assert gains == [2.5, -0.5, 1.0]
    np.testing.assert_array_equal(plant.MakeActuationMatrix(), np.diag(gains))
    with pytest.raises(TealNotFoundError, match="unknown actuator 3"):
        plant.actuator_input_gain(3)


def test_actuator_input_gain_errors():
    path = os.path.join(os.environ["TEAL_MODEL_PATH"], "mjcf", "acrobot.xml")
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(path)
    with pytest.raises(TealError, match="MakeActuationMatrix"):
        plant.MakeActuationMatrix()
    with pytest.raises(TealInvalidArgumentError, match="must be nonzero"):
        plant.set_actuator_input_gain(0, 0.0)
