"""The plant's contact settings (pydrake's ContactModel, DiscreteContactSolver,
HydroelasticContactRepresentation and their setters), ProximityProperties
with pydrake's AddContactMaterial / AddCompliantHydroelasticProperties /
AddRigidHydroelasticProperties, and the hydroelastic part of
ContactResults (HydroelasticContactInfo, ContactSurface) as numpy arrays."""
import math

import numpy as np

from teal import _core
from teal._core import ffi, lib
from teal.geometry import CoulombFriction


class ContactModel:
    """pydrake's ContactModel (kPoint is Drake's point-contact-only model)."""
    kPoint = 0
    kHydroelastic = 1
    kHydroelasticWithFallback = 2


class HydroelasticContactRepresentation:
    """pydrake's HydroelasticContactRepresentation."""
    kPolygon = 0
    kTriangle = 1


class DiscreteContactSolver:
    """pydrake's DiscreteContactSolver (kTamsi, kSap)."""
    kTamsi = 0
    kSap = 1


_SOLVER_NAMES = {"tamsi": DiscreteContactSolver.kTamsi, "sap": DiscreteContactSolver.kSap}


def _enum_value(value, allowed, what):
    if isinstance(value, str):
        if value.lower() in allowed:
            return allowed[value.lower()]
    elif isinstance(value, (int, np.integer)) and int(value) in allowed.values():
        return int(value)
    raise _core.TealInvalidArgumentError(
        -1, f"{what}: unknown value {value!r} (expected one of {sorted(allowed)})")


class PlantContactSettingsMixin:
    """MultibodyPlant's contact model, surface representation and discrete
    contact solver (mixed into MultibodyPlant)."""

    def set_contact_model(self, model):
        """Sets the contact model (a ContactModel, or "point",
        "hydroelastic", "hydroelastic_with_fallback"), before Finalize.
        Hydroelastic contact needs a continuous plant."""
        names = {"point": 0, "hydroelastic": 1, "hydroelastic_with_fallback": 2}
        value = _enum_value(model, names, "set_contact_model")
        self._plant_check(lib.teal_plant_set_contact_model(self._plant(), value),
                          "set_contact_model")

    def get_contact_model(self):
        """The contact model (a ContactModel value)."""
        return int(lib.teal_plant_get_contact_model(self._plant()))

    def set_contact_surface_representation(self, representation):
        """Sets how hydroelastic contact surfaces are made (a
        HydroelasticContactRepresentation), before Finalize."""
        names = {"polygon": 0, "triangle": 1}
        value = _enum_value(representation, names, "set_contact_surface_representation")
        self._plant_check(lib.teal_plant_set_contact_surface_representation(self._plant(), value),
                          "set_contact_surface_representation")

    def get_contact_surface_representation(self):
        """The surface representation (a HydroelasticContactRepresentation value)."""
        return int(lib.teal_plant_get_contact_surface_representation(self._plant()))

    def set_discrete_contact_solver(self, solver):
        """Selects the discrete contact solver, "tamsi" (the default) or "sap"
        (or a DiscreteContactSolver), before Finalize. Drake's older name;
        a continuous plant accepts and ignores it."""
        value = _enum_value(solver, _SOLVER_NAMES, "set_discrete_contact_solver")
        self._plant_check(lib.teal_plant_set_discrete_contact_solver(self._plant(), value),
                          "set_discrete_contact_solver")

    def get_discrete_contact_solver(self):
        """The discrete contact solver's name, "tamsi" or "sap"."""
        value = int(lib.teal_plant_get_discrete_contact_solver(self._plant()))
        return {v: k for k, v in _SOLVER_NAMES.items()}[value]


class ProximityProperties:
    """The contact properties of one collision geometry (pydrake's
    ProximityProperties, with its helpers below); pass it to
    RegisterCollisionGeometry in place of a CoulombFriction. NaN means the
    plant's default, as for a property Drake's properties lack."""

    def __init__(self):
        self._c = ffi.new("teal_proximity_properties *",
                          lib.teal_proximity_properties_make(0.0, 0.0))

    def friction(self):
        """The CoulombFriction."""
        return CoulombFriction(self._c.static_friction, self._c.dynamic_friction)

    def relaxation_time(self):
        """Teal: the linear dissipation's relaxation time (s) the SAP solver
        uses (Drake's ("material", "relaxation_time")); NaN: the default."""
        return self._c.relaxation_time

    def set_relaxation_time(self, tau):
        """Teal-only setter of relaxation_time (Drake uses AddProperty)."""
        self._update("set_relaxation_time", relaxation_time=float(tau))

    def hydroelastic_modulus(self):
        """The hydroelastic modulus (Pa) of a soft geometry (NaN: none)."""
        return self._c.hydroelastic_modulus

    def compliance(self):
        """Teal: "none", "rigid" or "soft" (Drake's compliance_type)."""
        return ("none", "rigid", "soft")[int(self._c.compliance)]

    def _update(self, what, friction=None, **fields):
        """Sets fields (and friction, a CoulombFriction) all at once, or
        raises and leaves the properties as they were."""
        candidate = ffi.new("teal_proximity_properties *", self._c[0])
        if friction is not None:
            if not isinstance(friction, CoulombFriction):
                raise _core.TealInvalidArgumentError(
                    -1, f"{what}: expected a CoulombFriction, got {friction!r}")
            candidate.static_friction = friction.static_friction()
            candidate.dynamic_friction = friction.dynamic_friction()
        for attr, value in fields.items():
            setattr(candidate, attr, value)
        if not lib.teal_proximity_properties_valid(candidate):
            raise _core.TealInvalidArgumentError(
                -1, f"{what}: invalid proximity properties (friction static >= dynamic >= 0, "
                "stiffness > 0 or NaN, dissipation and relaxation time >= 0 or NaN, a soft "
                "geometry needs a finite modulus > 0, a resolution hint >= 0 or NaN)")
        self._c[0] = candidate[0]


def AddContactMaterial(dissipation=None, point_stiffness=None, friction=None, properties=None,
                       relaxation_time=None):
    """pydrake's AddContactMaterial: sets the Hunt-Crossley dissipation
    (s/m), the point-contact stiffness (N/m) and the CoulombFriction of
    properties (a ProximityProperties); Teal also takes the relaxation_time
    here. Returns properties."""
    props = _properties(properties, "AddContactMaterial")
    fields = {attr: float(value) for attr, value in (("hunt_crossley_dissipation", dissipation),
                                                     ("point_contact_stiffness", point_stiffness),
                                                     ("relaxation_time", relaxation_time))
              if value is not None}
    props._update("AddContactMaterial", friction=friction, **fields)
    return props


def AddCompliantHydroelasticProperties(resolution_hint, hydroelastic_modulus, properties):
    """pydrake's AddCompliantHydroelasticProperties: makes the geometry soft
    with modulus E (Pa, finite > 0) and the mesh resolution hint (m)."""
    props = _properties(properties, "AddCompliantHydroelasticProperties")
    props._update("AddCompliantHydroelasticProperties", compliance=lib.TEAL_HYDROELASTIC_SOFT,
                  hydroelastic_modulus=float(hydroelastic_modulus),
                  resolution_hint=float(resolution_hint))
    return props


def AddRigidHydroelasticProperties(resolution_hint=math.nan, properties=None):
    """pydrake's AddRigidHydroelasticProperties: makes the geometry rigid
    for hydroelastic contact (the hint is kept; a half-space needs none)."""
    if isinstance(resolution_hint, ProximityProperties):
        resolution_hint, properties = math.nan, resolution_hint
    props = _properties(properties, "AddRigidHydroelasticProperties")
    props._update("AddRigidHydroelasticProperties", compliance=lib.TEAL_HYDROELASTIC_RIGID,
                  resolution_hint=float(resolution_hint))
    return props


def _properties(properties, what):
    if not isinstance(properties, ProximityProperties):
        raise _core.TealInvalidArgumentError(
            -1, f"{what}: expected a ProximityProperties, got {properties!r}")
    return properties


def _vec3(v):
    return np.array([v.v[0], v.v[1], v.v[2]])


class ContactSurface:
    """A hydroelastic contact surface copied out of the context (pydrake's
    ContactSurface with a polygon mesh), in world: faces over vertices."""

    def __init__(self, s):
        nf, nvert = s.num_faces, s.num_vertices
        self._area, self._centroid = s.area, _vec3(s.centroid)
        self._vertices = np.array([_vec3(s.vertices[i]) for i in range(nvert)]).reshape(nvert, 3)
        faces = [s.faces[i] for i in range(nf)]
        self._polygons = [list(range(f.first, f.first + f.count)) for f in faces]
        self._face_areas = np.array([f.area for f in faces])
        self._face_pressures = np.array([f.pressure for f in faces])
        self._face_centroids = np.array([_vec3(f.centroid) for f in faces]).reshape(nf, 3)
        self._face_normals = np.array([_vec3(f.normal) for f in faces]).reshape(nf, 3)

    def area(self):
        """Total area (m^2)."""
        return self._area

    def centroid(self):
        """The area-weighted centroid, W."""
        return self._centroid.copy()

    def num_faces(self):
        """Number of faces."""
        return len(self._polygons)

    def num_vertices(self):
        """Number of vertices."""
        return self._vertices.shape[0]

    def vertices(self):
        """The vertices, a num_vertices x 3 array in W."""
        return self._vertices.copy()

    def polygons(self):
        """Each face's vertex indices (lists into vertices())."""
        return [list(p) for p in self._polygons]

    def face_areas(self):
        """Each face's area."""
        return self._face_areas.copy()

    def face_pressures(self):
        """The pressure at each face's centroid (Pa)."""
        return self._face_pressures.copy()

    def face_centroids(self):
        """Each face's centroid, num_faces x 3 in W."""
        return self._face_centroids.copy()

    def face_normals(self):
        """Each face's unit normal (from the rigid into the soft geometry),
        num_faces x 3 in W."""
        return self._face_normals.copy()


class HydroelasticContactInfo:
    """One hydroelastic contact (pydrake's HydroelasticContactInfo); A is the
    soft geometry's body, B the rigid one's."""

    def __init__(self, info):
        self._bodies = (info.body_A, info.body_B)
        self._geometries = (info.geometry_A, info.geometry_B)
        self._surface = ContactSurface(info.surface)
        self._F_Bc_W = np.concatenate([_vec3(info.tau_Bc_W), _vec3(info.f_Bc_W)])

    def contact_surface(self):
        """The ContactSurface."""
        return self._surface

    def F_Ac_W(self):
        """The spatial force [torque; force] on A at the surface's centroid, W."""
        return -self._F_Bc_W

    def F_Bc_W(self):
        """Teal: the spatial force on B at the centroid (= -F_Ac_W)."""
        return self._F_Bc_W.copy()

    def bodyA_index(self):
        """Teal: plant body index of A (soft)."""
        return self._bodies[0]

    def bodyB_index(self):
        """Teal: plant body index of B (rigid)."""
        return self._bodies[1]

    def geometry_indices(self):
        """Teal: the plant geometry indices of A and B."""
        return self._geometries
