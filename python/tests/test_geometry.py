"""Shapes, geometry registration on the plant, the scene graph's QueryObject and
inspector, and C-typed abstract ports read as Python objects."""
import gc
import math

import numpy as np
import pytest

from teal import (AddMultibodyPlantSceneGraph, Box, Capsule, Convex, CoulombFriction, Cylinder,
                  DiagramBuilder, Ellipsoid, FrameId, GeometryId, HalfSpace, Mesh,
                  MultibodyPlant, Parser, RigidTransform, Role, Simulator, Sphere,
                  TealInvalidArgumentError, TealNonFiniteError, TealNotFoundError, TealSizeError,
                  TealStateError)

G = 9.81
# Two free bodies (MuJoCo freejoints: q = [quaternion; p] each), no geometry of their own.
TWO_BODIES = """<mujoco model="two"><option gravity="0 0 -9.81"/><worldbody>
<body name="a" pos="0 0 0"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>
<body name="b" pos="0 0 0"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>
</worldbody></mujoco>"""
BOX_MASS = 2.0
BOX = """<robot name="box"><link name="box"><inertial><mass value="2.0"/>
<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>"""
FRICTION = CoulombFriction(0.8, 0.6)


def two_spheres(centre_a, centre_b, r_a=0.3, r_b=0.2):
    """A diagram with spheres of radii r_a, r_b on two free bodies at the given
    centres, plus a visual box on a; returns (plant, scene_graph, root context)
    and the geometry ids."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString(TWO_BODIES, "xml")
    a, b = plant.GetBodyByName("a"), plant.GetBodyByName("b")
    ids = [plant.RegisterCollisionGeometry(a, RigidTransform(), Sphere(r_a), "sphere_a", FRICTION),
           plant.RegisterCollisionGeometry(b, RigidTransform(), Sphere(r_b), "sphere_b", FRICTION),
           plant.RegisterVisualGeometry(a, RigidTransform([0, 0, 1]), Box(0.1, 0.2, 0.3), "look",
                                        [1, 0, 0, 1])]
    plant.Finalize()
    root = builder.Build().CreateDefaultContext()
    plant.SetPositions(plant.GetMyContextFromRoot(root),
                       np.concatenate([[1, 0, 0, 0], centre_a, [1, 0, 0, 0], centre_b]))
    return plant, scene_graph, root, ids


def query_object(scene_graph, root):
    return scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(root))


def test_signed_distance_of_two_spheres_is_centre_distance_minus_radii():
    centre_a, centre_b = np.array([0.1, -0.2, 0.3]), np.array([1.0, 0.4, -0.1])
    _, scene_graph, root, (id_a, id_b, _) = two_spheres(centre_a, centre_b)
    gap = np.linalg.norm(centre_b - centre_a) - 0.5
    pairs = query_object(scene_graph, root).ComputeSignedDistancePairwiseClosestPoints()
    assert len(pairs) == 1  # the visual box takes no part
    pair = pairs[0]
    assert (pair.id_A, pair.id_B) == (id_a, id_b)
    assert pair.distance == pytest.approx(gap, abs=1e-9)
    u = (centre_b - centre_a) / np.linalg.norm(centre_b - centre_a)
    np.testing.assert_allclose(pair.p_WCa, centre_a + 0.3 * u, atol=1e-9)
    np.testing.assert_allclose(pair.p_WCb, centre_b - 0.2 * u, atol=1e-9)
    np.testing.assert_allclose(pair.p_ACa, 0.3 * u, atol=1e-9)  # in A's frame (no rotation)
    np.testing.assert_allclose(pair.p_BCb, -0.2 * u, atol=1e-9)
    np.testing.assert_allclose(pair.nhat_BA_W, -u, atol=1e-9)  # moving A along it: farther
    assert query_object(scene_graph, root).ComputePointPairPenetration() == []
    # max_distance leaves out the pairs farther apart
    assert query_object(scene_graph, root).ComputeSignedDistancePairwiseClosestPoints(gap / 2) == []


def test_overlapping_spheres_penetration_and_negative_distance():
    centre_a, centre_b = np.zeros(3), np.array([0.0, 0.0, 0.4])
    _, scene_graph, root, (id_a, id_b, _) = two_spheres(centre_a, centre_b)
    query = query_object(scene_graph, root)
    pair = query.ComputeSignedDistancePairClosestPoints(id_a, id_b)
    assert pair.distance == pytest.approx(0.4 - 0.5, abs=1e-9)
    np.testing.assert_allclose(pair.nhat_BA_W, [0, 0, -1], atol=1e-9)
    (penetration,) = query.ComputePointPairPenetration()
    assert (penetration.id_A, penetration.id_B) == (id_a, id_b)
    assert penetration.depth == pytest.approx(0.1, abs=1e-9)
    np.testing.assert_allclose(penetration.nhat_BA_W, [0, 0, -1], atol=1e-9)  # B pushes A down
    np.testing.assert_allclose(penetration.p_WCa, [0, 0, 0.3], atol=1e-9)
    np.testing.assert_allclose(penetration.p_WCb, [0, 0, 0.2], atol=1e-9)
    assert isinstance(penetration.p_WCa, np.ndarray)


def test_inspector_names_frames_roles_and_poses():
    plant, scene_graph, root, (id_a, id_b, id_look) = two_spheres(np.zeros(3), np.ones(3))
    inspector = scene_graph.model_inspector()
    assert inspector.num_geometries() == 3
    assert inspector.GetAllGeometryIds() == [id_a, id_b, id_look]
    assert inspector.GetAllGeometryIds(Role.kProximity) == [id_a, id_b]
    assert inspector.GetAllGeometryIds(Role.kIllustration) == [id_look]
    assert [inspector.GetName(g) for g in (id_a, id_b, id_look)] == ["sphere_a", "sphere_b",
                                                                     "look"]
    body_a = plant.GetBodyByName("a")
    frame_a = inspector.GetFrameId(id_a)
    assert frame_a == plant.GetBodyFrameIdIfExists(body_a) == inspector.GetFrameId(id_look)
    assert isinstance(frame_a, FrameId) and inspector.GetName(frame_a).endswith("a")
    assert plant.GetBodyFromFrameId(frame_a) == body_a
    assert plant.GetCollisionGeometriesForBody(body_a) == [id_a]
    assert plant.GetVisualGeometriesForBody(body_a) == [id_look]
    assert (plant.num_collision_geometries(), plant.num_visual_geometries()) == (2, 1)
    np.testing.assert_allclose(inspector.GetPoseInFrame(id_look).GetAsMatrix4(),
                               RigidTransform([0, 0, 1]).GetAsMatrix4())
    assert inspector.GetShapeKind(id_look) == "box"
    assert inspector.GetRole(id_a) == Role.kProximity
    assert not inspector.CollisionFiltered(id_a, id_b)
    assert inspector.CollisionFiltered(id_a, id_look)  # one frame, and a visual


def test_geometry_poses_and_plant_pose_ports_read_as_arrays():
    centre_a, centre_b = np.array([0.5, 0, 0]), np.array([0, 2.0, 0])
    plant, scene_graph, root, (id_a, id_b, id_look) = two_spheres(centre_a, centre_b)
    sg_context = scene_graph.GetMyContextFromRoot(root)
    poses = scene_graph.get_geometry_poses_output_port().Eval(sg_context)
    assert poses.shape == (3, 4, 4)
    expected_look = np.eye(4)
    expected_look[:3, 3] = centre_a + [0, 0, 1]
    np.testing.assert_allclose(poses[id_look.get_value()], expected_look)
    query = query_object(scene_graph, root)
    np.testing.assert_allclose(query.GetPoseInWorld(id_b).translation(), centre_b)
    np.testing.assert_allclose(query.GetPoseInWorld(id_look).GetAsMatrix4(), expected_look)
    np.testing.assert_allclose(query.GetAllPosesInWorld(), poses)
    plant_context = plant.GetMyContextFromRoot(root)
    body_poses = plant.get_body_poses_output_port().Eval(plant_context)
    assert body_poses.shape == (3, 4, 4)  # the world and the two bodies
    np.testing.assert_allclose(body_poses[plant.GetBodyByName("b").index()][:3, 3], centre_b)
    assert plant.get_geometry_pose_output_port().Eval(plant_context).shape[1:] == (4, 4)
    # spatial velocities: body b moving at 3 m/s along x (v = [w; v] per free body)
    plant.SetVelocities(plant_context, [0, 0, 0, 0, 0, 0, 0, 0, 0, 3.0, 0, 0])
    velocities = plant.get_body_spatial_velocities_output_port().Eval(plant_context)
    np.testing.assert_allclose(velocities[plant.GetBodyByName("b").index()], [0, 0, 0, 3, 0, 0])
    # falling freely, both bodies accelerate at -g
    accelerations = plant.get_body_spatial_accelerations_output_port().Eval(plant_context)
    np.testing.assert_allclose(accelerations[1:, 5], [-G, -G], atol=1e-9)


def test_plant_geometry_query_input_reads_the_penetrating_pairs():
    plant, _, root, (id_a, id_b, _) = two_spheres(np.zeros(3), np.array([0.45, 0, 0]))
    (pair,) = plant.get_geometry_query_input_port().Eval(plant.GetMyContextFromRoot(root))
    assert (pair.id_A, pair.id_B, pair.depth) == (id_a, id_b, pytest.approx(0.05))


def box_on_ground(time_step=1e-3):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    Parser(plant).AddModelsFromString(BOX, "urdf")
    box = plant.GetBodyByName("box")
    ground = plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                             "ground", FRICTION)
    box_id = plant.RegisterCollisionGeometry(box, RigidTransform(), Box(0.2, 0.2, 0.2), "box",
                                             FRICTION)
    assert not box_id.is_valid()  # ids come when the plant registers with the scene graph
    plant.Finalize()
    assert ground.is_valid() and box_id.is_valid() and ground != box_id
    builder.ExportOutput(plant.get_contact_results_output_port(), "contacts")
    return plant, scene_graph, builder.Build()


def test_box_resting_on_half_space_carries_its_weight_in_discrete_mode():
    plant, _, diagram = box_on_ground()
    simulator = Simulator(diagram)
    plant_context = plant.GetMyContextFromRoot(simulator.get_mutable_context())
    q = plant.GetPositions(plant_context)
    q[-1] = 0.1  # the box's half height above the ground
    plant.SetPositions(plant_context, q)
    simulator.AdvanceTo(1.0)
    results = plant.get_contact_results_output_port().Eval(plant_context)
    n = results.num_point_pair_contacts()
    assert n >= 1
    total = sum(results.point_pair_contact_info(i).contact_force() for i in range(n))
    box_index = plant.GetBodyByName("box").index()
    sign = 1.0 if results.point_pair_contact_info(0).bodyB_index() == box_index else -1.0
    np.testing.assert_allclose(sign * total, [0, 0, BOX_MASS * G], rtol=1e-3, atol=1e-6)
    # the diagram's exported port carries the C contact results too
    exported = diagram.GetOutputPort("contacts").Eval(simulator.get_context())
    assert exported.num_point_pair_contacts() == n
    np.testing.assert_allclose(exported.point_pair_contact_info(0).contact_force(),
                               results.point_pair_contact_info(0).contact_force())


def test_shapes_keep_their_dimensions(tmp_path):
    assert Sphere(0.5).radius() == 0.5
    box = Box(1, 2, 3)
    assert (box.width(), box.depth(), box.height()) == (1, 2, 3)
    np.testing.assert_array_equal(box.size(), [1, 2, 3])
    assert (Cylinder(0.1, 2).radius(), Cylinder(0.1, 2).length()) == (0.1, 2)
    assert (Capsule(0.2, 1).radius(), Capsule(0.2, 1).length()) == (0.2, 1)
    ellipsoid = Ellipsoid(1, 2, 3)
    assert (ellipsoid.a(), ellipsoid.b(), ellipsoid.c()) == (1, 2, 3)
    HalfSpace()
    tetrahedron = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert Convex(tetrahedron).num_vertices() == 4
    obj = tmp_path / "tetra.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    hull = Convex(str(obj), 2.0)
    assert (hull.num_vertices(), hull.scale(), hull.filename()) == (4, 2.0, str(obj))
    mesh = Mesh(str(obj), 0.5)
    assert (mesh.filename(), mesh.scale()) == (str(obj), 0.5)


def test_mesh_collides_as_its_hull(tmp_path):
    obj = tmp_path / "cube.obj"
    corners = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = ["1 2 4 3", "5 7 8 6", "1 5 6 2", "3 4 8 7", "1 3 7 5", "2 6 8 4"]
    obj.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in corners)
                   + "".join(f"f {f}\n" for f in faces))
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString(TWO_BODIES, "xml")
    a, b = plant.GetBodyByName("a"), plant.GetBodyByName("b")
    id_a = plant.RegisterCollisionGeometry(a, RigidTransform(), Mesh(str(obj), 0.1), "cube",
                                           FRICTION)
    id_b = plant.RegisterCollisionGeometry(b, RigidTransform(), Sphere(0.1), "ball", FRICTION)
    plant.Finalize()
    root = builder.Build().CreateDefaultContext()
    plant.SetPositions(plant.GetMyContextFromRoot(root), [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0])
    assert scene_graph.model_inspector().GetShapeKind(id_a) == "convex"
    pair = query_object(scene_graph, root).ComputeSignedDistancePairClosestPoints(id_a, id_b)
    assert pair.distance == pytest.approx(1.0 - 0.1 - 0.1, abs=1e-6)  # cube half side 0.1


def test_bad_shapes_and_friction_raise_teals_messages():
    with pytest.raises(TealInvalidArgumentError, match="sphere radius must be finite and > 0"):
        Sphere(-1)
    with pytest.raises(TealInvalidArgumentError, match="box sides"):
        Box(1, 0, 1)
    with pytest.raises(TealInvalidArgumentError, match="box sides"):
        Box(1, math.nan, 1)
    with pytest.raises(TealInvalidArgumentError, match="coplanar"):
        Convex([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])
    with pytest.raises(TealInvalidArgumentError, match="scale > 0"):
        Mesh("model.obj", 0.0)
    with pytest.raises(Exception, match="cannot open"):
        Convex("/nonexistent/model.obj")
    with pytest.raises(TealInvalidArgumentError, match="static >= dynamic"):
        CoulombFriction(0.5, 0.8)


def test_bad_registration_and_queries_raise_teals_messages():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(BOX, "urdf")
    box = plant.GetBodyByName("box")
    with pytest.raises(TealInvalidArgumentError, match="expected a shape"):
        plant.RegisterCollisionGeometry(box, RigidTransform(), "sphere", "s", FRICTION)
    with pytest.raises(TealInvalidArgumentError, match="expected a CoulombFriction"):
        plant.RegisterCollisionGeometry(box, RigidTransform(), Sphere(1), "s", 0.5)
    with pytest.raises(TealSizeError, match="diffuse_color: expected 4 values"):
        plant.RegisterVisualGeometry(box, RigidTransform(), Sphere(1), "s", [1, 0, 0])
    with pytest.raises(TealNotFoundError):
        plant.GetCollisionGeometriesForBody(42)
    # refused by the C plant, with its message (the plant's error is sticky: fresh plants)
    with pytest.raises(TealInvalidArgumentError, match="geometry 'x' needs a valid body"):
        MultibodyPlant(0.0).RegisterCollisionGeometry(42, RigidTransform(), Sphere(1), "x",
                                                      FRICTION)
    with pytest.raises(TealInvalidArgumentError, match="needs rgba in \\[0, 1\\]"):
        MultibodyPlant(0.0).RegisterVisualGeometry(0, RigidTransform(), Sphere(1), "y",
                                                   [2, 0, 0, 1])
    plant.Finalize()
    with pytest.raises(TealStateError, match="finalize"):
        plant.RegisterCollisionGeometry(box, RigidTransform(), Sphere(1), "late", FRICTION)
    assert plant.GetBodyFrameIdIfExists(box) is None  # no scene graph

    _, scene_graph, root, (id_a, _, id_look) = two_spheres(np.zeros(3), np.ones(3))
    query = query_object(scene_graph, root)
    with pytest.raises(TealNotFoundError, match="no such geometry"):
        scene_graph.model_inspector().GetName(GeometryId(99))
    with pytest.raises(TealInvalidArgumentError, match="invalid"):
        query.GetPoseInWorld(GeometryId())
    with pytest.raises(TealInvalidArgumentError, match="expected a GeometryId"):
        query.GetPoseInWorld(FrameId(0))
    with pytest.raises(TealInvalidArgumentError, match="proximity"):
        query.ComputeSignedDistancePairClosestPoints(id_a, id_look)
    with pytest.raises(TealNonFiniteError, match="NaN"):
        query.ComputeSignedDistancePairwiseClosestPoints(math.nan)


def test_scene_graph_ports_before_the_plant_is_finalized():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    with pytest.raises(TealStateError, match="finalize the plant first"):
        scene_graph.get_query_output_port()
    with pytest.raises(TealStateError, match="finalize the plant first"):
        scene_graph.CreateDefaultContext()
    assert scene_graph.model_inspector().num_geometries() == 0
    plant.Finalize()
    assert scene_graph.get_query_output_port().get_name() == "query"


def test_query_object_keeps_what_it_reads_alive():
    _, scene_graph, root, (id_a, id_b, _) = two_spheres(np.zeros(3), np.array([1.0, 0, 0]))
    query = query_object(scene_graph, root)
    inspector = scene_graph.model_inspector()
    del scene_graph, root
    gc.collect()
    assert query.ComputeSignedDistancePairClosestPoints(id_a, id_b).distance == \
        pytest.approx(0.5, abs=1e-9)
    assert inspector.GetName(id_b) == "sphere_b"
