"""State estimators (pydrake.systems.estimators): the Luenberger observer and
the steady-state Kalman filters (systems/estimators)."""
import numpy as np

from teal import _core
from teal._core import cstr, dptr, lib
from teal.framework import System, auto_name, new_owned_system


def _kalman_gain(A, C, W, V, discrete):
    a = _core.as_matrix(A, what="Kalman A")
    nx = a.shape[0]
    c = _core.as_matrix(np.reshape(C, (-1, nx)), None, nx, what="Kalman C")
    ny = c.shape[0]
    w = _core.as_matrix(W, nx, nx, what="Kalman W")
    v = _core.as_matrix(V, ny, ny, what="Kalman V")
    L, P = np.empty((nx, ny)), np.empty((nx, nx))
    err = _core.new_error()
    _core.check(lib.teal_steady_state_kalman_gain(dptr(a), dptr(c), dptr(w), dptr(v), nx, ny,
                                                  int(discrete), dptr(L), dptr(P), err), err)
    return L


class LuenbergerObserver(System):
    """x̂' = f(x̂, u) + L (y - g(x̂, u)) for observed_system about the
    operating point in observed_system_context (Drake's LuenbergerObserver).
    Inputs "observed_system_output" and "observed_system_input", output
    "estimated_state"; the observer keeps observed_system alive."""

    def __init__(self, observed_system, observed_system_context, observer_gain, name=None,
                 _gain_name="LuenbergerObserver"):
        L = _core.as_matrix(observer_gain, what=f"{_gain_name} gain")
        err = _core.new_error()
        ptr = lib.teal_luenberger_observer_new(cstr(name or auto_name("observer")),
                                               observed_system._sys_ptr(),
                                               observed_system_context._ptr(), dptr(L), err)
        super().__init__(new_owned_system(ptr, err, _gain_name))
        self._h.depend_on(observed_system._keepalive())  # borrowed by the C observer
        self._shape = L.shape

    def L(self):
        """The observer gain (nx x ny)."""
        out = np.empty(self._shape)
        _core.check(lib.teal_luenberger_observer_gain(self._sys_ptr(), dptr(out), out.size))
        return out

    def get_observed_system_output_input_port(self):
        """Input y."""
        return self.GetInputPort("observed_system_output")

    def get_observed_system_input_input_port(self):
        """Input u."""
        return self.GetInputPort("observed_system_input")

    def get_estimated_state_output_port(self):
        """Output x̂."""
        return self.GetOutputPort("estimated_state")


def SteadyStateKalmanFilter(*args, **kwargs):
    """Drake's two forms: (A, C, W, V) returns the gain L of the continuous
    filter; (system, context, W, V) returns the filter, a LuenbergerObserver
    with that gain about the operating point in context."""
    if args and isinstance(args[0], System):
        kw = dict(zip(("system", "context", "W", "V"), args), **kwargs)
        system, context = kw["system"], kw["context"]
        nx = system.num_continuous_states() + system.num_discrete_states()
        ny = system.get_output_port(0).size()
        w = _core.as_matrix(kw["W"], nx, nx, what="Kalman W")
        v = _core.as_matrix(kw["V"], ny, ny, what="Kalman V")
        err = _core.new_error()
        ptr = lib.teal_steady_state_kalman_filter_new(cstr(auto_name("kalman_filter")),
                                                      system._sys_ptr(), context._ptr(),
                                                      dptr(w), dptr(v), err)
        observer = LuenbergerObserver.__new__(LuenbergerObserver)
        System.__init__(observer, new_owned_system(ptr, err, "SteadyStateKalmanFilter"))
        observer._h.depend_on(system._keepalive())
        observer._shape = (nx, ny)
        return observer
    kw = dict(zip(("A", "C", "W", "V"), args), **kwargs)
    return _kalman_gain(kw["A"], kw["C"], kw["W"], kw["V"], False)


def DiscreteTimeSteadyStateKalmanFilter(A, C, W, V):
    """The gain L of the discrete-time steady-state Kalman filter."""
    return _kalman_gain(A, C, W, V, True)
