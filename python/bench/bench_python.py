"""What Python costs on top of Teal's C.

1. The acrobot LQR diagram (examples/acrobot_lqr.py) advanced 5 s from
   Python, against the C program build/acrobot_lqr (5 runs of 5 s each, so
   its wall time is divided by 5; it also writes a CSV and starts a process,
   which makes the C figure an upper bound).
2. The per-call cost of a Python LeafSystem's derivative callback: the same
   x' = -x integrated by the same simulator as a Python leaf and as Teal's
   C LinearSystem; the difference over the number of derivative calls.

Usage: bench_python.py [build_dir]   (TEAL_MODEL_PATH must find acrobot.urdf)
"""
import os
import subprocess
import sys
import time

import numpy as np

from teal import (ConstantVectorSource, DiagramBuilder, LeafSystem, LinearSystem, Simulator)

HERE = os.path.dirname(os.path.abspath(__file__))


def _best_of(fn, repeats=5):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def acrobot_python_seconds():
    """Best wall time of one 5 s acrobot run driven from Python (no build)."""
    import teal
    b = teal.DiagramBuilder()  # the diagram of examples/acrobot_lqr.py
    plant, _ = teal.AddMultibodyPlantSceneGraph(b, 1e-3)
    teal.Parser(plant).AddModels("acrobot.urdf")
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(ctx, [np.pi, 0, 0, 0])
    plant.get_actuation_input_port().FixValue(ctx, [0.0])
    lqr = b.AddSystem(teal.LinearQuadraticRegulator(
        plant, ctx, np.diag([10.0, 10, 1, 1]), [[1.0]],
        input_port_index=plant.get_actuation_input_port().get_index()))
    b.Connect(plant.get_state_output_port(), lqr.get_input_port())
    b.Connect(lqr.get_output_port(), plant.get_actuation_input_port())
    teal.LogVectorOutput(plant.get_state_output_port(), b, 0.01)
    sim = Simulator(b.Build())
    root = sim.get_mutable_context()

    def run():
        root.SetTime(0.0)
        plant.SetPositionsAndVelocities(plant.GetMyContextFromRoot(root),
                                        [np.pi + 0.05, -0.03, 0, 0])
        sim.AdvanceTo(5.0)
    return _best_of(run)


def acrobot_c_seconds(build_dir):
    """Best wall time of the C program, per 5 s run."""
    program = os.path.join(build_dir, "acrobot_lqr")
    out = os.path.join(build_dir, "bench_python_acrobot.csv")

    def run():
        subprocess.run([program, "acrobot.urdf", out], check=True, capture_output=True)
    return _best_of(run) / 5.0


class Decay(LeafSystem):
    """x' = -x in Python."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.DeclareVectorInputPort("u", 1)
        self.DeclareContinuousState(1)
        self.calls = 0

    def DoCalcTimeDerivatives(self, context, derivatives):
        self.calls += 1
        derivatives.get_mutable_value()[0] = -context.get_continuous_state_vector()[0]


def _decay_run(system, seconds):
    b = DiagramBuilder()
    b.AddSystem(system)
    src = b.AddSystem(ConstantVectorSource([0.0]))
    b.Connect(src.get_output_port(), system.get_input_port())
    sim = Simulator(b.Build())
    system.GetMyContextFromRoot(sim.get_mutable_context()).SetContinuousState([1.0])
    t0 = time.perf_counter()
    sim.AdvanceTo(seconds)
    return time.perf_counter() - t0


def callback_overhead_ns(seconds=2000.0):
    """(Python leaf time - C leaf time) / derivative calls, in nanoseconds."""
    py = Decay()
    t_py = _decay_run(py, seconds)
    t_c = _decay_run(LinearSystem([[-1.0]], [[0.0]], [[1.0]], [[0.0]]), seconds)
    return (t_py - t_c) / py.calls * 1e9, py.calls, t_py, t_c


def main():
    build_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build")
    t_py = acrobot_python_seconds()
    print(f"acrobot LQR, 5 s at 1 ms, from Python: {t_py * 1e3:8.2f} ms")
    if os.access(os.path.join(build_dir, "acrobot_lqr"), os.X_OK):
        t_c = acrobot_c_seconds(build_dir)
        print(f"acrobot LQR, 5 s at 1 ms, C program:   {t_c * 1e3:8.2f} ms per run "
              f"(includes its CSV and process start)")
        print(f"Python / C: {t_py / t_c:.3f} (target: under 1.05)")
    ns, calls, t_py, t_c = callback_overhead_ns()
    print(f"Python LeafSystem derivative callback: {ns:.0f} ns per call over C "
          f"({calls} calls; {t_py * 1e3:.1f} ms vs {t_c * 1e3:.1f} ms)")
    print("pydrake's per-call figure: none found to cite (not measured here)")


if __name__ == "__main__":
    main()
