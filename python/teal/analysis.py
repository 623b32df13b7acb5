"""Simulator, logging, linearization and LQR (pydrake.systems.analysis, .controllers)."""
import numpy as np

from teal import _core
from teal._core import _Handle, cstr, dptr, ffi, lib
from teal.framework import Context, System, auto_name, new_owned_system
from teal.leaf import _callback
from teal.primitives import LinearSystem

FIRST_PORT = -2  # TEAL_LINEARIZE_FIRST_PORT: the first vector port, if any
NO_PORT = -1


class SimulatorStatus:
    """How AdvanceTo ended: outcome (0 reached end, 1 terminated), time, message."""

    def __init__(self, status):
        self.outcome = int(status.outcome)
        self.time = status.time
        self.message = ffi.string(status.message).decode()

    def reached_termination(self):
        """True when a handler or the monitor stopped the run."""
        return self.outcome == 1


class Simulator:
    """Advances a system's context through time (Drake's Simulator)."""

    def __init__(self, system, context=None):
        err = _core.new_error()
        ctx_ptr = context._ptr() if context is not None else ffi.NULL
        ptr = lib.teal_simulator_new(system._sys_ptr(), ctx_ptr, err)
        if ptr == ffi.NULL:
            raise _core.error_from(err, -1, "Simulator failed")
        owner = context._h if context is not None else system._keepalive()
        self._h = _Handle(ptr, lib.teal_simulator_free, owner)
        self._system = system
        self._context = context or Context(
            _Handle(lib.teal_simulator_context(ptr), None, self._h), system)
        self._integrator = IntegratorBase(self)
        self._monitor = None

    def get_system(self):
        """The simulated system."""
        return self._system

    def get_context(self):
        """The context being advanced."""
        return self._context

    def get_mutable_context(self):
        """The context being advanced (writable)."""
        return self._context

    def _run(self, fn, *args):
        status = ffi.new("teal_sim_status *")
        _core._pending_callback_errors.clear()
        rc = fn(self._h.get(), *args, status)
        if rc < 0:
            raise _core.make_error(status.code or rc, ffi.string(status.message).decode())
        return SimulatorStatus(status)

    def Initialize(self):
        """Runs initialization events and the start-time publishes."""
        return self._run(lib.teal_simulator_initialize)

    def AdvanceTo(self, boundary_time):
        """Advances to boundary_time (initializing first if needed)."""
        return self._run(lib.teal_simulator_advance_to, float(boundary_time))

    def _set(self, fn, *args):
        ptr = self._h.get()
        _core.check(fn(ptr, *args), lib.teal_simulator_error(ptr))

    def set_target_realtime_rate(self, rate):
        """Paces the run to rate times real time (0: as fast as possible)."""
        self._set(lib.teal_simulator_set_target_realtime_rate, float(rate))

    def set_analytic_jacobian(self, on):
        """Teal: implicit integrators build their Newton matrix from the
        analytic Jacobian composed from the systems' hooks (the default when
        it composes; TealError naming the reason when it does not) or, with
        on False, by forward differences (Drake's kForwardDifference)."""
        self._set(lib.teal_simulator_set_analytic_jacobian, int(bool(on)))

    def uses_analytic_jacobian(self):
        """Teal: True when implicit integrators will use the analytic Jacobian."""
        return bool(lib.teal_simulator_uses_analytic_jacobian(self._h.get()))

    def set_error_projection(self, on):
        """Teal-only (Simbody's error estimate projection): error control judges
        a step by its local error estimate after the constrained plants'
        projection of it (True, the default) or by the raw estimate (False)."""
        self._set(lib.teal_simulator_set_error_projection, int(bool(on)))

    def uses_error_projection(self):
        """Teal-only: True when error control projects the error estimate (the
        setting is on and some system has the projection)."""
        return bool(lib.teal_simulator_uses_error_projection(self._h.get()))

    def set_publish_every_time_step(self, publish):
        """Runs the forced publishes after every step (Drake's flag)."""
        self._set(lib.teal_simulator_set_publish_every_step, int(bool(publish)))

    def get_integrator(self):
        """The integrator's settings (IntegratorBase)."""
        return self._integrator

    get_mutable_integrator = get_integrator

    def set_monitor(self, monitor):
        """monitor(root_context) runs after every step; returning
        EventStatus.ReachedTermination(...) stops the run, Failed(...) or an
        exception fails it."""
        self._monitor = ffi.new_handle((self, monitor))
        self._h.keep.append(self._monitor)  # lives as long as the C simulator
        self._set(lib.teal_simulator_set_monitor, lib.teal_py_monitor, self._monitor)

    def clear_monitor(self):
        """Removes the monitor."""
        self._set(lib.teal_simulator_set_monitor, ffi.NULL, ffi.NULL)
        self._monitor = None

    def _stats(self):
        return lib.teal_simulator_get_stats(self._h.get())

    def get_num_steps_taken(self):
        """Accepted steps since Initialize."""
        return self._stats().steps

    def get_num_publishes(self):
        """Publish events handled since Initialize."""
        return self._stats().publishes

    def get_num_discrete_updates(self):
        """Discrete updates handled since Initialize."""
        return self._stats().discrete_updates

    def get_num_unrestricted_updates(self):
        """Unrestricted updates handled since Initialize."""
        return self._stats().unrestricted_updates

    def get_statistics(self):
        """Every counter of teal_sim_stats as a dict (steps, failed_steps,
        witness_trials, derivative_evals, publishes, discrete_updates,
        unrestricted_updates, smallest_step, largest_step)."""
        st = self._stats()
        return {name: getattr(st, name) for name in _STATS_FIELDS}


_STATS_FIELDS = ("steps", "failed_steps", "witness_trials", "derivative_evals", "publishes",
                 "discrete_updates", "unrestricted_updates", "smallest_step", "largest_step")


@ffi.def_extern()
def teal_py_monitor(sys, ctx, user):
    """C entry point of a simulator's monitor."""
    simulator, monitor = ffi.from_handle(user)
    return _callback(monitor, ctx, simulator.get_context())


# Drake's integration scheme names (ResetIntegratorFromFlags), and Teal's own.
_SCHEMES = {
    "explicit_euler": "explicit_euler",
    "semi_explicit_euler": "semi_explicit_euler",
    "runge_kutta2": "rk2",
    "runge_kutta3": "rk3",
    "runge_kutta4": "rk4",
    "runge_kutta5": "rk45",
    "implicit_euler": "implicit_euler",
    "radau1": "implicit_euler",
    "radau3": "radau3",
    "rk2": "rk2",
    "rk3": "rk3",
    "rk4": "rk4",
    "rk45": "rk45",
}


def GetIntegrationSchemes():
    """The scheme names ResetIntegratorFromFlags accepts."""
    return sorted(_SCHEMES)


def ResetIntegratorFromFlags(simulator, scheme, max_step_size):
    """Chooses the simulator's integrator by Drake's scheme name (see
    GetIntegrationSchemes) and sets its maximum step; returns the integrator."""
    if scheme not in _SCHEMES:
        raise _core.TealInvalidArgumentError(
            -1, f"ResetIntegratorFromFlags: unknown scheme '{scheme}' (known: "
            + ", ".join(GetIntegrationSchemes()) + ")")
    integrator = simulator.get_mutable_integrator()
    integrator._set_type(_SCHEMES[scheme])
    integrator.set_maximum_step_size(max_step_size)
    return integrator


class IntegratorBase:
    """The simulator's integration settings and counters (Drake's
    IntegratorBase, reached through Simulator.get_mutable_integrator())."""

    def __init__(self, simulator):
        self._simulator = simulator
        self._name = "rk3"  # the C simulator's default
        self._accuracy = 1e-4
        self._max_step = 0.1
        self._fixed = False

    def _set_type(self, name):
        self._simulator._set(lib.teal_simulator_set_integrator,
                             getattr(lib, "teal_integrator_" + name))
        self._name = name

    def get_name(self):
        """Teal's name of the method (rk3, rk45, radau3, ...)."""
        integ = lib.teal_simulator_integrator(self._simulator._h.get())
        if integ != ffi.NULL:  # initialized: ask the integrator itself
            return ffi.string(lib.teal_integrator_get_type(integ).name).decode()
        return self._name

    def supports_error_estimation(self):
        """True when the method runs with error control."""
        return getattr(lib, "teal_integrator_" + self._name).error_order > 0

    def set_target_accuracy(self, accuracy):
        """Error-controlled steps meeting accuracy (leaves fixed-step mode)."""
        self._simulator._set(lib.teal_simulator_set_accuracy, float(accuracy))
        self._accuracy, self._fixed = float(accuracy), False

    def get_target_accuracy(self):
        """The accuracy error control aims at."""
        return self._accuracy

    def set_maximum_step_size(self, max_step_size):
        """Largest step (and the fixed step in fixed-step mode)."""
        self._simulator._set(lib.teal_simulator_set_max_step, float(max_step_size))
        self._max_step = float(max_step_size)
        if self._fixed:
            self._simulator._set(lib.teal_simulator_set_fixed_step, self._max_step)

    def get_maximum_step_size(self):
        """The largest step."""
        return self._max_step

    def set_requested_minimum_step_size(self, min_step_size):
        """Smallest step error control may take before the run fails."""
        self._simulator._set(lib.teal_simulator_set_min_step, float(min_step_size))

    def set_fixed_step_mode(self, flag):
        """True: steps of the maximum step size, without error control."""
        if flag:
            self._simulator._set(lib.teal_simulator_set_fixed_step, self._max_step)
        else:
            self._simulator._set(lib.teal_simulator_set_accuracy, self._accuracy)
        self._fixed = bool(flag)

    def get_fixed_step_mode(self):
        """True in fixed-step mode."""
        return self._fixed

    def get_num_steps_taken(self):
        """Accepted steps since the simulator's Initialize."""
        return self._simulator._stats().steps

    def get_num_derivative_evaluations(self):
        """Evaluations of the time derivatives since Initialize."""
        return self._simulator._stats().derivative_evals

    def get_num_step_shrinkages_from_error_control(self):
        """Steps rejected by error control (or a failed Newton iteration)."""
        return self._simulator._stats().failed_steps

    def get_smallest_adapted_step_size_taken(self):
        """Smallest accepted step."""
        return self._simulator._stats().smallest_step

    def get_largest_step_size_taken(self):
        """Largest accepted step."""
        return self._simulator._stats().largest_step


class VectorLog:
    """The samples a VectorLogSink recorded in one context (Drake's VectorLog)."""

    def __init__(self, sink, context):
        self._sink = sink
        self._context = context

    def _log(self):
        log = lib.teal_vector_log_sink_log(self._sink._sys_ptr(), self._context._ptr())
        if log == ffi.NULL:
            raise _core.error_from(lib.teal_context_error(self._context._ptr()), -1,
                                   "VectorLog: not the logger's context")
        return log

    def num_samples(self):
        """Number of samples recorded."""
        return self._log().count

    def sample_times(self):
        """The sample times, a numpy array (a copy: the log may grow and move)."""
        log = self._log()
        return _core.from_doubles(log.times, log.count)

    def data(self):
        """The samples as a (size x num_samples) numpy array, one column per sample."""
        log = self._log()
        return _core.from_doubles(log.data, log.count * log.size).reshape(log.count, log.size).T

    def Clear(self):
        """Drops every sample."""
        _core.check(lib.teal_vector_log_sink_clear(self._sink._sys_ptr(), self._context._ptr()),
                    lib.teal_context_error(self._context._ptr()))


class VectorLogSink(System):
    """Records its vector input (Drake's VectorLogSink)."""

    def __init__(self, input_size, publish_period=0.0, name=None):
        err = _core.new_error()
        ptr = lib.teal_vector_log_sink_new(cstr(name or auto_name("logger")), int(input_size),
                                           float(publish_period), err)
        super().__init__(new_owned_system(ptr, err, "VectorLogSink"))

    def GetLog(self, context):
        """The log held in the sink's own context."""
        return VectorLog(self, context)

    def FindLog(self, root_context):
        """The log held in a diagram's root context."""
        return VectorLog(self, self.GetMyContextFromRoot(root_context))

    FindMutableLog = FindLog
    GetMutableLog = GetLog


def LogVectorOutput(src, builder, publish_period=0.0):
    """Adds a VectorLogSink fed by the output port src (every step when the
    period is 0, else every publish_period seconds); returns the sink."""
    sink = builder.AddSystem(VectorLogSink(src.size(), publish_period))
    builder.Connect(src, sink.get_input_port())
    return sink


def _linearize_options(input_port_index, output_port_index, equilibrium_check_tolerance):
    opts = ffi.new("teal_linearize_options *")
    lib.teal_linearize_options_init(opts)
    opts.input_port = FIRST_PORT if input_port_index is None else int(input_port_index)
    opts.output_port = FIRST_PORT if output_port_index is None else int(output_port_index)
    if equilibrium_check_tolerance is not None:
        opts.equilibrium_tolerance = float(equilibrium_check_tolerance)
    return opts


def Linearize(system, context, input_port_index=None, output_port_index=None,
              equilibrium_check_tolerance=None):
    """The linearization of system about context (an equilibrium), as a
    LinearSystem; ports default to the first vector ports (NO_PORT: none)."""
    opts = _linearize_options(input_port_index, output_port_index, equilibrium_check_tolerance)
    err = _core.new_error()
    ptr = lib.teal_linearize(system._sys_ptr(), context._ptr(), opts, err)
    return LinearSystem(None, None, None, None, _handle=new_owned_system(ptr, err, "Linearize"))


def _lqr_matrices(A, B, Q, R, N, discrete):
    a = _core.as_matrix(A, what="LQR A")
    n = a.shape[0]
    b = _core.as_matrix(B, n, what="LQR B")
    m = b.shape[1]
    q = _core.as_matrix(Q, n, n, what="LQR Q")
    r = _core.as_matrix(R, m, m, what="LQR R")
    nn = _core.as_matrix(N, n, m, what="LQR N") if N is not None else None
    K, S = np.empty((m, n)), np.empty((n, n))
    err = _core.new_error()
    _core.check(lib.teal_lqr(dptr(a), dptr(b), dptr(q), dptr(r),
                             dptr(nn) if nn is not None else ffi.NULL, n, m, int(discrete),
                             dptr(K), dptr(S), err), err)
    return K, S


def _lqr_system(system, context, Q, R, N, input_port_index):
    nx = system.num_continuous_states() + system.num_discrete_states()
    q = _core.as_matrix(Q, nx, nx, what="LQR Q")
    port = system.get_input_port(input_port_index)
    m = port.size()
    r = _core.as_matrix(R, m, m, what="LQR R")
    nn = _core.as_matrix(N, nx, m, what="LQR N") if N is not None else None
    err = _core.new_error()
    ptr = lib.teal_lqr_controller_new(cstr(auto_name("lqr")), system._sys_ptr(), context._ptr(),
                                      port.get_index(), dptr(q), dptr(r),
                                      dptr(nn) if nn is not None else ffi.NULL, ffi.NULL,
                                      ffi.NULL, err)
    return LinearSystem(None, None, None, None, _handle=new_owned_system(ptr, err, "LQR"))


def LinearQuadraticRegulator(*args, **kwargs):
    """Drake's two forms: (A, B, Q, R, N=None) returns (K, S) for a continuous
    system; (system, context, Q, R, N=None, input_port_index=0) returns the
    controller u = u0 - K (x - x0) as an affine LinearSystem (D() is -K)."""
    if args and isinstance(args[0], System):
        names = ("system", "context", "Q", "R", "N", "input_port_index")
        kw = dict(zip(names, args), **kwargs)
        return _lqr_system(kw["system"], kw["context"], kw["Q"], kw["R"], kw.get("N"),
                           kw.get("input_port_index", 0))
    kw = dict(zip(("A", "B", "Q", "R", "N"), args), **kwargs)
    return _lqr_matrices(kw["A"], kw["B"], kw["Q"], kw["R"], kw.get("N"), False)


def DiscreteTimeLinearQuadraticRegulator(A, B, Q, R):
    """(K, S) of the discrete-time LQR x[k+1] = A x + B u."""
    return _lqr_matrices(A, B, Q, R, None, True)
