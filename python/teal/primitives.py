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
    """y = k u: Gain(k, size) for a scalar k over size signals, or Gain(D)
    for a matrix D (Drake's two constructors; the matrix form is a MatrixGain)."""

    def __init__(self, k, size=None, name=None):
        err = _core.new_error()
        if np.ndim(k) == 0:
            if size is None:
                raise _core.TealInvalidArgumentError(-1, "Gain(k, size): size is missing")
            ptr = lib.teal_gain_new(cstr(name or auto_name("gain")), float(k), int(size), err)
        else:
            if size is not None:
                raise _core.TealInvalidArgumentError(-1, "Gain(D) takes no size: D gives it")
            ptr = _matrix_gain(k, name or auto_name("gain"), err)
        super().__init__(new_owned_system(ptr, err, "Gain"))


def _matrix_gain(D, name, err):
    d = _core.as_matrix(D, what="Gain D")
    return lib.teal_matrix_gain_new(cstr(name), dptr(d), d.shape[0], d.shape[1], err)


class MatrixGain(System):
    """y = D u (Drake's MatrixGain(D)); MatrixGain(size) is the identity."""

    def __init__(self, D, name=None):
        d = np.eye(int(D)) if np.ndim(D) == 0 else D
        err = _core.new_error()
        super().__init__(new_owned_system(_matrix_gain(d, name or auto_name("matrix_gain"), err),
                                          err, "MatrixGain"))


class Multiplexer(System):
    """Stacks its inputs into one vector: Multiplexer(num_scalar_inputs) or
    Multiplexer(input_sizes) (Drake's Multiplexer)."""

    def __init__(self, input_sizes, name=None):
        sizes = [1] * int(input_sizes) if np.ndim(input_sizes) == 0 else list(input_sizes)
        err = _core.new_error()
        ptr = lib.teal_multiplexer_new(cstr(name or auto_name("multiplexer")),
                                       ffi.new("int[]", [int(n) for n in sizes]), len(sizes), err)
        super().__init__(new_owned_system(ptr, err, "Multiplexer"))


class Demultiplexer(System):
    """Splits its input: Demultiplexer(size, output_ports_size=1) into equal
    parts, or Demultiplexer(output_ports_sizes) (Drake's Demultiplexer)."""

    def __init__(self, size, output_ports_size=1, name=None):
        if np.ndim(size) == 0:
            if int(output_ports_size) <= 0 or int(size) % int(output_ports_size):
                raise _core.TealInvalidArgumentError(
                    -1, f"Demultiplexer: size {size} is not a multiple of "
                    f"output_ports_size {output_ports_size}")
            sizes = [int(output_ports_size)] * (int(size) // int(output_ports_size))
        else:
            sizes = [int(n) for n in size]
        err = _core.new_error()
        ptr = lib.teal_demultiplexer_new(cstr(name or auto_name("demultiplexer")),
                                         ffi.new("int[]", sizes), len(sizes), err)
        super().__init__(new_owned_system(ptr, err, "Demultiplexer"))


class Integrator(System):
    """x' = u, y = x: Integrator(size) starting at zero, or
    Integrator(initial_value) (Drake's Integrator)."""

    def __init__(self, size, name=None):
        x0 = np.zeros(int(size)) if np.ndim(size) == 0 else _core.as_vector(
            size, what="Integrator initial_value")
        err = _core.new_error()
        ptr = lib.teal_integrator_system_new_with_initial(cstr(name or auto_name("integrator")),
                                                          dptr(x0), x0.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "Integrator"))


class PassThrough(System):
    """y = u (Drake's PassThrough(vector_size), or PassThrough(value) whose
    size is taken from value)."""

    def __init__(self, vector_size, name=None):
        n = int(vector_size) if np.ndim(vector_size) == 0 else np.size(vector_size)
        err = _core.new_error()
        ptr = lib.teal_pass_through_new(cstr(name or auto_name("pass_through")), n, err)
        super().__init__(new_owned_system(ptr, err, "PassThrough"))


class FirstOrderLowPassFilter(System):
    """tau z' = u - z, y = z: FirstOrderLowPassFilter(time_constant, size=1)
    or FirstOrderLowPassFilter(time_constants) (Drake's)."""

    def __init__(self, time_constant, size=1, name=None):
        taus = np.full(int(size), float(time_constant)) if np.ndim(time_constant) == 0 else \
            _core.as_vector(time_constant, what="FirstOrderLowPassFilter time_constants")
        err = _core.new_error()
        ptr = lib.teal_first_order_low_pass_filter_new(
            cstr(name or auto_name("low_pass_filter")), dptr(taus), taus.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "FirstOrderLowPassFilter"))


class PiecewisePolynomial:
    """A trajectory (Drake's PiecewisePolynomial): make it with
    ZeroOrderHold or FirstOrderHold(breaks, samples), samples a matrix with
    one column per break as in Drake."""

    def __init__(self, handle, rows, shape=None):
        self._h = handle
        self._rows = rows
        self._shape = shape or (rows, 1)  # a matrix-valued trajectory stores it row-major

    @classmethod
    def _copy_of(cls, ptr, shape):
        """A PiecewisePolynomial owning a copy of the C trajectory ptr."""
        err = _core.new_error()
        copy = lib.teal_piecewise_polynomial_copy(ptr, err)
        if copy == ffi.NULL:
            raise _core.error_from(err, -1, "PiecewisePolynomial copy failed")
        return cls(_core._Handle(copy, lib.teal_piecewise_polynomial_free),
                   lib.teal_piecewise_polynomial_rows(copy), shape)

    @classmethod
    def _make(cls, fn, breaks, samples, what):
        b = _core.as_vector(breaks, what=f"{what} breaks")
        y = _core.as_matrix(np.reshape(samples, (-1, b.shape[0])) if np.ndim(samples) == 1
                            else samples, None, b.shape[0], what=f"{what} samples")
        ys = np.ascontiguousarray(y.T)  # Teal stores each break's sample contiguously
        err = _core.new_error()
        ptr = fn(dptr(b), dptr(ys), b.shape[0], y.shape[0], err)
        if ptr == ffi.NULL:
            raise _core.error_from(err, -1, what)
        return cls(_core._Handle(ptr, lib.teal_piecewise_polynomial_free), y.shape[0])

    @classmethod
    def ZeroOrderHold(cls, breaks, samples):
        """Piecewise constant: sample k held on [breaks[k], breaks[k+1])."""
        return cls._make(lib.teal_piecewise_polynomial_zero_order_hold, breaks, samples,
                         "PiecewisePolynomial.ZeroOrderHold")

    @classmethod
    def FirstOrderHold(cls, breaks, samples):
        """Piecewise linear through the samples."""
        return cls._make(lib.teal_piecewise_polynomial_first_order_hold, breaks, samples,
                         "PiecewisePolynomial.FirstOrderHold")

    def rows(self):
        """Number of components."""
        return self._rows

    def value(self, t):
        """The value at t: a (rows x 1) array as Drake returns it, or the
        matrix of a matrix-valued trajectory (the finite-horizon LQR's K, S)."""
        out = np.empty(self._rows)
        _core.check(lib.teal_piecewise_polynomial_value(self._h.get(), float(t), dptr(out)))
        return out.reshape(self._shape)

    def start_time(self):
        """The first break."""
        return lib.teal_piecewise_polynomial_start_time(self._h.get())

    def end_time(self):
        """The last break."""
        return lib.teal_piecewise_polynomial_end_time(self._h.get())


class TrajectorySource(System):
    """Outputs a trajectory and output_derivative_order of its derivatives
    (Drake's TrajectorySource; the trajectory is copied)."""

    def __init__(self, trajectory, output_derivative_order=0, name=None):
        err = _core.new_error()
        ptr = lib.teal_trajectory_source_new(cstr(name or auto_name("trajectory_source")),
                                             trajectory._h.get(), int(output_derivative_order),
                                             err)
        super().__init__(new_owned_system(ptr, err, "TrajectorySource"))


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
