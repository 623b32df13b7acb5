"""Primitive systems and controllers (pydrake.systems.primitives, .controllers)."""
import numpy as np

from teal import _core
from teal._core import cstr, dptr, ffi, lib
from teal.framework import System, auto_name, new_owned_system


class ConstantVectorSource(System):
    """Outputs a constant vector (Drake's ConstantVectorSource)."""

    def __init__(self, source_value, name=None):
        v = _core.as_vector(source_value, what="ConstantVectorSource value")
        err = _core.new_error()
        name = name or auto_name("constant_vector_source")
        ptr = lib.teal_constant_vector_source_new(cstr(name), dptr(v), v.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "ConstantVectorSource"))


class Gain(System):
    """y = k u for a scalar k over size signals (Drake's Gain)."""

    def __init__(self, k, size, name=None):
        if np.ndim(k) != 0:
            raise _core.TealInvalidArgumentError(-1, "Gain: k must be a scalar")
        err = _core.new_error()
        ptr = lib.teal_gain_new(cstr(name or auto_name("gain")), float(k), int(size), err)
        super().__init__(new_owned_system(ptr, err, "Gain"))


class Adder(System):
    """Sums num_inputs vectors of size entries (Drake's Adder)."""

    def __init__(self, num_inputs, size, name=None):
        err = _core.new_error()
        ptr = lib.teal_adder_new(cstr(name or auto_name("adder")), int(num_inputs), int(size),
                                 err)
        super().__init__(new_owned_system(ptr, err, "Adder"))


class Saturation(System):
    """Clamps u to [min_value, max_value] entrywise (Drake's Saturation)."""

    def __init__(self, min_value, max_value, name=None):
        lo = _core.as_vector(min_value, what="Saturation min_value")
        hi = _core.as_vector(max_value, lo.shape[0], what="Saturation max_value")
        err = _core.new_error()
        ptr = lib.teal_saturation_new(cstr(name or auto_name("saturation")), dptr(lo), dptr(hi),
                                      lo.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "Saturation"))


class PidController(System):
    """PID on [q; v] error (Drake's PidController(kp, ki, kd))."""

    def __init__(self, kp, ki, kd, name=None):
        p = _core.as_vector(kp, what="PidController kp")
        i = _core.as_vector(ki, p.shape[0], what="PidController ki")
        d = _core.as_vector(kd, p.shape[0], what="PidController kd")
        err = _core.new_error()
        ptr = lib.teal_pid_new(cstr(name or auto_name("pid")), dptr(p), dptr(i), dptr(d),
                               p.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "PidController"))

    def get_input_port_estimated_state(self):
        """Input [q; v]."""
        return self.GetInputPort("estimated_state")

    def get_input_port_desired_state(self):
        """Input [q_d; v_d]."""
        return self.GetInputPort("desired_state")

    def get_output_port_control(self):
        """Output u."""
        return self.GetOutputPort("control")


class ZeroOrderHold(System):
    """Samples its input every period_sec and holds it (Drake's ZeroOrderHold)."""

    def __init__(self, period_sec, vector_size, offset_sec=0.0, name=None):
        err = _core.new_error()
        ptr = lib.teal_zero_order_hold_new(cstr(name or auto_name("zero_order_hold")),
                                           float(period_sec), float(offset_sec),
                                           int(vector_size), err)
        super().__init__(new_owned_system(ptr, err, "ZeroOrderHold"))


class LinearSystem(System):
    """x' = A x + B u, y = C x + D u, or its discrete form (Drake's LinearSystem).

    Also wraps the affine systems Linearize and LinearQuadraticRegulator return;
    A(), B(), C(), D() return numpy copies of their matrices."""

    def __init__(self, A, B, C, D, time_period=0.0, name=None, _handle=None):
        if _handle is None:
            a = _core.as_matrix(A, what="LinearSystem A")
            nx = a.shape[0]
            b = _core.as_matrix(np.reshape(B, (nx, -1)), nx, what="LinearSystem B")
            nu = b.shape[1]
            c = _core.as_matrix(np.reshape(C, (-1, nx)), None, nx, what="LinearSystem C")
            d = _core.as_matrix(D, c.shape[0], nu, what="LinearSystem D")
            err = _core.new_error()
            ptr = lib.teal_linear_system_new(cstr(name or auto_name("linear_system")), dptr(a),
                                             dptr(b), dptr(c), dptr(d), nx, nu, c.shape[0],
                                             float(time_period), err)
            _handle = new_owned_system(ptr, err, "LinearSystem")
        super().__init__(_handle)

    def _matrices(self):
        m = ffi.new("teal_linear_system_matrices *")
        _core.check(lib.teal_linear_system_get(self._sys_ptr(), m), ffi.NULL,
                    f"system '{self.get_name()}' is not a linear system")
        return m

    def _matrix(self, field, rows, cols):
        m = self._matrices()
        return _core.from_doubles(getattr(m, field), getattr(m, rows) * getattr(m, cols)).reshape(
            getattr(m, rows), getattr(m, cols))

    def A(self):
        """State matrix (nx x nx)."""
        return self._matrix("A", "nx", "nx")

    def B(self):
        """Input matrix (nx x nu)."""
        return self._matrix("B", "nx", "nu")

    def C(self):
        """Output matrix (ny x nx)."""
        return self._matrix("C", "ny", "nx")

    def D(self):
        """Feedthrough matrix (ny x nu)."""
        return self._matrix("D", "ny", "nu")

    def time_period(self):
        """0 for a continuous system, else the discrete period."""
        return self._matrices().time_period
