"""The plant's contact settings from Python: the SAP discrete solver, the
hydroelastic contact model with ProximityProperties, and the hydroelastic
part of ContactResults."""
import math

import numpy as np
import pytest

from teal import (AddCompliantHydroelasticProperties, AddContactMaterial,
                  AddMultibodyPlantSceneGraph, AddRigidHydroelasticProperties, Box, ContactModel,
                  CoulombFriction, DiagramBuilder, DiscreteContactSolver, HalfSpace,
                  HydroelasticContactRepresentation, MultibodyPlant, Parser, ProximityProperties,
                  RigidTransform, Simulator, Sphere, TealError, TealInvalidArgumentError,
                  TealStateError)

G = 9.81

# A free body of mass m without geometry (registered from Python).
FREE_BODY = """<robot name="free_body">
  <link name="body">
    <inertial><mass value="{m}"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
</robot>"""


def _free_body_plant(time_step, m):
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, time_step)
    Parser(plant).AddModelsFromString(FREE_BODY.format(m=m), "urdf")
    return builder, plant, plant.GetBodyByName("body")


def _start(builder, plant, z):
    sim = Simulator(builder.Build())
    ctx = plant.GetMyContextFromRoot(sim.get_mutable_context())
    plant.SetPositions(ctx, [1, 0, 0, 0, 0, 0, z])
    return sim, ctx


def test_sap_block_on_four_corners_rests_carrying_its_weight():
    m = 1.5
    builder, plant, body = _free_body_plant(1e-3, m)
    plant.set_discrete_contact_solver("sap")
    assert plant.get_discrete_contact_solver() == "sap"
    friction = CoulombFriction(0.5, 0.5)
    for i in range(4):
        p = [0.1 if i & 1 else -0.1, 0.1 if i & 2 else -0.1, -0.05]
        plant.RegisterCollisionGeometry(body, RigidTransform(p), Sphere(0.01), f"c{i}", friction)
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(), "ground",
                                    friction)
    plant.Finalize()
    sim, ctx = _start(builder, plant, 0.06)
    sim.AdvanceTo(1.0)
    results = plant.get_contact_results_output_port().Eval(ctx)
    assert results.num_point_pair_contacts() == 4
    assert results.num_hydroelastic_contacts() == 0
    total = np.zeros(3)
    for i in range(4):
        info = results.point_pair_contact_info(i)
        total += info.contact_force() if info.bodyB_index() == body.index() else \
            -info.contact_force()
    np.testing.assert_allclose(total, [0, 0, m * G], rtol=1e-3, atol=1e-6)
    assert abs(plant.GetVelocities(ctx)).max() < 1e-4


def test_discrete_contact_solver_selector_and_its_errors():
    plant = MultibodyPlant(1e-3)
    assert plant.get_discrete_contact_solver() == "tamsi"
    plant.set_discrete_contact_solver(DiscreteContactSolver.kSap)
    assert plant.get_discrete_contact_solver() == "sap"
    plant.set_discrete_contact_solver("TAMSI")
    assert plant.get_discrete_contact_solver() == "tamsi"
    with pytest.raises(TealInvalidArgumentError, match="unknown value 'pgs'.*sap.*tamsi"):
        plant.set_discrete_contact_solver("pgs")
    plant.Finalize()
    with pytest.raises(TealStateError) as info:
        plant.set_discrete_contact_solver("sap")
    assert "finalize" in str(info.value).lower()


def _soft_box_world(E, size, m, representation=None):
    builder, plant, body = _free_body_plant(0.0, m)
    plant.set_contact_model(ContactModel.kHydroelastic)
    if representation is not None:
        plant.set_contact_surface_representation(representation)
    soft = AddCompliantHydroelasticProperties(0.05, E, AddContactMaterial(
        friction=CoulombFriction(0.5, 0.5), properties=ProximityProperties()))
    plant.RegisterCollisionGeometry(body, RigidTransform(), Box(*size), "soft", soft)
    rigid = AddRigidHydroelasticProperties(
        AddContactMaterial(friction=CoulombFriction(0.5, 0.5), properties=ProximityProperties()))
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(), "ground",
                                    rigid)
    plant.Finalize()
    return builder, plant, body


def _box_force(a, b, hz, E, d):
    """The pressure integral of a box (half sizes a, b, hz) at depth d."""
    return E / hz * 4.0 * (a * b * d - 0.5 * (a + b) * d * d + d * d * d / 3.0)


def test_soft_box_on_half_space_carries_its_weight_at_the_exact_depth():
    m, E, size = 2.0, 1e4, (0.4, 0.3, 0.1)
    builder, plant, body = _soft_box_world(E, size, m)
    assert plant.get_contact_model() == ContactModel.kHydroelastic
    sim, ctx = _start(builder, plant, size[2] / 2 + 0.001)
    sim.AdvanceTo(2.0)
    results = plant.get_contact_results_output_port().Eval(ctx)
    assert results.num_point_pair_contacts() == 0
    assert results.num_hydroelastic_contacts() == 1
    info = results.hydroelastic_contact_info(0)
    assert info.bodyA_index() == body.index() and info.bodyB_index() == 0
    F = info.F_Ac_W()
    np.testing.assert_allclose(F[3:], [0, 0, m * G], rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(info.F_Bc_W(), -F)
    surface = info.contact_surface()
    assert surface.area() == pytest.approx(size[0] * size[1], rel=1e-12)
    assert surface.centroid()[2] == pytest.approx(0.0, abs=1e-12)
    # the face areas add up to the area and the pressures integrate to m g
    assert surface.face_areas().sum() == pytest.approx(surface.area(), rel=1e-12)
    assert surface.face_pressures() @ surface.face_areas() == pytest.approx(m * G, rel=1e-3)
    np.testing.assert_allclose(surface.face_normals(), np.tile([0, 0, 1.0],
                                                               (surface.num_faces(), 1)))
    verts = surface.vertices()
    assert verts.shape == (surface.num_vertices(), 3)
    assert all(len(p) >= 3 and max(p) < len(verts) for p in surface.polygons())
    # the depth solves the box's closed form (its extent field is exact)
    depth = size[2] / 2 - plant.GetPositions(ctx)[6]
    lo, hi = 0.0, 0.05
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _box_force(0.2, 0.15, 0.05, E, mid) < m * G else (lo, mid)
    assert depth == pytest.approx(0.5 * (lo + hi), rel=1e-3)


def test_triangle_surfaces_have_triangles_only():
    builder, plant, _ = _soft_box_world(1e4, (0.4, 0.3, 0.1), 2.0,
                                        HydroelasticContactRepresentation.kTriangle)
    assert plant.get_contact_surface_representation() == \
        HydroelasticContactRepresentation.kTriangle
    sim, ctx = _start(builder, plant, 0.049)
    surface = plant.get_contact_results_output_port().Eval(ctx).hydroelastic_contact_info(
        0).contact_surface()
    assert surface.num_faces() > 0
    assert all(len(p) == 3 for p in surface.polygons())
    assert surface.face_areas().sum() == pytest.approx(0.4 * 0.3, rel=1e-12)


def test_contact_model_errors_carry_teals_messages():
    discrete = MultibodyPlant(1e-3)  # discrete plants take hydroelastic contact too
    discrete.set_contact_model(ContactModel.kHydroelastic)
    assert discrete.get_contact_model() == ContactModel.kHydroelastic
    with pytest.raises(TealInvalidArgumentError, match="unknown value 5"):
        MultibodyPlant(0.0).set_contact_model(5)
    with pytest.raises(TealInvalidArgumentError, match="unknown value 'quad'"):
        MultibodyPlant(0.0).set_contact_surface_representation("quad")
    plant = MultibodyPlant(0.0)
    plant.set_contact_model("hydroelastic_with_fallback")
    assert plant.get_contact_model() == ContactModel.kHydroelasticWithFallback
    plant.Finalize()
    with pytest.raises(TealStateError):
        plant.set_contact_model(ContactModel.kPoint)


def test_proximity_properties_helpers_and_their_checks():
    props = ProximityProperties()
    assert props.compliance() == "none" and math.isnan(props.relaxation_time())
    AddContactMaterial(dissipation=2.0, point_stiffness=1e5, friction=CoulombFriction(0.6, 0.4),
                       properties=props, relaxation_time=0.01)
    assert props.relaxation_time() == 0.01
    assert props.friction().static_friction() == 0.6
    AddCompliantHydroelasticProperties(0.02, 5e6, props)
    assert props.compliance() == "soft" and props.hydroelastic_modulus() == 5e6
    props.set_relaxation_time(0.5)
    assert props.relaxation_time() == 0.5
    with pytest.raises(TealInvalidArgumentError, match="relaxation time >= 0"):
        props.set_relaxation_time(-1.0)
    with pytest.raises(TealInvalidArgumentError, match="finite modulus > 0"):
        AddCompliantHydroelasticProperties(0.02, -3.0, ProximityProperties())
    with pytest.raises(TealInvalidArgumentError, match="expected a ProximityProperties"):
        AddContactMaterial(dissipation=1.0, properties=None)
    with pytest.raises(TealInvalidArgumentError, match="expected a CoulombFriction"):
        AddContactMaterial(friction=0.5, properties=ProximityProperties())


def test_refused_property_changes_leave_the_properties_unchanged():
    props = ProximityProperties()
    AddContactMaterial(dissipation=2.0, friction=CoulombFriction(0.6, 0.4), properties=props,
                       relaxation_time=0.5)
    with pytest.raises(TealInvalidArgumentError, match="relaxation time >= 0"):
        props.set_relaxation_time(-1.0)
    assert props.relaxation_time() == 0.5
    with pytest.raises(TealInvalidArgumentError, match="relaxation time >= 0"):
        AddContactMaterial(friction=CoulombFriction(0.9, 0.8), properties=props,
                           relaxation_time=-2.0)
    assert props.relaxation_time() == 0.5 and props.friction().static_friction() == 0.6
    with pytest.raises(TealInvalidArgumentError, match="finite modulus > 0"):
        AddCompliantHydroelasticProperties(0.02, -3.0, props)
    assert props.compliance() == "none" and math.isnan(props.hydroelastic_modulus())
    props.set_relaxation_time(0.25)  # still valid: later changes go through
    assert props.relaxation_time() == 0.25


def test_plant_refuses_a_hydroelastic_pair_it_cannot_make():
    # two soft boxes: soft-soft contact is not supported, and Teal says so
    builder, plant, body = _free_body_plant(0.0, 1.0)
    plant.set_contact_model(ContactModel.kHydroelastic)
    soft = AddCompliantHydroelasticProperties(0.05, 1e4, ProximityProperties())
    plant.RegisterCollisionGeometry(body, RigidTransform(), Box(0.2, 0.2, 0.2), "a", soft)
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), Box(1, 1, 0.2), "b",
                                    soft)
    plant.Finalize()
    sim, ctx = _start(builder, plant, 0.15)
    with pytest.raises(TealError, match="soft"):
        plant.get_contact_results_output_port().Eval(ctx)
