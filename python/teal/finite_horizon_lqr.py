"""The finite-horizon LQR (pydrake.systems.controllers'
FiniteHorizonLinearQuadraticRegulator and its Make... controller form)."""
from teal import _core
from teal._core import cstr, dptr, ffi, lib
from teal.framework import System, auto_name, new_owned_system
from teal.primitives import PiecewisePolynomial


class FiniteHorizonLinearQuadraticRegulatorOptions:
    """Drake's options: Qf (final cost), N (cross term), input_port_index, x0
    and u0 (nominal PiecewisePolynomials; default: the context's operating
    point held constant)."""

    def __init__(self):
        self.Qf = None
        self.N = None
        self.input_port_index = 0
        self.x0 = None
        self.u0 = None


class FiniteHorizonLinearQuadraticRegulatorResult:
    """The solution: x0, u0, K, k0, S, sx, s0 as PiecewisePolynomials (K(t) is
    nu x nx, S(t) nx x nx), each a copy owned by Python."""

    def __init__(self, res):
        nx, nu = res.nx, res.nu
        shapes = {"x0": (nx, 1), "u0": (nu, 1), "K": (nu, nx), "k0": (nu, 1), "S": (nx, nx),
                  "sx": (nx, 1), "s0": (1, 1)}
        for name, shape in shapes.items():
            setattr(self, name, PiecewisePolynomial._copy_of(getattr(res, name), shape))
        self.period = res.period


def _solve(system, context, t0, tf, Q, R, options):
    options = options or FiniteHorizonLinearQuadraticRegulatorOptions()
    port = system.get_input_port(options.input_port_index)
    nx = system.num_continuous_states() + system.num_discrete_states()
    keep = [_core.as_matrix(Q, nx, nx, what="FiniteHorizonLQR Q"),
            _core.as_matrix(R, port.size(), port.size(), what="FiniteHorizonLQR R")]
    opts = ffi.new("teal_finite_horizon_lqr_options *")
    lib.teal_finite_horizon_lqr_options_init(opts)
    opts.input_port = port.get_index()
    if options.Qf is not None:
        keep.append(_core.as_matrix(options.Qf, nx, nx, what="FiniteHorizonLQR Qf"))
        opts.Qf = dptr(keep[-1])
    if options.N is not None:
        keep.append(_core.as_matrix(options.N, nx, port.size(), what="FiniteHorizonLQR N"))
        opts.N = dptr(keep[-1])
    if options.x0 is not None:
        opts.x0 = options.x0._h.get()
    if options.u0 is not None:
        opts.u0 = options.u0._h.get()
    res = ffi.new("teal_finite_horizon_lqr_result *")
    err = _core.new_error()
    _core.check(lib.teal_finite_horizon_lqr(system._sys_ptr(), context._ptr(), float(t0),
                                            float(tf), dptr(keep[0]), dptr(keep[1]), opts, res,
                                            err), err)
    return ffi.gc(res, lib.teal_finite_horizon_lqr_result_free)


def FiniteHorizonLinearQuadraticRegulator(system, context, t0, tf, Q, R, options=None):
    """Solves the LQR of system about its operating point in context (or the
    nominal trajectories of options) over [t0, tf]; returns the result."""
    return FiniteHorizonLinearQuadraticRegulatorResult(
        _solve(system, context, t0, tf, Q, R, options))


def MakeFiniteHorizonLinearQuadraticRegulator(system, context, t0, tf, Q, R, options=None,
                                              name=None):
    """The time-varying controller u = u0(t) - K(t) (x - x0(t)) - k0(t) of the
    same problem: input the plant's state, output its input."""
    res = _solve(system, context, t0, tf, Q, R, options)
    err = _core.new_error()
    ptr = lib.teal_finite_horizon_lqr_controller_new(
        cstr(name or auto_name("finite_horizon_lqr")), res, err)
    return System(new_owned_system(ptr, err, "MakeFiniteHorizonLinearQuadraticRegulator"))
