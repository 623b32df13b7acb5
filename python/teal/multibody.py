"""MultibodyPlant and AddMultibodyPlantSceneGraph (pydrake.multibody); Parser
lives in teal.parsing, bodies, joints and constraints in teal.multibody_elements."""
import numpy as np

from teal import _core, abstract
from teal._core import _Handle, check, cstr, dptr, ffi, lib
from teal.framework import OutputPort, System, auto_name, new_owned_system
from teal.geometry import SceneGraph, new_scene_graph  # noqa: F401 (teal.multibody.SceneGraph)
from teal.multibody_elements import PlantElementsMixin
from teal.plant_geometry import PlantGeometryMixin
from teal.contact_models import HydroelasticContactInfo, PlantContactSettingsMixin
from teal.plant_dynamics import PlantDynamicsMixin
from teal.plant_frames import PlantFramesMixin
from teal.parsing import PackageMap, Parser  # noqa: F401 (teal.multibody.Parser)


class MultibodyPlant(PlantElementsMixin, PlantGeometryMixin, PlantContactSettingsMixin,
                     PlantDynamicsMixin, PlantFramesMixin, System):
    """A multibody plant (Drake's MultibodyPlant); time_step 0 is continuous."""

    def __init__(self, time_step):
        err = _core.new_error()
        ptr = lib.teal_plant_new(float(time_step), err)
        if ptr == ffi.NULL:
            raise _core.error_from(err, -1, "MultibodyPlant failed")
        super().__init__(_Handle(ptr, lib.teal_plant_free))

    def _plant(self):
        return self._h.get()

    def _sys_ptr(self):
        sys = lib.teal_plant_system(self._plant())
        if sys == ffi.NULL:
            raise _core.TealStateError(-15, "MultibodyPlant: call Finalize() first")
        return sys

    def _raise_plant_error(self, what):
        raise _core.error_from(lib.teal_plant_error(self._plant()), -1, what)

    def Finalize(self):
        """Ends model building; the plant becomes a system with ports."""
        if lib.teal_plant_finalize(self._plant()) < 0:
            self._raise_plant_error("Finalize failed")

    def is_finalized(self):
        """True after Finalize."""
        return bool(lib.teal_plant_is_finalized(self._plant()))

    def time_step(self):
        """The discrete step (0 for a continuous plant)."""
        return lib.teal_plant_time_step(self._plant())

    def num_positions(self):
        """nq."""
        return lib.teal_plant_nq(self._plant())

    def num_velocities(self):
        """nv."""
        return lib.teal_plant_nv(self._plant())

    def num_actuators(self):
        """Number of actuators (the actuation input's size)."""
        return lib.teal_plant_num_actuators(self._plant())

    def get_actuation_input_port(self):
        """The whole-plant actuation input u."""
        return self.get_input_port(lib.teal_plant_actuation_input_port(self._plant()))

    def MakeActuationMatrix(self):
        """B (nv x nu) with the actuation's generalized force B u (Drake's
        MakeActuationMatrix); B[v][a] is actuator a's input gain (1 unless
        set, see actuator_input_gain)."""
        nv, nu = self.num_velocities(), self.num_actuators()
        out = _core.as_vector([0.0] * (nv * nu + 1))
        check(lib.teal_plant_make_actuation_matrix(self._plant(), dptr(out)), ffi.NULL,
              "MakeActuationMatrix: call Finalize() first")
        return out[:nv * nu].reshape(nv, nu)

    def actuator_input_gain(self, actuator):
        """Teal's input gain of actuator (index): its joint force is gain * u
        (an MJCF motor's gear). Not in pydrake: Drake's u is the joint effort
        (gain 1), and its gear ratio only scales the reflected inertia."""
        gain = lib.teal_plant_actuator_input_gain(self._plant(), int(actuator))
        if gain != gain:  # NaN: no such actuator
            raise _core.TealNotFoundError(-5, f"actuator_input_gain: unknown actuator {actuator}")
        return gain

    def set_actuator_input_gain(self, actuator, gain):
        """Sets Teal's input gain of actuator before Finalize (nonzero, finite;
        see actuator_input_gain). Not in pydrake."""
        check(lib.teal_plant_set_actuator_input_gain(self._plant(), int(actuator), float(gain)),
              lib.teal_plant_error(self._plant()))

    def get_applied_generalized_force_input_port(self):
        """The applied generalized force input (nv)."""
        return self.get_input_port(
            lib.teal_plant_applied_generalized_force_input_port(self._plant()))

    def get_state_output_port(self):
        """The state output [q; v]."""
        return self.get_output_port(lib.teal_plant_state_output_port(self._plant()))

    def get_contact_results_output_port(self):
        """The contact results output; its Eval returns a ContactResults
        (empty without a scene graph)."""
        index = lib.teal_plant_contact_results_output_port(self._plant())
        return _ContactResultsPort(self, self._port_index(index, self.num_output_ports(),
                                                          "output"))

    def _get(self, fn, context, n):
        out = _core.as_vector([0.0] * n)
        check(fn(self._plant(), context._ptr(), dptr(out), n),
              lib.teal_context_error(context._ptr()))
        return out

    def _set(self, fn, context, values, n, what):
        v = _core.as_vector(values, n, what=f"{what} (the plant has {n})")
        check(fn(self._plant(), context._ptr(), dptr(v), n),
              lib.teal_context_error(context._ptr()))

    def GetPositions(self, context):
        """q from context (the plant's or any context above it)."""
        return self._get(lib.teal_plant_get_positions, context, self.num_positions())

    def SetPositions(self, context, q):
        """Writes q into context."""
        self._set(lib.teal_plant_set_positions, context, q, self.num_positions(), "SetPositions")

    def GetVelocities(self, context):
        """v from context."""
        return self._get(lib.teal_plant_get_velocities, context, self.num_velocities())

    def SetVelocities(self, context, v):
        """Writes v into context."""
        self._set(lib.teal_plant_set_velocities, context, v, self.num_velocities(),
                  "SetVelocities")

    def GetPositionsAndVelocities(self, context):
        """x = [q; v] from context."""
        return self._get(lib.teal_plant_get_state, context,
                         self.num_positions() + self.num_velocities())

    def SetPositionsAndVelocities(self, context, x):
        """Writes x = [q; v] into context."""
        self._set(lib.teal_plant_set_state, context, x,
                  self.num_positions() + self.num_velocities(), "SetPositionsAndVelocities")


def _vec3(v):
    return np.array([v.v[0], v.v[1], v.v[2]])


class PenetrationAsPointPair:
    """The geometry of one contact: depth and the normal from B into A."""

    def __init__(self, info):
        self.depth = info.depth
        self.nhat_BA_W = _vec3(info.nhat_BA_W)
        self.p_WC = _vec3(info.p_WC)
        self.geometry_A, self.geometry_B = info.geometry_A, info.geometry_B


class PointPairContactInfo:
    """One point contact (Drake's PointPairContactInfo), copied out of the context."""

    def __init__(self, info):
        self._bodies = (info.body_A, info.body_B)
        self._force = _vec3(info.f_Bc_W)
        self._point = _vec3(info.p_WC)
        self._speeds = (info.separation_speed, info.slip_speed)
        self._pair = PenetrationAsPointPair(info)

    def bodyA_index(self):
        """Plant body index of A."""
        return self._bodies[0]

    def bodyB_index(self):
        """Plant body index of B."""
        return self._bodies[1]

    def contact_force(self):
        """Force on B at the contact point, in world (the opposite acts on A)."""
        return self._force.copy()

    def contact_point(self):
        """The contact point in world."""
        return self._point.copy()

    def separation_speed(self):
        """Rate of separation (> 0 when separating)."""
        return self._speeds[0]

    def slip_speed(self):
        """Tangential slip speed."""
        return self._speeds[1]

    def point_pair(self):
        """Depth and normal."""
        return self._pair


class ContactResults:
    """The contacts of a plant in one context (Drake's ContactResults)."""

    def __init__(self, results):
        self._infos = [PointPairContactInfo(results.c[i]) for i in range(results.n)]
        self._hydro = [HydroelasticContactInfo(results.hydroelastic[i])
                       for i in range(results.num_hydroelastic)]

    def num_point_pair_contacts(self):
        """Number of point contacts."""
        return len(self._infos)

    def point_pair_contact_info(self, i):
        """Contact i."""
        return self._infos[i]

    def num_hydroelastic_contacts(self):
        """Number of hydroelastic contacts."""
        return len(self._hydro)

    def hydroelastic_contact_info(self, i):
        """Hydroelastic contact i (a HydroelasticContactInfo)."""
        return self._hydro[i]


abstract.register_c_reader(
    "teal_contact_results",
    lambda ptr: ContactResults(ffi.cast("const teal_contact_results *", ptr)[0]))


class _ContactResultsPort(OutputPort):
    """The plant's contact_results port: Eval gives a ContactResults (also
    when evaluated through a diagram's exported port, by the C reader)."""

    def Eval(self, context):
        """The contact results in context (the plant's or one above it), copied."""
        out = ffi.new("const teal_contact_results **")
        ctx = context._ptr()
        check(lib.teal_plant_eval_contact_results(self._system._plant(), ctx, out),
              lib.teal_context_error(ctx))
        return ContactResults(out[0])

    def size(self):
        """0: the port carries an abstract value."""
        return 0


class InverseDynamicsController(System):
    """tau = M(q) (vd* + kp (q_d - q) + ki int + kd (v_d - v)) + c(q, v) - tau_g
    for a plant with nq == nv (Drake's InverseDynamicsController). The plant
    is borrowed: it stays alive as long as the controller."""

    def __init__(self, robot, kp, ki, kd, has_reference_acceleration, name=None):
        n = robot.num_velocities()
        p = _core.as_vector(kp, n, what="InverseDynamicsController kp")
        i = _core.as_vector(ki, n, what="InverseDynamicsController ki")
        d = _core.as_vector(kd, n, what="InverseDynamicsController kd")
        err = _core.new_error()
        ptr = lib.teal_inverse_dynamics_controller_new(
            cstr(name or auto_name("inverse_dynamics_controller")), robot._plant(), dptr(p),
            dptr(i), dptr(d), n, int(bool(has_reference_acceleration)), err)
        super().__init__(new_owned_system(ptr, err, "InverseDynamicsController"))
        self._h.depend_on(robot._keepalive())

    def get_input_port_estimated_state(self):
        """Input [q; v]."""
        return self.GetInputPort("estimated_state")

    def get_input_port_desired_state(self):
        """Input [q_d; v_d]."""
        return self.GetInputPort("desired_state")

    def get_input_port_desired_acceleration(self):
        """Input vd_d (with has_reference_acceleration)."""
        return self.GetInputPort("desired_acceleration")

    def get_output_port_control(self):
        """Output: the generalized force (Teal's port "generalized_force")."""
        return self.GetOutputPort("generalized_force")


def AddMultibodyPlantSceneGraph(builder, time_step=0.0, plant=None):
    """Adds a plant (a new one with time_step, or plant) and a scene graph to
    builder and wires them; returns (plant, scene_graph) as Drake does. The
    builder owns both from then on."""
    if isinstance(time_step, MultibodyPlant):
        plant, time_step = time_step, None
    plant = plant or MultibodyPlant(time_step)
    b = builder._ptr()
    had_error = lib.teal_builder_error(b).code != 0
    finalized = plant.is_finalized()
    err = _core.new_error()
    sg = lib.teal_add_plant_and_scene_graph(b, plant._plant(), err)
    if sg == ffi.NULL:
        # a finalized plant goes to the builder even on failure, unless the
        # call refused it up front (see plant_scene_graph.h)
        if finalized and not had_error and err.code not in (-1, -15):
            plant._h.kill("this plant was freed when AddMultibodyPlantSceneGraph failed")
        raise _core.error_from(err, -1, "AddMultibodyPlantSceneGraph failed")
    plant._h.give_to(builder._h)
    builder._systems.append(plant)
    builder._scene_graph = new_scene_graph(sg, builder._h)
    return plant, builder._scene_graph
