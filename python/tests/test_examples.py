"""python/examples: acrobot_lqr.py against the C flagship examples/acrobot_lqr.c,
pendulum_lqr.py (a Python LeafSystem) against the matrix-form LQR."""
import csv
import os
import runpy
import subprocess

import numpy as np
import pytest

from teal._ffi import ffi, lib

EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                       "acrobot_lqr.py")


def _example():
    return runpy.run_path(EXAMPLE)["main"]


def _c_api_gain(model):
    """K computed as the C flagship's make_lqr does, call for call."""
    err = ffi.new("teal_error *")
    plant = lib.teal_plant_new(1e-3, err)
    assert lib.teal_urdf_load_file(plant, model.encode(), ffi.NULL, err) >= 0
    assert lib.teal_plant_finalize(plant) == 0
    sys = lib.teal_plant_system(plant)
    ctx = lib.teal_context_new(sys, err)
    upright, u0 = ffi.new("double[4]", [np.pi, 0, 0, 0]), ffi.new("double[1]", [0.0])
    Q = ffi.new("double[16]", [10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    R, K = ffi.new("double[1]", [1.0]), ffi.new("double[4]")
    u = lib.teal_plant_actuation_input_port(plant)
    assert lib.teal_plant_set_state(plant, ctx, upright, 4) == 0
    assert lib.teal_context_fix_input(ctx, u, u0, 1) == 0
    lqr = lib.teal_lqr_controller_new(b"lqr", sys, ctx, u, Q, R, ffi.NULL, K, ffi.NULL, err)
    assert lqr != ffi.NULL, ffi.string(err.message)
    lib.teal_system_free(lqr)
    lib.teal_context_free(ctx)
    lib.teal_plant_free(plant)
    return np.array(list(K))


def test_python_gain_equals_the_c_flagship_gain(acrobot_urdf):
    K, x = _example()(acrobot_urdf)
    np.testing.assert_allclose(K[0], _c_api_gain(acrobot_urdf), rtol=0, atol=1e-12)
    assert np.abs(x - [np.pi, 0, 0, 0]).sum() < 1e-2  # balanced


def test_python_run_matches_the_c_program(acrobot_urdf, build_dir, tmp_path):
    program = os.path.join(build_dir, "acrobot_lqr")
    if not os.access(program, os.X_OK):
        pytest.skip(f"{program} not built")
    log = tmp_path / "c.csv"
    out = subprocess.run([program, acrobot_urdf, str(log)], capture_output=True, text=True,
                         check=True).stdout
    printed = out.split("K = [")[1].split("]")[0].split()
    rows = [r for r in csv.DictReader(open(log)) if r["run"] == "0"]
    names = ("shoulder_q", "elbow_q", "shoulder_v", "elbow_v")
    first = [float(rows[0][n]) for n in names]
    last = [float(rows[-1][n]) for n in names]
    assert float(rows[-1]["time"]) == pytest.approx(5.0)
    K, x = _example()(acrobot_urdf, 5.0, first[:2])
    np.testing.assert_allclose(K[0], [float(k) for k in printed], atol=5e-4)  # printed %.3f
    # the C log holds 9 significant digits: start and end agree to that
    np.testing.assert_allclose(x, last, rtol=0, atol=1e-7)


PENDULUM_EXAMPLE = os.path.join(os.path.dirname(EXAMPLE), "pendulum_lqr.py")


def test_pendulum_example_balances_and_its_gain_solves_the_matrix_lqr():
    module = runpy.run_path(PENDULUM_EXAMPLE)
    x = module["main"]((np.pi - 0.3, 0.0), 10.0)
    np.testing.assert_allclose(x, [np.pi, 0.0], atol=1e-6)
    # its gain from the numeric linearization equals the CARE solution for
    # the analytic linearization about the upright
    pendulum = module["Pendulum"]()
    ctx = pendulum.CreateDefaultContext()
    ctx.SetContinuousState([np.pi, 0.0])
    pendulum.get_input_port().FixValue(ctx, [0.0])
    lqr = module["LinearQuadraticRegulator"](pendulum, ctx, np.diag([10.0, 1.0]), [[1.0]])
    from teal import LinearQuadraticRegulator
    A = np.array([[0.0, 1.0], [9.81, -0.1]])
    K, _ = LinearQuadraticRegulator(A, [[0.0], [1.0]], np.diag([10.0, 1.0]), [[1.0]])
    np.testing.assert_allclose(-lqr.D(), K, rtol=1e-6)


def test_plot_example_writes_a_png(acrobot_urdf, tmp_path):
    pytest.importorskip("matplotlib")
    module = runpy.run_path(os.path.join(os.path.dirname(EXAMPLE), "plot_acrobot.py"))
    out = module["main"](str(tmp_path / "acrobot.png"), acrobot_urdf)
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not os.path.exists("/usr/share/javascript/three/build/three.min.js")
                    and not os.environ.get("TEAL_THREE_JS_DIR"),
                    reason="libjs-three is not installed")
def test_acrobot_example_writes_its_replay(acrobot_urdf, tmp_path):
    import json
    path = tmp_path / "acrobot.html"
    _example()(acrobot_urdf, 1.0, replay=str(path))
    page = path.read_text(encoding="utf-8")
    start = page.index("var TEAL_REPLAY = ") + len("var TEAL_REPLAY = ")
    data, _ = json.JSONDecoder().raw_decode(page[start:])
    assert len(data["times"]) == 61  # a frame every 1/60 s over 1 s, the first at t = 0
    assert data["times"][-1] == pytest.approx(1.0, abs=1e-3)


def test_c_bench_diagram_is_the_python_diagram(acrobot_urdf, build_dir):
    """bench/acrobot_diagram.c (the C side of bench_python.py) ends where
    the Python-built diagram ends: the benchmark compares like for like."""
    program = os.path.join(build_dir, "bench_acrobot_diagram")
    if not os.access(program, os.X_OK):
        pytest.skip(f"{program} not built")
    out = subprocess.run([program, acrobot_urdf, "1"], capture_output=True, text=True,
                         check=True).stdout
    x_c = [float(v) for v in out.split("final state")[1].split()]
    _, x = _example()(acrobot_urdf, 5.0)
    np.testing.assert_allclose(x, x_c, rtol=0, atol=1e-9)  # printed with 9 decimals
