"""Bodies, joints, rigid transforms and the plant's constraints (pydrake's
RigidBody, Joint, RigidTransform and MultibodyPlant.Add*Constraint).

Bodies and joints are small handles (the plant and an index), as Drake's
element references are; they keep the plant alive.
"""
import math

import numpy as np

from teal import _core
from teal._core import check, ffi, lib
from teal.ids import MultibodyConstraintId, index_of


class RigidTransform:
    """A pose X_AB: rotation R_AB (3x3) and translation p_AB (Drake's
    RigidTransform, as RigidTransform(p), RigidTransform(R, p) or from a 4x4
    homogeneous matrix)."""

    def __init__(self, R=None, p=None):
        if p is None and R is not None and np.shape(R) in ((3,), (4, 4)):
            R, p = (None, R) if np.shape(R) == (3,) else (np.asarray(R)[:3, :3],
                                                           np.asarray(R)[:3, 3])
        self._R = _core.as_matrix(np.eye(3) if R is None else R, 3, 3, what="RigidTransform R")
        self._p = _core.as_vector(np.zeros(3) if p is None else p, 3, what="RigidTransform p")

    def rotation(self):
        """R_AB as a 3x3 array."""
        return self._R.copy()

    def translation(self):
        """p_AB."""
        return self._p.copy()

    def GetAsMatrix4(self):
        """The 4x4 homogeneous matrix."""
        X = np.eye(4)
        X[:3, :3], X[:3, 3] = self._R, self._p
        return X

    def _c(self):
        X = ffi.new("teal_transform *")
        X.R.m = list(self._R.reshape(9))
        X.p.v = list(self._p)
        return X[0]


def _as_transform(X, what):
    if isinstance(X, RigidTransform):
        return X._c()
    return RigidTransform(X)._c() if np.shape(X) == (4, 4) else _bad(what, X)


def _bad(what, value):
    raise _core.TealInvalidArgumentError(
        -1, f"{what}: expected a RigidTransform or a 4x4 matrix, got {value!r}")


def _vec3(value, what):
    v = _core.as_vector(value, 3, what=what)
    out = ffi.new("teal_vec3 *")
    out.v = list(v)
    return out[0]


class _Element:
    def __init__(self, plant, index):
        self._plant_obj = plant
        self._index = int(index)

    def index(self):
        """The element's index in the plant."""
        return self._index

    def __eq__(self, other):
        return (type(other) is type(self) and other._plant_obj is self._plant_obj
                and other._index == self._index)

    def __hash__(self):
        return hash((type(self), id(self._plant_obj), self._index))


    def _name(self, fn, kind):
        name = fn(self._plant_obj._plant(), self._index)
        if name == ffi.NULL:
            raise _core.TealNotFoundError(-5, f"{kind} {self._index}: no such {kind} in the plant")
        return ffi.string(name).decode()


class RigidBody(_Element):
    """A body of a plant (Drake's RigidBody)."""

    def name(self):
        """The body's name."""
        return self._name(lib.teal_plant_body_name, "body")

    def body_frame(self):
        """The body's own frame (a Frame, see teal.plant_frames)."""
        return self._plant_obj.GetBodyFrame(self)


class Joint(_Element):
    """A joint of a plant (Drake's Joint): its name, and locking in a context."""

    def name(self):
        """The joint's name."""
        return self._name(lib.teal_plant_joint_name, "joint")

    def _call(self, fn, context, *args):
        ctx = context._ptr()
        return check(fn(self._plant_obj._plant(), ctx, self._index, *args),
                     lib.teal_context_error(ctx))

    def Lock(self, context):
        """Locks the joint in context: its velocities become 0 and stay 0."""
        self._call(lib.teal_plant_lock_joint, context)

    def Unlock(self, context):
        """Unlocks the joint in context (its velocities stay 0 until moved)."""
        self._call(lib.teal_plant_unlock_joint, context)

    def is_locked(self, context):
        """True when the joint is locked in context."""
        locked = ffi.new("int *")
        self._call(lib.teal_plant_joint_is_locked, context, locked)
        return bool(locked[0])


def _constraint_index(id):
    """A constraint's C index from a MultibodyConstraintId (or an int)."""
    return index_of(id, MultibodyConstraintId, "constraint id")


def _index_of(element, cls, what):
    if isinstance(element, cls):
        return element.index()
    if isinstance(element, (int, np.integer)) and not isinstance(element, bool):
        return int(element)
    raise _core.TealInvalidArgumentError(
        -1, f"{what}: expected a {cls.__name__} or an index, got {element!r}")


class PlantElementsMixin:
    """MultibodyPlant's lookups, mass matrix, summary and constraints."""

    def _plant_check(self, rc, what):
        if rc < 0:
            raise _core.error_from(lib.teal_plant_error(self._plant()), rc, what)
        return rc

    def _constraint_added(self, rc, what):
        return MultibodyConstraintId(self._plant_check(rc, what))

    def _lookup(self, fn, name, model_instance, cls):
        err = _core.new_error()
        inst = -1 if model_instance is None else int(model_instance)
        return cls(self, check(fn(self._plant(), _core.cstr(name), inst, err), err))

    def GetBodyByName(self, name, model_instance=None):
        """The body named name (in model_instance, if given)."""
        return self._lookup(lib.teal_plant_get_body_by_name, name, model_instance, RigidBody)

    def GetJointByName(self, name, model_instance=None):
        """The joint named name (in model_instance, if given)."""
        return self._lookup(lib.teal_plant_get_joint_by_name, name, model_instance, Joint)

    def GetModelInstanceByName(self, name):
        """The index of the model instance named name."""
        err = _core.new_error()
        return check(lib.teal_plant_get_model_instance_by_name(self._plant(), _core.cstr(name),
                                                               err), err)

    def world_body(self):
        """The world body (index 0)."""
        return RigidBody(self, 0)

    def num_bodies(self):
        """Number of bodies, the world included."""
        return lib.teal_plant_num_bodies(self._plant())

    def num_joints(self):
        """Number of joints."""
        return lib.teal_plant_num_joints(self._plant())

    def CalcMassMatrix(self, context):
        """The mass matrix M(q) (nv x nv) at context's state, a copy."""
        out = ffi.new("const double **")
        ctx = context._ptr()
        check(lib.teal_plant_eval_mass_matrix(self._plant(), ctx, out),
              lib.teal_context_error(ctx))
        nv = self.num_velocities()
        return _core.from_doubles(out[0], nv * nv).reshape(nv, nv)

    def Summary(self):
        """Teal's text summary of the finalized model (no pydrake equivalent)."""
        err = _core.new_error()
        text = lib.teal_plant_summary_string(self._plant(), err)
        if text == ffi.NULL:
            raise _core.error_from(err, -1, "Summary failed")
        try:
            return ffi.string(text).decode()
        finally:
            lib.teal_free(text)

    # ---- constraints (added before Finalize; each returns its index) ----

    def AddCouplerConstraint(self, joint0, joint1, gear_ratio, offset=0.0):
        """q0 = gear_ratio q1 + offset between two single-dof joints."""
        j0 = _index_of(joint0, Joint, "AddCouplerConstraint joint0")
        j1 = _index_of(joint1, Joint, "AddCouplerConstraint joint1")
        return self._constraint_added(lib.teal_plant_add_coupler_constraint(
            self._plant(), j0, j1, float(gear_ratio), float(offset)), "AddCouplerConstraint")

    def AddDistanceConstraint(self, body_A, p_AP, body_B, p_BQ, distance,
                              stiffness=math.inf, damping=0.0):
        """|p_WQ - p_WP| = distance; rigid with the default infinite
        stiffness, else a spring-damper (Drake's compliant form)."""
        what = "AddDistanceConstraint"
        return self._constraint_added(lib.teal_plant_add_distance_constraint(
            self._plant(), _index_of(body_A, RigidBody, what), _vec3(p_AP, what + " p_AP"),
            _index_of(body_B, RigidBody, what), _vec3(p_BQ, what + " p_BQ"), float(distance),
            float(stiffness), float(damping)), what)

    def AddBallConstraint(self, body_A, p_AP, body_B, p_BQ=None):
        """Point P of body A coincides with point Q of body B (p_BQ defaults
        to the origin, as Drake's optional argument)."""
        what = "AddBallConstraint"
        return self._constraint_added(lib.teal_plant_add_ball_constraint(
            self._plant(), _index_of(body_A, RigidBody, what), _vec3(p_AP, what + " p_AP"),
            _index_of(body_B, RigidBody, what),
            _vec3(np.zeros(3) if p_BQ is None else p_BQ, what + " p_BQ")), what)

    def AddWeldConstraint(self, body_A, X_AP, body_B, X_BQ):
        """Frame P (X_AP on body A) coincides with frame Q (X_BQ on body B)."""
        what = "AddWeldConstraint"
        return self._constraint_added(lib.teal_plant_add_weld_constraint(
            self._plant(), _index_of(body_A, RigidBody, what), _as_transform(X_AP, what + " X_AP"),
            _index_of(body_B, RigidBody, what), _as_transform(X_BQ, what + " X_BQ")), what)

    def AddPointInPlaneConstraint(self, body_A, normal_A, height, body_B, p_BS):
        """Teal (Simbody's PointInPlane): point S of body B stays in the
        plane n . x = height of body A."""
        what = "AddPointInPlaneConstraint"
        return self._constraint_added(lib.teal_plant_add_point_in_plane_constraint(
            self._plant(), _index_of(body_A, RigidBody, what), _vec3(normal_A, what + " normal"),
            float(height), _index_of(body_B, RigidBody, what), _vec3(p_BS, what + " p_BS")), what)

    def AddPointOnLineConstraint(self, body_A, direction_A, p_AL, body_B, p_BS):
        """Teal (Simbody's PointOnLine): point S of body B stays on the line
        of body A through p_AL along direction_A."""
        what = "AddPointOnLineConstraint"
        return self._constraint_added(lib.teal_plant_add_point_on_line_constraint(
            self._plant(), _index_of(body_A, RigidBody, what),
            _vec3(direction_A, what + " direction"), _vec3(p_AL, what + " p_AL"),
            _index_of(body_B, RigidBody, what), _vec3(p_BS, what + " p_BS")), what)

    def AddConstantAngleConstraint(self, body_A, a_A, body_B, b_B, angle):
        """Teal (Simbody's ConstantAngle): the angle between axis a of body A
        and axis b of body B stays angle."""
        what = "AddConstantAngleConstraint"
        return self._constraint_added(lib.teal_plant_add_constant_angle_constraint(
            self._plant(), _index_of(body_A, RigidBody, what), _vec3(a_A, what + " a_A"),
            _index_of(body_B, RigidBody, what), _vec3(b_B, what + " b_B"), float(angle)), what)

    def num_constraints(self):
        """Number of constraints added."""
        return lib.teal_plant_num_constraints(self._plant())

    def num_constraint_rows(self):
        """Teal: the multipliers' size m (after Finalize)."""
        return self._plant_check(lib.teal_plant_num_constraint_rows(self._plant()),
                                 "num_constraint_rows: call Finalize() first")

    def GetConstraintActiveStatus(self, context, id):
        """True when constraint id (a MultibodyConstraintId, or an int) is
        enabled in context."""
        ctx = context._ptr()
        rc = lib.teal_plant_constraint_enabled(self._plant(), ctx, _constraint_index(id))
        return bool(check(rc, lib.teal_context_error(ctx)))

    def SetConstraintActiveStatus(self, context, id, status):
        """Enables (status True) or disables constraint id in context."""
        ctx = context._ptr()
        check(lib.teal_plant_set_constraint_enabled(self._plant(), ctx, _constraint_index(id),
                                                    int(bool(status))),
              lib.teal_context_error(ctx))

    def SetConstraintDefaultActiveStatus(self, id, status):
        """Teal: the enabled flag new contexts start with (before Finalize)."""
        self._plant_check(lib.teal_plant_set_constraint_default_enabled(
            self._plant(), _constraint_index(id), int(bool(status))),
            "SetConstraintDefaultActiveStatus")

    def GetConstraintMultipliers(self, context):
        """Teal (Simbody's getConstraintMultipliers): lambda (m values) with
        M vdot + G' lambda = f at context's state; 0 in a discrete plant."""
        lam = np.zeros(self.num_constraint_rows())
        ctx = context._ptr()
        check(lib.teal_plant_get_constraint_multipliers(self._plant(), ctx, _core.dptr(lam)),
              lib.teal_context_error(ctx))
        return lam

    def get_constraint_multipliers_output_port(self):
        """Teal: the output port of the multipliers (m values)."""
        index = lib.teal_plant_constraint_multipliers_output_port(self._plant())
        return self.get_output_port(self._plant_check(index, "multipliers port"))

    # ---- prescribed motion (Teal, Simbody's Motion; no pydrake equivalent) ----

    def PrescribeJointTrajectory(self, joint, trajectory):
        """Teal: joint (1-dof, continuous plant) follows the one-row
        PiecewisePolynomial trajectory, before Finalize; the plant keeps
        the trajectory alive."""
        j = _index_of(joint, Joint, "PrescribeJointTrajectory")
        self._plant_check(lib.teal_plant_prescribe_joint_trajectory(
            self._plant(), j, trajectory._h.get()), "PrescribeJointTrajectory")
        self._h.depend_on(trajectory._h)

    def IsJointPrescribed(self, joint):
        """Teal: True when joint has a prescribed motion."""
        j = _index_of(joint, Joint, "IsJointPrescribed")
        return bool(lib.teal_plant_joint_is_prescribed(self._plant(), j))

    def CalcMotionErrors(self, context, level):
        """Teal (Simbody's calcMotionErrors): the held dofs' errors (nv) at
        level 0 (positions), 1 (velocities) or 2 (accelerations)."""
        nv = self.num_velocities()
        out = np.zeros(nv)
        ctx = context._ptr()
        check(lib.teal_plant_calc_motion_errors(self._plant(), ctx, int(level),
                                                _core.dptr(out), nv),
              lib.teal_context_error(ctx))
        return out

    def set_baumgarte_stabilization(self, alpha, beta):
        """Teal: Baumgarte stabilization of the constraint rows (1/s, >= 0;
        0, 0 turns it off), before Finalize."""
        self._plant_check(lib.teal_plant_set_baumgarte_stabilization(
            self._plant(), float(alpha), float(beta)), "set_baumgarte_stabilization")

    def set_constraint_projection(self, enabled):
        """Teal: project the state onto the constraints after every step (on
        by default), before Finalize."""
        self._plant_check(lib.teal_plant_set_constraint_projection(
            self._plant(), int(bool(enabled))), "set_constraint_projection")
