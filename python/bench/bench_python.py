"""What Python costs on top of Teal's C, measured in one process.

1. The acrobot LQR diagram (examples/acrobot_lqr.py) built and advanced 5 s
   from Python, against the identical diagram built and advanced by C
   (bench/acrobot_diagram.c, compiled here into a small cffi module linked
   to the same libteal.so the teal package loaded). Each side resets the
   context, sets the start state and initializes untimed, then times only
   AdvanceTo(5); the runs alternate between the sides and the best of each
   is kept.
2. The per-call cost of a Python LeafSystem's derivative callback: the same
   x' = -x integrated by the same simulator as a Python leaf and as Teal's
   C LinearSystem; the time difference over the number of derivative calls.

Usage: bench_python.py   (TEAL_MODEL_PATH must find acrobot.urdf; a C
compiler is needed for part 1, which is skipped without one)
"""
import importlib.util
import os
import sys
import tempfile
import time

import numpy as np

import teal
from teal import ConstantVectorSource, DiagramBuilder, LeafSystem, LinearSystem, Simulator

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
RUNS = 9

# The nearest published figure found (no per-call figure for pydrake itself
# was found): pybind11's Python override of a C++ virtual, the mechanism
# pydrake's LeafSystem callbacks use, measured by a pybind11 user at 2e6
# calls in 1.2 s against 0.07 s in C++, i.e. about 565 ns per call.
PYBIND11_FIGURE = ("pybind11 Python override of a C++ virtual (pydrake's callback "
                   "mechanism): ~565 ns/call, https://github.com/pybind/pybind11/issues/2034; "
                   "no published pydrake per-call figure found")


def _loaded_libteal():
    """The path of the libteal.so this process loaded (through teal._ffi)."""
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            if line.rstrip().endswith("libteal.so") or "libteal.so." in line:
                return line.split()[-1]
    raise RuntimeError("libteal.so is not loaded")


def _c_bench_module():
    """bench/acrobot_diagram.c compiled as a cffi module against the loaded libteal.so."""
    import cffi
    lib_dir = os.path.dirname(_loaded_libteal())
    ffi = cffi.FFI()
    ffi.cdef("double bench_acrobot_diagram_best_seconds(const char *urdf, int runs, double *xf);")
    ffi.set_source("_teal_bench_acrobot",
                   '#define TEAL_BENCH_NO_MAIN\n#include "bench/acrobot_diagram.c"\n',
                   include_dirs=[SOURCE_DIR], library_dirs=[lib_dir],
                   runtime_library_dirs=[lib_dir], libraries=["teal"],
                   extra_compile_args=["-O2"])
    tmp = tempfile.mkdtemp(prefix="teal_bench_")
    path = ffi.compile(tmpdir=tmp, verbose=False)
    spec = importlib.util.spec_from_file_location("_teal_bench_acrobot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def acrobot_c_run(module, urdf):
    """AdvanceTo(5) seconds of one run of the C-built diagram, and its final state."""
    xf = module.ffi.new("double[4]")
    seconds = module.lib.bench_acrobot_diagram_best_seconds(urdf.encode(), 1, xf)
    if seconds < 0:
        raise RuntimeError("the C acrobot benchmark failed (see stderr)")
    return seconds, np.array(list(xf))


def acrobot_python_diagram(urdf):
    """The same diagram built from Python; returns a function running it once."""
    b = DiagramBuilder("acrobot_lqr")  # examples/acrobot_lqr.py without its visualizer
    plant, _ = teal.AddMultibodyPlantSceneGraph(b, 1e-3)
    teal.Parser(plant).AddModels(urdf)
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(ctx, [np.pi, 0, 0, 0])
    plant.get_actuation_input_port().FixValue(ctx, [0.0])
    lqr = b.AddSystem(teal.LinearQuadraticRegulator(
        plant, ctx, np.diag([10.0, 10, 1, 1]), [[1.0]],
        input_port_index=plant.get_actuation_input_port().get_index()))
    b.Connect(plant.get_state_output_port(), lqr.get_input_port())
    b.Connect(lqr.get_output_port(), plant.get_actuation_input_port())
    logger = teal.LogVectorOutput(plant.get_state_output_port(), b, 0.01)
    sim = Simulator(b.Build())
    root = sim.get_mutable_context()

    def run():  # as bench/acrobot_diagram.c's timed_run
        root.SetToDefaults()
        root.SetTime(0.0)
        logger.FindLog(root).Clear()
        plant.SetPositionsAndVelocities(plant.GetMyMutableContextFromRoot(root),
                                        [np.pi + 0.05, -0.03, 0, 0])
        sim.Initialize()
        t0 = time.perf_counter()
        sim.AdvanceTo(5.0)
        seconds = time.perf_counter() - t0
        return seconds, plant.GetPositionsAndVelocities(plant.GetMyContextFromRoot(root))
    return run


def acrobot_seconds(urdf):
    """Best AdvanceTo(5) seconds from Python and from C, runs interleaved so
    that a change of the machine's load affects both sides alike."""
    python_run = acrobot_python_diagram(urdf)
    try:
        module = _c_bench_module()
    except Exception as exc:  # noqa: BLE001 -- no compiler: report and go on
        print(f"acrobot LQR, C side skipped: {type(exc).__name__}: {exc}")
        module = None
    best_py = best_c = float("inf")
    x_py = x_c = None
    for _ in range(RUNS):
        t, x_py = python_run()
        best_py = min(best_py, t)
        if module is not None:
            t, x_c = acrobot_c_run(module, urdf)
            best_c = min(best_c, t)
    return best_py, x_py, best_c, x_c


class Decay(LeafSystem):
    """x' = -x in Python."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.DeclareVectorInputPort("u", 1)
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_value()[0] = -context.get_continuous_state_vector()[0]


def _decay_run(system, seconds):
    b = DiagramBuilder()
    b.AddSystem(system)
    src = b.AddSystem(ConstantVectorSource([0.0]))
    b.Connect(src.get_output_port(), system.get_input_port())
    sim = Simulator(b.Build())
    system.GetMyContextFromRoot(sim.get_mutable_context()).SetContinuousState([1.0])
    sim.Initialize()
    t0 = time.perf_counter()
    sim.AdvanceTo(seconds)
    elapsed = time.perf_counter() - t0
    return elapsed, sim.get_integrator().get_num_derivative_evaluations()


def callback_overhead_ns(seconds=2000.0):
    """(Python leaf time - C leaf time) / derivative calls, in nanoseconds."""
    t_py, calls = min(_decay_run(Decay(), seconds) for _ in range(3))
    t_c, calls_c = min(_decay_run(LinearSystem([[-1.0]], [[0.0]], [[1.0]], [[0.0]]), seconds)
                       for _ in range(3))
    assert calls == calls_c, "the two runs must take the same steps"
    return (t_py - t_c) / calls * 1e9, calls, t_py, t_c


def main():
    urdf = os.path.join(SOURCE_DIR, "models", "acrobot.urdf")
    t_py, x_py, t_c, x_c = acrobot_seconds(urdf)
    print(f"acrobot LQR, AdvanceTo(5) at 1 ms, diagram built from Python: {t_py * 1e3:8.3f} ms")
    if x_c is not None:
        print(f"acrobot LQR, AdvanceTo(5) at 1 ms, diagram built by C:      {t_c * 1e3:8.3f} ms")
        print(f"Python / C: {t_py / t_c:.3f} (target: under 1.05); best of {RUNS} interleaved "
              f"runs each, same libteal.so; final states differ by "
              f"{np.abs(x_py - x_c).max():.1e}")
    ns, calls, t_py, t_c = callback_overhead_ns()
    print(f"Python LeafSystem derivative callback: {ns:.0f} ns per call over C "
          f"({calls} calls; {t_py * 1e3:.1f} ms vs {t_c * 1e3:.1f} ms)")
    print(f"for comparison: {PYBIND11_FIGURE}")


if __name__ == "__main__":
    sys.exit(main())
