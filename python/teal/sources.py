"""Signal sources and the discrete derivative (pydrake.systems.primitives'
Sine, RandomSource, DiscreteDerivative; Teal's Step and Ramp)."""
import numpy as np

from teal import _core
from teal._core import cstr, dptr, lib
from teal.framework import System, auto_name, new_owned_system


def _vectors(what, *values, size=None):
    """values broadcast to one common length (size for scalars)."""
    n = size if all(np.ndim(v) == 0 for v in values) else max(np.size(v) for v in values)
    if n is None:
        raise _core.TealInvalidArgumentError(-1, f"{what}: size is missing for scalar values")
    return [_core.as_vector(np.full(int(n), v, dtype=float) if np.ndim(v) == 0 else v, int(n),
                            what=what) for v in values]


class Sine(System):
    """y = a sin(w t + phi) with outputs y, ydot, yddot: Sine(amplitude,
    frequency, phase, size) for scalars or Sine(amplitudes, frequencies,
    phases) for vectors (Drake's Sine; frequency in rad/s)."""

    def __init__(self, amplitude, frequency, phase, size=None, name=None):
        a, w, p = _vectors("Sine", amplitude, frequency, phase, size=size)
        err = _core.new_error()
        ptr = lib.teal_sine_new(cstr(name or auto_name("sine")), dptr(a), dptr(w), dptr(p),
                                a.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "Sine"))


class Step(System):
    """y = initial_value before step_time, final_value from then on (Teal's Step)."""

    def __init__(self, step_time, initial_value, final_value, name=None):
        y0, y1 = _vectors("Step", initial_value, final_value, size=1)
        err = _core.new_error()
        ptr = lib.teal_step_new(cstr(name or auto_name("step")), float(step_time), dptr(y0),
                                dptr(y1), y0.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "Step"))


class Ramp(System):
    """y = initial_value before start_time, then initial_value + slope (t -
    start_time) (Teal's Ramp)."""

    def __init__(self, slope, start_time, initial_value, name=None):
        k, y0 = _vectors("Ramp", slope, initial_value, size=1)
        err = _core.new_error()
        ptr = lib.teal_ramp_new(cstr(name or auto_name("ramp")), dptr(k), float(start_time),
                                dptr(y0), k.shape[0], err)
        super().__init__(new_owned_system(ptr, err, "Ramp"))


class RandomDistribution:
    """Drake's RandomDistribution: kUniform on [0, 1), kGaussian N(0, 1)."""

    kUniform = 0
    kGaussian = 1


class RandomSource(System):
    """num_outputs random values redrawn every sampling_interval_sec (Drake's
    RandomSource); seed fixes the sequence."""

    def __init__(self, distribution, num_outputs, sampling_interval_sec, seed=0, name=None):
        err = _core.new_error()
        ptr = lib.teal_random_source_new(cstr(name or auto_name("random_source")),
                                         int(distribution), int(num_outputs),
                                         float(sampling_interval_sec), int(seed), err)
        super().__init__(new_owned_system(ptr, err, "RandomSource"))


class DiscreteDerivative(System):
    """y = (u[n] - u[n-1]) / time_step over num_inputs signals (Drake's
    DiscreteDerivative)."""

    def __init__(self, num_inputs, time_step, suppress_initial_transient=True, name=None):
        err = _core.new_error()
        ptr = lib.teal_discrete_derivative_new_ex(
            cstr(name or auto_name("discrete_derivative")), int(num_inputs), float(time_step),
            int(bool(suppress_initial_transient)), err)
        super().__init__(new_owned_system(ptr, err, "DiscreteDerivative"))
