"""Shapes, friction and the scene graph's model and query side (pydrake.geometry):
Sphere ... Mesh, CoulombFriction, SceneGraph with its query output port, the
QueryObject that port evaluates to, SceneGraphInspector, and the readers that
turn the geometry C values of abstract ports into Python objects.

Every answer is a copy (numpy arrays for points, normals and the pose arrays
of ports, a RigidTransform for one pose): the C side serves them from a
context's cache, which the next change of the context rewrites.
"""
import math

import numpy as np

from teal import _core, abstract
from teal._core import _Handle, check, cstr, ffi, lib
from teal.framework import OutputPort, System
from teal.ids import FrameId, GeometryId, index_of
from teal.multibody_elements import RigidTransform


def _vec(v):
    return np.array([v.v[0], v.v[1], v.v[2]])


def _matrix4(X):
    """A teal_transform as a 4x4 homogeneous numpy matrix."""
    out = np.eye(4)
    out[:3, :3] = np.array(list(X.R.m)).reshape(3, 3)
    out[:3, 3] = _vec(X.p)
    return out


# ---- shapes --------------------------------------------------------------------


class Shape:
    """A shape held as Teal's C value (geometry/shapes/shape.h); the
    constructors validate their dimensions with Teal's messages."""

    def __init__(self, make):
        self._c = ffi.new("teal_shape *")
        err = _core.new_error()
        check(make(self._c, err), err, f"{type(self).__name__}: invalid dimensions")
        self._owned = True

    def __del__(self):
        if getattr(self, "_owned", False):
            self._owned = False
            lib.teal_shape_release(self._c)

    def _collision_shape(self):
        """The C shape that collides (itself; a mesh's hull for Mesh)."""
        return self._c


class Sphere(Shape):
    """A sphere centred at the geometry frame's origin."""

    def __init__(self, radius):
        super().__init__(lambda out, err: lib.teal_shape_sphere(float(radius), out, err))

    def radius(self):
        """The radius."""
        return self._c.radius


class Box(Shape):
    """A box centred at the origin with side lengths along x, y, z."""

    def __init__(self, width, depth, height):
        super().__init__(lambda out, err: lib.teal_shape_box(float(width), float(depth),
                                                             float(height), out, err))

    def width(self):
        """Side length along x."""
        return self._c.size.v[0]

    def depth(self):
        """Side length along y."""
        return self._c.size.v[1]

    def height(self):
        """Side length along z."""
        return self._c.size.v[2]

    def size(self):
        """The three side lengths."""
        return _vec(self._c.size)


class Cylinder(Shape):
    """A cylinder centred at the origin, its axis along z."""

    def __init__(self, radius, length):
        super().__init__(lambda out, err: lib.teal_shape_cylinder(float(radius), float(length),
                                                                  out, err))

    def radius(self):
        """The radius."""
        return self._c.radius

    def length(self):
        """The height along z."""
        return self._c.length


class Capsule(Shape):
    """A capsule centred at the origin: a segment of length along z swept by a
    ball of radius."""

    def __init__(self, radius, length):
        super().__init__(lambda out, err: lib.teal_shape_capsule(float(radius), float(length),
                                                                 out, err))

    def radius(self):
        """The radius."""
        return self._c.radius

    def length(self):
        """The length of the segment between the cap centres."""
        return self._c.length


class Ellipsoid(Shape):
    """An ellipsoid centred at the origin with semi-axes a, b, c along x, y, z."""

    def __init__(self, a, b, c):
        super().__init__(lambda out, err: lib.teal_shape_ellipsoid(float(a), float(b),
                                                                   float(c), out, err))

    def a(self):
        """Semi-axis along x."""
        return self._c.size.v[0]

    def b(self):
        """Semi-axis along y."""
        return self._c.size.v[1]

    def c(self):
        """Semi-axis along z."""
        return self._c.size.v[2]


class HalfSpace(Shape):
    """The half-space z <= 0 of the geometry frame (outward normal +z)."""

    def __init__(self):
        super().__init__(lambda out, err: lib.teal_shape_half_space(out))


class Convex(Shape):
    """A convex polytope: Convex(filename, scale=1.0) is the convex hull of a
    mesh file's vertices (pydrake's form), Convex(vertices) the hull of an
    n x 3 array (n >= 4, not coplanar; Teal)."""

    def __init__(self, filename_or_vertices, scale=1.0):
        self._scale = float(scale)
        if isinstance(filename_or_vertices, (str, bytes)):
            self._filename = filename_or_vertices
            super().__init__(self._hull_of_file)
            return
        self._filename = None
        v = _core.as_matrix(filename_or_vertices, None, 3, what="Convex vertices") * self._scale
        vertices = ffi.new("teal_vec3[]", max(len(v), 1))
        for i, row in enumerate(v):
            vertices[i].v = list(row)
        super().__init__(lambda out, err: lib.teal_shape_convex(vertices, len(v), out, err))

    def _hull_of_file(self, out, err):
        shapes = ffi.new("teal_mesh_shapes *")
        rc = lib.teal_mesh_shapes_from_file(cstr(self._filename), self._scale, shapes, err)
        if rc == 0:  # keep the hull, drop the visual mesh
            out[0] = shapes.collision
            shapes.collision = ffi.new("teal_shape *")[0]
            lib.teal_mesh_shapes_release(shapes)
        return rc

    def filename(self):
        """The mesh file (None for a Convex made from vertices)."""
        return self._filename

    def scale(self):
        """The uniform scale."""
        return self._scale

    def num_vertices(self):
        """Number of the hull's vertices."""
        return self._c.num_vertices


class Mesh(Shape):
    """A mesh file with a uniform scale. Teal draws it as it is, and (as Drake's
    point contact does) collides with its convex hull, made when it is
    registered as collision geometry."""

    def __init__(self, filename, scale=1.0):
        self._filename, self._scale, self._hull = filename, float(scale), None
        super().__init__(lambda out, err: lib.teal_shape_mesh(cstr(filename), float(scale),
                                                              out, err))

    def filename(self):
        """The mesh file."""
        return self._filename

    def scale(self):
        """The uniform scale."""
        return self._scale

    def _collision_shape(self):
        if self._hull is None:
            self._hull = Convex(self._filename, self._scale)
        return self._hull._c


class CoulombFriction:
    """Static and dynamic friction coefficients (static >= dynamic >= 0)."""

    def __init__(self, static_friction=0.0, dynamic_friction=0.0):
        self._c = lib.teal_proximity_properties_make(float(static_friction),
                                                     float(dynamic_friction))
        if not lib.teal_proximity_properties_valid(ffi.new("teal_proximity_properties *",
                                                           self._c)):
            raise _core.TealInvalidArgumentError(
                -1, f"CoulombFriction: need static >= dynamic >= 0 (finite), got "
                f"static {static_friction}, dynamic {dynamic_friction}")

    def static_friction(self):
        """The static coefficient."""
        return self._c.static_friction

    def dynamic_friction(self):
        """The dynamic coefficient."""
        return self._c.dynamic_friction


class Role:
    """Geometry roles (pydrake's Role)."""

    kProximity = 1
    kIllustration = 2


# ---- query results -------------------------------------------------------------


class PenetrationAsPointPair:
    """Two penetrating geometries (pydrake's PenetrationAsPointPair): ids,
    the deepest points p_WCa (of A, inside B) and p_WCb, the unit normal
    nhat_BA_W from B into A, and depth > 0."""

    def __init__(self, pair):
        self.id_A, self.id_B = GeometryId(pair.id_A), GeometryId(pair.id_B)
        self.p_WCa, self.p_WCb = _vec(pair.p_WCa), _vec(pair.p_WCb)
        self.nhat_BA_W = _vec(pair.nhat_BA_W)
        self.depth = pair.depth


class SignedDistancePair:
    """Signed distance between two geometries (pydrake's SignedDistancePair):
    distance (negative when they overlap), the witness points p_ACa and p_BCb
    in the geometries' frames (and Teal's p_WCa, p_WCb in world), and
    nhat_BA_W, the unit direction in which moving A increases the distance
    (NaN when the witness points coincide)."""

    def __init__(self, id_A, id_B, distance, p_WCa, p_WCb, X_WA, X_WB):
        self.id_A, self.id_B, self.distance = id_A, id_B, distance
        self.p_WCa, self.p_WCb = p_WCa, p_WCb
        self.p_ACa = X_WA[:3, :3].T @ (p_WCa - X_WA[:3, 3])
        self.p_BCb = X_WB[:3, :3].T @ (p_WCb - X_WB[:3, 3])
        d = p_WCa - p_WCb
        norm = np.linalg.norm(d)
        sign = -1.0 if distance < 0 else 1.0
        self.nhat_BA_W = sign * d / norm if norm > 0 else np.full(3, math.nan)


def _point_pairs(ptr):
    pairs = ffi.cast("const teal_point_pair_list *", ptr)
    return [PenetrationAsPointPair(pairs.pairs[i]) for i in range(pairs.n)]


def _transforms(ptr):
    poses = ffi.cast("const teal_transform_list *", ptr)
    return _matrix4_array(poses.X, poses.n)


def _matrix4_array(X, n):
    out = np.empty((n, 4, 4))
    for i in range(n):
        out[i] = _matrix4(X[i])
    return out


abstract.register_c_reader("teal_point_pair_list", _point_pairs)
abstract.register_c_reader("teal_transform_list", _transforms)


# ---- the scene graph ---------------------------------------------------------


class SceneGraphInspector:
    """The scene graph's model (pydrake's SceneGraphInspector): names, frames,
    roles, shapes' poses of geometries, by GeometryId and FrameId."""

    def __init__(self, scene_graph):
        self._sg = scene_graph

    def _ptr(self):
        return self._sg._sg_ptr()

    def num_geometries(self):
        """Number of geometries (all roles)."""
        return lib.teal_scene_graph_num_geometries(self._ptr())

    def num_frames(self):
        """Number of frames registered by sources (the world frame is not one)."""
        return lib.teal_scene_graph_num_frames(self._ptr())

    def num_sources(self):
        """Number of sources (the plant is one)."""
        return lib.teal_scene_graph_num_sources(self._ptr())

    def GetAllGeometryIds(self, role=None):
        """Every geometry's id, or those of one Role."""
        sg = self._ptr()
        return [GeometryId(g) for g in range(self.num_geometries())
                if role is None or lib.teal_scene_graph_geometry_role(sg, g) == int(role)]

    def _geometry(self, geometry_id):
        g = index_of(geometry_id, GeometryId, "geometry id")
        if not 0 <= g < self.num_geometries():
            raise _core.TealNotFoundError(
                -5, f"geometry id {g}: no such geometry (the scene graph has "
                f"{self.num_geometries()})")
        return g

    def GetName(self, id):  # noqa: A002 -- pydrake's parameter name
        """The name of a geometry (GeometryId) or a frame (FrameId)."""
        if isinstance(id, FrameId):
            name = lib.teal_scene_graph_frame_name(self._ptr(), id.get_value())
            if name == ffi.NULL:
                raise _core.TealNotFoundError(-5, f"frame id {id.get_value()}: no such frame")
            return ffi.string(name).decode()
        return ffi.string(lib.teal_scene_graph_geometry_name(self._ptr(),
                                                             self._geometry(id))).decode()

    def GetFrameId(self, geometry_id):
        """The frame a geometry is attached to."""
        return FrameId(lib.teal_scene_graph_geometry_frame(self._ptr(),
                                                           self._geometry(geometry_id)))

    def GetPoseInFrame(self, geometry_id):
        """X_FG, the geometry's pose in its frame (a RigidTransform)."""
        X = lib.teal_scene_graph_geometry_pose_in_frame(self._ptr(), self._geometry(geometry_id))
        return RigidTransform(_matrix4(X[0]))

    def GetRole(self, geometry_id):
        """Teal: the geometry's Role (kProximity or kIllustration)."""
        return int(lib.teal_scene_graph_geometry_role(self._ptr(), self._geometry(geometry_id)))

    def GetShapeKind(self, geometry_id):
        """Teal: the name of the geometry's shape kind ("sphere", "box", ...)."""
        shape = lib.teal_scene_graph_geometry_shape(self._ptr(), self._geometry(geometry_id))
        return ffi.string(lib.teal_shape_kind_name(shape.kind)).decode()

    def CollisionFiltered(self, geometry_id1, geometry_id2):
        """True when the pair is never tested (filtered, one frame or not both
        proximity)."""
        a, b = self._geometry(geometry_id1), self._geometry(geometry_id2)
        return not lib.teal_scene_graph_pair_is_candidate(self._ptr(), a, b)


class QueryObject:
    """The scene graph's queries in one context (pydrake's QueryObject), as
    its query output port's Eval gives it. Each call evaluates the context
    as it is then."""

    def __init__(self, scene_graph, context):
        self._sg, self._context = scene_graph, context

    def inspector(self):
        """The scene graph's model."""
        return SceneGraphInspector(self._sg)

    def _call(self, fn, *args):
        ctx = self._context._ptr()
        check(fn(self._sg._sg_ptr(), ctx, *args), lib.teal_context_error(ctx))

    def _poses(self):
        out = ffi.new("const teal_transform **")
        self._call(lib.teal_scene_graph_eval_geometry_poses, out)
        return out[0]

    def GetPoseInWorld(self, geometry_id):
        """X_WG of a geometry (a RigidTransform)."""
        g = self.inspector()._geometry(geometry_id)
        return RigidTransform(_matrix4(self._poses()[g]))

    def GetAllPosesInWorld(self):
        """Teal: X_WG of every geometry, an n x 4 x 4 array by geometry id."""
        return _matrix4_array(self._poses(), self.inspector().num_geometries())

    def ComputePointPairPenetration(self):
        """Every penetrating pair of proximity geometries."""
        out = ffi.new("const teal_point_pair_list **")
        self._call(lib.teal_scene_graph_eval_point_pair_penetrations, out)
        return _point_pairs(out[0])

    def ComputeSignedDistancePairClosestPoints(self, geometry_id_A, geometry_id_B):
        """The signed distance between two proximity geometries."""
        inspector = self.inspector()
        a, b = inspector._geometry(geometry_id_A), inspector._geometry(geometry_id_B)
        return self._signed_distance(a, b, self._poses())

    def _signed_distance(self, a, b, poses):
        distance, p_a, p_b = ffi.new("double *"), ffi.new("teal_vec3 *"), ffi.new("teal_vec3 *")
        self._call(lib.teal_scene_graph_signed_distance, a, b, distance, p_a, p_b)
        return SignedDistancePair(GeometryId(a), GeometryId(b), distance[0], _vec(p_a[0]),
                                  _vec(p_b[0]), _matrix4(poses[a]), _matrix4(poses[b]))

    def ComputeSignedDistancePairwiseClosestPoints(self, max_distance=math.inf):
        """The signed distance of every pair that may collide (proximity,
        not filtered) whose distance is at most max_distance."""
        if math.isnan(max_distance):
            raise _core.TealNonFiniteError(
                -10, "ComputeSignedDistancePairwiseClosestPoints: max_distance is NaN")
        sg, n, poses = self._sg._sg_ptr(), self.inspector().num_geometries(), self._poses()
        pairs = (self._signed_distance(a, b, poses) for a in range(n) for b in range(a + 1, n)
                 if lib.teal_scene_graph_pair_is_candidate(sg, a, b))
        return [p for p in pairs if p.distance <= max_distance]


class _QueryPort(OutputPort):
    """The scene graph's query output: Eval gives a QueryObject."""

    def Eval(self, context):
        """A QueryObject on context (the scene graph's or one above it)."""
        ctx, out = context._ptr(), ffi.new("const void **")
        check(lib.teal_eval_abstract_output(self._system._sys_ptr(), ctx, self._index, out),
              lib.teal_context_error(ctx))  # Teal's error if the query cannot be made
        return QueryObject(self._system, context)


class SceneGraph(System):
    """The scene graph AddMultibodyPlantSceneGraph made (owned by the builder,
    then the diagram). Its system exists once the plant is finalized."""

    def _sg_ptr(self):
        return self._h.get()

    def _sys_ptr(self):
        sys = lib.teal_scene_graph_system(self._sg_ptr())
        if sys == ffi.NULL:
            raise _core.TealStateError(
                -15, "SceneGraph: no system yet (finalize the plant first)")
        return sys

    def model_inspector(self):
        """The model: names, frames and roles of the geometries."""
        return SceneGraphInspector(self)

    def get_query_output_port(self):
        """The query output; its Eval gives a QueryObject."""
        index = check(lib.teal_scene_graph_query_output_port(self._sg_ptr()), ffi.NULL,
                      "SceneGraph: finalize the plant first")
        return _QueryPort(self, index)

    def get_geometry_poses_output_port(self):
        """Teal: the output X_WG of every geometry; its Eval gives an
        n x 4 x 4 array by geometry id."""
        index = check(lib.teal_scene_graph_geometry_poses_output_port(self._sg_ptr()), ffi.NULL,
                      "SceneGraph: finalize the plant first")
        return self.get_output_port(index)


def new_scene_graph(ptr, owner):
    """The SceneGraph of ptr, owned by owner (a handle)."""
    return SceneGraph(_Handle(ptr, None, owner))
