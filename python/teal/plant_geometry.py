"""Geometry on a MultibodyPlant's bodies (pydrake's RegisterCollisionGeometry,
RegisterVisualGeometry, the plant's geometry lookups) and the plant's ports
whose values are C lists (poses, spatial vectors), read as numpy arrays."""
import numpy as np

from teal import _core, abstract
from teal._core import dptr, ffi, lib
from teal.contact_models import ProximityProperties
from teal.geometry import CoulombFriction, Shape
from teal.ids import FrameId, GeometryId, index_of
from teal.multibody_elements import RigidBody, _as_transform, _index_of

_GREY = (0.9, 0.9, 0.9, 1.0)


class PlantGeometryMixin:
    """MultibodyPlant's geometry registration, lookups and geometry ports."""

    def _registered(self, g, what):
        """The id of plant geometry g (its scene graph id, known once the
        plant is registered with a scene graph)."""
        g = self._plant_check(g, what)
        plant = self
        return GeometryId._pending(lambda: lib.teal_plant_get_geometry_id(plant._plant(), g))

    def RegisterCollisionGeometry(self, body, X_BG, shape, name, coulomb_friction):
        """Registers collision geometry of shape at X_BG on body (before
        Finalize) with its friction (a CoulombFriction) or its full contact
        properties (a ProximityProperties, pydrake's overload taking
        properties); returns its GeometryId (valid once the
        plant is finalized with a scene graph). A Mesh collides as its convex
        hull."""
        what = "RegisterCollisionGeometry"
        _check_shape(shape, what)
        if isinstance(coulomb_friction, ProximityProperties):
            props = ffi.new("teal_proximity_properties *", coulomb_friction._c[0])
        elif isinstance(coulomb_friction, CoulombFriction):
            props = ffi.new("teal_proximity_properties *", coulomb_friction._c)
        else:
            raise _core.TealInvalidArgumentError(
                -1, f"{what}: expected a CoulombFriction or ProximityProperties, got "
                f"{coulomb_friction!r}")
        g = lib.teal_plant_register_collision_geometry(
            self._plant(), _index_of(body, RigidBody, what), _as_transform(X_BG, what + " X_BG"),
            shape._collision_shape(), _core.cstr(name), props)
        return self._registered(g, what)

    def RegisterVisualGeometry(self, body, X_BG, shape, name, diffuse_color=_GREY):
        """Registers visual geometry of shape at X_BG on body (before
        Finalize) in diffuse_color (red, green, blue, alpha in [0, 1]);
        returns its GeometryId (valid once the plant is finalized with a
        scene graph)."""
        what = "RegisterVisualGeometry"
        _check_shape(shape, what)
        rgba = _core.as_vector(diffuse_color, 4, what=f"{what} diffuse_color")
        g = lib.teal_plant_register_visual_geometry(
            self._plant(), _index_of(body, RigidBody, what), _as_transform(X_BG, what + " X_BG"),
            shape._c, _core.cstr(name), dptr(rgba))
        return self._registered(g, what)

    def num_collision_geometries(self):
        """Number of collision geometries."""
        return lib.teal_plant_num_collision_geometries(self._plant())

    def num_visual_geometries(self):
        """Number of visual geometries."""
        return lib.teal_plant_num_visual_geometries(self._plant())

    def _geometries_for_body(self, fn, body, what):
        b = _index_of(body, RigidBody, what)
        err = _core.new_error()
        n = _core.check(fn(self._plant(), b, ffi.NULL, 0, err), err)
        out = ffi.new("int[]", max(n, 1))
        _core.check(fn(self._plant(), b, out, n, err), err)
        return [self._registered(out[i], what) for i in range(n)]

    def GetCollisionGeometriesForBody(self, body):
        """The GeometryIds of body's collision geometries."""
        return self._geometries_for_body(lib.teal_plant_get_collision_geometries_for_body, body,
                                         "GetCollisionGeometriesForBody")

    def GetVisualGeometriesForBody(self, body):
        """The GeometryIds of body's visual geometries."""
        return self._geometries_for_body(lib.teal_plant_get_visual_geometries_for_body, body,
                                         "GetVisualGeometriesForBody")

    def GetBodyFrameIdIfExists(self, body):
        """The scene graph FrameId of body, or None before the plant is
        registered with a scene graph."""
        frame = lib.teal_plant_get_body_frame_id_if_exists(
            self._plant(), _index_of(body, RigidBody, "GetBodyFrameIdIfExists"))
        return FrameId(frame) if frame >= 0 else None

    def GetBodyFromFrameId(self, frame_id):
        """The body whose frame is frame_id, or None."""
        body = lib.teal_plant_get_body_from_frame_id(
            self._plant(), index_of(frame_id, FrameId, "GetBodyFromFrameId"))
        return RigidBody(self, body) if body >= 0 else None

    def get_geometry_pose_output_port(self):
        """The poses of the bodies' frames for the scene graph; its Eval
        gives an n x 4 x 4 array (X_WF by the plant's frame order)."""
        return self.get_output_port(self._plant_check(
            lib.teal_plant_geometry_pose_output_port(self._plant()), "geometry pose port"))

    def get_geometry_query_input_port(self):
        """The scene graph's query input; its Eval gives the penetrating
        pairs (a list of PenetrationAsPointPair)."""
        return self.get_input_port(self._plant_check(
            lib.teal_plant_geometry_query_input_port(self._plant()), "geometry query port"))

    def get_body_poses_output_port(self):
        """X_WB of every body; its Eval gives a num_bodies x 4 x 4 array."""
        return self.get_output_port(self._plant_check(
            lib.teal_plant_body_poses_output_port(self._plant()), "body poses port"))


    def _list_port(self, fn, what):
        return self.get_output_port(self._plant_check(fn(self._plant()), what))

    def get_body_spatial_velocities_output_port(self):
        """V_WB = [w; v] of every body; its Eval gives a num_bodies x 6 array."""
        return self._list_port(lib.teal_plant_body_spatial_velocities_output_port,
                               "body spatial velocities port")

    def get_body_spatial_accelerations_output_port(self):
        """A_WB = [alpha; a] of every body; its Eval gives a num_bodies x 6 array."""
        return self._list_port(lib.teal_plant_body_spatial_accelerations_output_port,
                               "body spatial accelerations port")

    def get_reaction_forces_output_port(self):
        """F_CJc_Jc, each joint's reaction wrench [torque; force] on its child
        at the joint frame; its Eval gives a num_joints x 6 array."""
        return self._list_port(lib.teal_plant_reaction_forces_output_port,
                               "reaction forces port")


def _spatial_vectors(ptr):
    vectors = ffi.cast("const teal_spatial_vector_list *", ptr)
    out = np.empty((vectors.n, 6))
    for i in range(vectors.n):
        out[i] = list(vectors.V[i].v)
    return out


abstract.register_c_reader("teal_spatial_vector_list", _spatial_vectors)


def _check_shape(shape, what):
    if not isinstance(shape, Shape):
        raise _core.TealInvalidArgumentError(
            -1, f"{what}: expected a shape (Sphere, Box, ...), got {shape!r}")

