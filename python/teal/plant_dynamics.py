"""MultibodyPlant's inertial-parameter calculations (the regressor and the
parameter derivatives), joint armature, tendons and the discrete step's
constraint forces, as numpy arrays."""
import numpy as np

from teal import _core
from teal._core import check, cstr, dptr, ffi, lib
from teal.multibody_elements import Joint, RigidBody, _constraint_index, _index_of
from teal.plant_frames import _parent_frame

NUM_INERTIAL_PARAMETERS = 10
_DEFAULT_MODEL_INSTANCE = 1


class _MbData:
    """A teal_mb_data for one call (the algorithms' scratch), with the plant's
    gravity; freed at the end of the with block."""

    def __init__(self, plant):
        self._plant = plant

    def __enter__(self):
        err = _core.new_error()
        self.ptr = lib.teal_mb_data_new(self._plant._plant(), err)
        if self.ptr == ffi.NULL:
            raise _core.error_from(err, -1, "the plant's algorithm data failed")
        lib.teal_mb_data_set_gravity(self.ptr, lib.teal_plant_gravity(self._plant._plant()))
        return self.ptr

    def __exit__(self, *exc):
        lib.teal_mb_data_free(self.ptr)
        return False


_SPRING_FIELDS = ("stiffness", "damping", "spring_length", "lower", "upper", "limit_stiffness",
                  "limit_damping")


def _tendon_spring(values, what):
    """A teal_tendon_spring: the default (no spring, no range) with values."""
    unknown = set(values) - set(_SPRING_FIELDS)
    if unknown:
        raise _core.TealInvalidArgumentError(
            -1, f"{what}: unknown spring setting(s) {sorted(unknown)} (expected {_SPRING_FIELDS})")
    spring = ffi.new("teal_tendon_spring *", lib.teal_tendon_spring_default())
    for key, value in values.items():
        setattr(spring, key, float(value))
    return spring


def _instance(model_instance):
    return _DEFAULT_MODEL_INSTANCE if model_instance is None else int(model_instance)


class PlantDynamicsMixin:
    """The MultibodyPlant methods of this file (mixed into MultibodyPlant)."""

    def _context_call(self, fn, context, *args):
        ctx = context._ptr()
        return check(fn(self._plant(), ctx, *args), lib.teal_context_error(ctx))

    def CalcInverseDynamics(self, context, known_vdot, applied_generalized_force=None):
        """Drake's CalcInverseDynamics: tau = M vdot + C v - tau_applied at
        context's q and v (gravity is not included, as in Drake, where it
        enters through the applied forces; see CalcGravityGeneralizedForces).
        Teal takes the applied generalized force (nv) in place of Drake's
        MultibodyForces; body forces are not bound."""
        nv = self.num_velocities()
        vdot = _core.as_vector(known_vdot, nv, what="CalcInverseDynamics known_vdot")
        tau_applied = ffi.NULL
        if applied_generalized_force is not None:
            applied = _core.as_vector(applied_generalized_force, nv,
                                      what="CalcInverseDynamics applied_generalized_force")
            tau_applied = dptr(applied)
        tau = np.zeros(max(nv, 1))
        self._context_call(lib.teal_plant_calc_inverse_dynamics, context, dptr(vdot),
                           tau_applied, ffi.NULL, dptr(tau))
        return tau[:nv]

    def CalcGravityGeneralizedForces(self, context):
        """Drake's CalcGravityGeneralizedForces: tau_g(q) (nv) at context's q,
        on the right-hand side of the equations of motion."""
        tau = np.zeros(max(self.num_velocities(), 1))
        self._context_call(lib.teal_plant_calc_gravity_generalized_forces, context, dptr(tau))
        return tau[:self.num_velocities()]

    def CalcInverseDynamicsRegressor(self, context, known_vdot):
        """Teal-only (pydrake has no such method): the regressor Y, an nv x
        (10 num_bodies) array with Y pi = CalcInverseDynamics(context,
        known_vdot, no external forces) - armature * vdot at the context's q
        and v and the plant's gravity, pi the bodies' inertial parameters
        stacked in body order (ten per body, the world's block zero; see
        GetBodyInertialParameters). Y does not depend on pi, so it is also
        the derivative of the inverse dynamics with respect to pi."""
        nv = self.num_velocities()
        vdot = _core.as_vector(known_vdot, nv, what="CalcInverseDynamicsRegressor known_vdot")
        q, v = self.GetPositions(context), self.GetVelocities(context)
        cols = NUM_INERTIAL_PARAMETERS * self.num_bodies()
        Y = np.zeros(max(nv * cols, 1))
        with _MbData(self) as data:
            check(lib.teal_mb_inverse_dynamics_regressor(self._plant(), data, dptr(q), dptr(v),
                                                         dptr(vdot), dptr(Y)),
                  lib.teal_mb_data_error(data))
        return Y[:nv * cols].reshape(nv, cols)

    def GetBodyInertialParameters(self, context, body):
        """Teal-only: the ten inertial parameters pi of body held in context
        (m, m p_BoBcm_B, then the rotational inertia about Bo in B: Ixx, Iyy,
        Izz, Ixy, Ixz, Iyz), what Drake's RigidBody.CalcSpatialInertiaInBodyFrame
        gives as a SpatialInertia, laid out as the regressor's columns."""
        pi = np.zeros(NUM_INERTIAL_PARAMETERS)
        self._context_call(lib.teal_plant_get_body_inertial_parameters_in_context, context,
                           _index_of(body, RigidBody, "GetBodyInertialParameters"), dptr(pi))
        return pi

    def CalcForwardDynamicsParameterDerivatives(self, context, body):
        """Teal-only (what Drake gets by converting the plant to AutoDiff):
        (vdot, dvdot_dpi) of a continuous plant at context, dvdot_dpi the nv
        x 10 derivative of the accelerations with respect to body's
        inertial parameters (GetBodyInertialParameters), = -M^-1 Y."""
        nv = self.num_velocities()
        vdot = np.zeros(max(nv, 1))
        d = np.zeros(max(nv * NUM_INERTIAL_PARAMETERS, 1))
        self._context_call(lib.teal_plant_calc_forward_dynamics_parameter_derivatives, context,
                           _index_of(body, RigidBody, "CalcForwardDynamicsParameterDerivatives"),
                           dptr(vdot), dptr(d))
        return vdot[:nv], d[:nv * NUM_INERTIAL_PARAMETERS].reshape(nv, NUM_INERTIAL_PARAMETERS)

    def SetJointDefaultArmature(self, joint, armature):
        """Teal's name for Drake's JointActuator.set_default_rotor_inertia
        plus gear ratio (and MJCF's armature): adds armature (kg m^2 or kg,
        >= 0) to the mass matrix's diagonal at each of joint's velocities.
        Before Finalize."""
        self._plant_check(lib.teal_plant_set_joint_default_armature(
            self._plant(), _index_of(joint, Joint, "SetJointDefaultArmature"), float(armature)),
            "SetJointDefaultArmature")

    def GetJointDefaultArmature(self, joint):
        """Teal-only: joint's armature (see SetJointDefaultArmature)."""
        j = _index_of(joint, Joint, "GetJointDefaultArmature")
        value = lib.teal_plant_joint_default_armature(self._plant(), j)
        if value != value:  # NaN: no such joint
            raise _core.TealNotFoundError(-5, f"GetJointDefaultArmature: unknown joint {j}")
        return value

    def GetDiscreteConstraintMultipliers(self, context):
        """Teal-only: the constraint multipliers (num_constraint_rows) of a
        discrete plant's step from context's state (its impulses / h)."""
        lam = np.zeros(max(self.num_constraint_rows(), 1))
        self._context_call(lib.teal_plant_get_discrete_constraint_multipliers, context,
                           dptr(lam))
        return lam[:self.num_constraint_rows()]

    def GetDiscreteConstraintTension(self, context, id):
        """Teal-only: the tension of a compliant distance constraint (finite
        stiffness) in a discrete plant's step from context's state, > 0 when
        it pulls its points together."""
        out = ffi.new("double *")
        self._context_call(lib.teal_plant_get_discrete_constraint_tension, context,
                           _constraint_index(id), out)
        return out[0]

    def CalcMotionForces(self, context):
        """Teal-only (Simbody's calcMotionForces): the generalized force (nv)
        on each prescribed or locked dof that gives its held motion (0 on the
        free dofs)."""
        nv = self.num_velocities()
        tau = np.zeros(max(nv, 1))
        self._context_call(lib.teal_plant_calc_motion_forces, context, dptr(tau), nv)
        return tau[:nv]

    def CalcMotionPower(self, context):
        """Teal-only (Simbody's calcMotionPower): the power the prescribed and
        locked joints' motion forces deliver."""
        out = ffi.new("double *")
        self._context_call(lib.teal_plant_calc_motion_power, context, out)
        return out[0]

    def AddFixedTendon(self, name, joints, coefficients, model_instance=None, **spring):
        """Teal-only (MuJoCo's fixed tendon): L = sum coefficients[i] q of
        joints[i] (revolute or prismatic), with a spring k (L0 - L) - d Ldot
        and a range [lower, upper] held by a penalty; spring takes
        stiffness, damping, spring_length, lower, upper, limit_stiffness,
        limit_damping (the defaults: none). Before Finalize; returns the
        tendon's index for CalcTendonLength and friends."""
        what = "AddFixedTendon"
        idx = [_index_of(j, Joint, what) for j in joints]
        coefs = _core.as_vector(coefficients, len(idx), what=f"{what} coefficients")
        element = self._plant_check(lib.teal_plant_add_fixed_tendon(
            self._plant(), cstr(name), _instance(model_instance), len(idx),
            ffi.new("int[]", idx or [0]), dptr(coefs), _tendon_spring(spring, what)), what)
        return self._tendon_of_element(element)

    def AddSpatialTendon(self, name, frames, model_instance=None, **spring):
        """Teal-only (MuJoCo's spatial tendon without wrapping): L is the
        length of the path of straight segments through the origins of
        frames (two or more Frames or RigidBodies, consecutive ones
        distinct); spring as for AddFixedTendon. Before Finalize."""
        what = "AddSpatialTendon"
        idx = [_parent_frame(self, f, what) for f in frames]
        element = self._plant_check(lib.teal_plant_add_spatial_tendon(
            self._plant(), cstr(name), _instance(model_instance), len(idx),
            ffi.new("int[]", idx or [0]), _tendon_spring(spring, what)), what)
        return self._tendon_of_element(element)

    def _tendon_of_element(self, element):
        for k in range(lib.teal_plant_num_tendons(self._plant())):
            if lib.teal_plant_tendon_element(self._plant(), k) == element:
                return k
        raise _core.TealNotFoundError(-5, f"force element {element} is not a tendon")

    def num_tendons(self):
        """Teal-only: the number of tendons (added or parsed from MJCF)."""
        return lib.teal_plant_num_tendons(self._plant())

    def _tendon_element(self, tendon, what):
        element = lib.teal_plant_tendon_element(self._plant(), int(tendon))
        if element < 0:
            raise _core.TealNotFoundError(
                -5, f"{what}: unknown tendon {tendon} (the plant has {self.num_tendons()})")
        return element

    def GetTendonByName(self, name, model_instance=None):
        """Teal-only: the index of the tendon called name."""
        instance = -1 if model_instance is None else int(model_instance)
        element = lib.teal_plant_find_tendon(self._plant(), cstr(name), instance)
        if element < 0:
            raise _core.TealNotFoundError(-5, f"GetTendonByName: no tendon named '{name}'")
        return self._tendon_of_element(element)

    def GetTendonName(self, tendon):
        """Teal-only: the tendon's name."""
        element = self._tendon_element(tendon, "GetTendonName")
        return ffi.string(lib.teal_plant_tendon_name(self._plant(), element)).decode()

    def GetTendonSpring(self, tendon):
        """Teal-only: the tendon's spring as a dict (stiffness, damping,
        spring_length, lower, upper, limit_stiffness, limit_damping)."""
        spring = ffi.new("teal_tendon_spring *")
        err = _core.new_error()
        check(lib.teal_plant_get_tendon_spring(
            self._plant(), self._tendon_element(tendon, "GetTendonSpring"), spring, err), err)
        return {name: getattr(spring, name) for name in _SPRING_FIELDS}

    def CalcTendonLength(self, context, tendon):
        """Teal-only: (L, Ldot) of the tendon at context's q and v."""
        element = self._tendon_element(tendon, "CalcTendonLength")
        q, v = self.GetPositions(context), self.GetVelocities(context)
        n = max(self.num_bodies(), 1)
        X_WB = ffi.new("teal_transform[]", n)
        V_WB = ffi.new("teal_spatial_vector[]", n)
        check(lib.teal_mb_body_velocities(self._plant(), dptr(q), dptr(v), X_WB, V_WB),
              ffi.NULL, "CalcTendonLength: the body kinematics failed")
        out = ffi.new("double[2]")
        err = _core.new_error()
        check(lib.teal_plant_calc_tendon_length(self._plant(), element, dptr(q), dptr(v), X_WB,
                                                V_WB, out, out + 1, err), err)
        return out[0], out[1]

    def CalcTendonJacobian(self, context, tendon):
        """Teal-only: J_L (nv values) with Ldot = J_L v at context's q."""
        element = self._tendon_element(tendon, "CalcTendonJacobian")
        nv = self.num_velocities()
        q = self.GetPositions(context)
        J = np.zeros(max(nv, 1))
        err = _core.new_error()
        with _MbData(self) as data:
            check(lib.teal_plant_calc_tendon_jacobian(self._plant(), data, element, dptr(q),
                                                      dptr(J), err), err)
        return J[:nv]
