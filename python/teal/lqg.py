"""The LQG compensator (systems/controllers/lqg.h): Teal's own helper, with
no pydrake equivalent (in Drake one wires a LinearQuadraticRegulator to a
SteadyStateKalmanFilter by hand)."""
import numpy as np

from teal import _core
from teal._core import cstr, dptr, lib
from teal.framework import System, auto_name, new_owned_system


class LinearQuadraticGaussianController(System):
    """An LQR acting on a steady-state Kalman filter's estimate, both designed
    for system linearized about the operating point in context (its state,
    and the input input_port_index fixed there): costs Q, R as
    LinearQuadraticRegulator, noise covariances W (process), V (measurement)
    as SteadyStateKalmanFilter, for the measured vector output
    output_port_index. Input "measurement", outputs "control" and
    "estimated_state"; K() and L() are the two gains. The compensator copies
    what it needs: system may be freed afterwards."""

    def __init__(self, system, context, Q, R, W, V, input_port_index=0, output_port_index=0,
                 name=None):
        nu = system.get_input_port(input_port_index).size()
        ny = system.get_output_port(output_port_index).size()
        q = _core.as_matrix(Q, what="LQG Q")
        nx = q.shape[0]
        r = _core.as_matrix(R, nu, nu, what="LQG R")
        w = _core.as_matrix(W, nx, nx, what="LQG W")
        v = _core.as_matrix(V, ny, ny, what="LQG V")
        self._K, self._L = np.empty((nu, nx)), np.empty((nx, ny))
        err = _core.new_error()
        ptr = lib.teal_lqg_controller_from_system(
            cstr(name or auto_name("lqg")), system._sys_ptr(), context._ptr(),
            int(input_port_index), int(output_port_index), dptr(q), dptr(r), dptr(w), dptr(v),
            dptr(self._K), dptr(self._L), err)
        super().__init__(new_owned_system(ptr, err, "LinearQuadraticGaussianController"))

    def K(self):
        """The LQR gain (nu x nx)."""
        return self._K.copy()

    def L(self):
        """The Kalman filter's gain (nx x ny)."""
        return self._L.copy()

    def get_measurement_input_port(self):
        """Input y."""
        return self.GetInputPort("measurement")

    def get_control_output_port(self):
        """Output u."""
        return self.GetOutputPort("control")

    def get_estimated_state_output_port(self):
        """Output x̂."""
        return self.GetOutputPort("estimated_state")
