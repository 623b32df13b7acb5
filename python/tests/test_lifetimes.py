"""Ownership: objects are safe whatever order Python frees them in, and
creating and freeing diagrams leaks nothing (Python or C heap)."""
import ctypes
import gc
import random
import tracemalloc

import numpy as np
import pytest

from teal import (ConstantVectorSource, DiagramBuilder, Gain, LeafSystem, LogVectorOutput,
                  Simulator, TealStateError, alloc_count)


def _small_run():
    b = DiagramBuilder()
    src = b.AddSystem(ConstantVectorSource([1.0, 2.0]))
    gain = b.AddSystem(Gain(2.0, 2))
    b.Connect(src.get_output_port(), gain.get_input_port())
    logger = LogVectorOutput(gain.get_output_port(), b, 0.1)
    sim = Simulator(b.Build())
    sim.AdvanceTo(0.3)
    return gain, logger, sim


def test_children_outlive_builder_diagram_and_simulator():
    gain, logger, sim = _small_run()
    ctx = sim.get_context()
    log = logger.FindLog(ctx)
    sub = gain.GetMyContextFromRoot(ctx)
    port = gain.get_output_port()
    del sim, ctx
    gc.collect()
    # the simulator, its context and the diagram stay alive through these
    np.testing.assert_array_equal(port.Eval(sub), [2.0, 4.0])
    np.testing.assert_array_equal(log.data()[:, -1], [2.0, 4.0])
    assert logger.get_name().startswith("logger")


def test_random_release_orders_and_cycles():
    rng = random.Random(20)
    for trial in range(200):
        gain, logger, sim = _small_run()
        objs = [gain, logger, sim, sim.get_context(), logger.FindLog(sim.get_context()),
                gain.get_input_port(), gain.GetMyContextFromRoot(sim.get_context())]
        if trial % 2:
            holder = {"objs": objs}
            holder["self"] = holder  # a cycle: only the collector frees these
            objs[0].cycle = holder
        del gain, logger, sim
        rng.shuffle(objs)
        while objs:
            objs.pop()
            if rng.random() < 0.3:
                gc.collect(1)  # the young generations: cheap, and where these live
    gc.collect()  # whatever cycles were promoted, finalized in the collector's order


def test_freed_by_failed_build_raises_instead_of_crashing():
    b = DiagramBuilder()
    g = b.AddSystem(Gain(1.0, 1))
    ctx = None
    with pytest.raises(Exception):
        b.AddSystem(Gain(1.0, 2, name=g.get_name()))  # duplicate name
    with pytest.raises(Exception):
        b.Build()
    with pytest.raises(TealStateError):
        ctx = g.CreateDefaultContext()
    assert ctx is None
    del b
    gc.collect()
    with pytest.raises(TealStateError):
        g.get_input_port().size()


def _c_heap_in_use():
    """Bytes malloc has handed out and not got back (glibc mallinfo2)."""

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost")]

    libc = ctypes.CDLL(None)
    if not hasattr(libc, "mallinfo2"):
        pytest.skip("glibc without mallinfo2")
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd


def test_ten_thousand_diagrams_leak_nothing():
    for _ in range(200):  # warm caches, name counters, allocator pools
        _small_run()
    gc.collect()
    tracemalloc.start()
    py_before = tracemalloc.get_traced_memory()[0]
    c_before, teal_before = _c_heap_in_use(), alloc_count()
    n = 10000
    for _ in range(n):
        _small_run()
    gc.collect()
    py_growth = tracemalloc.get_traced_memory()[0] - py_before
    tracemalloc.stop()
    c_growth = _c_heap_in_use() - c_before
    per_run = (alloc_count() - teal_before) / n
    assert per_run > 5  # each run really allocated through Teal
    # one leaked context or diagram per run would be megabytes over 10,000 runs
    assert py_growth < 200_000, py_growth
    assert c_growth < 500_000, c_growth


class _Decay(LeafSystem):
    """A Python leaf: its callbacks tie the C diagram's handle into a cycle."""

    def __init__(self):
        LeafSystem.__init__(self)
        self.DeclareContinuousState(1, model_value=[1.0])
        self.DeclareVectorOutputPort("x", 1, self.Out, {self.xc_ticket()})

    def Out(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.SetFromVector(-context.get_continuous_state_vector())


def test_python_leaf_cycles_free_in_dependency_order():
    """Python leaves put the diagram's handle in a reference cycle, so the
    collector finalizes the diagram, its simulator and contexts in an order
    of its choosing; each must still be freed after what depends on it."""
    for trial in range(50):
        b = DiagramBuilder()
        leaf = b.AddSystem(_Decay())
        logger = LogVectorOutput(leaf.get_output_port(), b, 0.1)
        diagram = b.Build()
        sim = Simulator(diagram)
        sim.AdvanceTo(0.2)
        extra = Simulator(diagram, diagram.CreateDefaultContext())
        objs = [diagram, sim, extra, logger.FindLog(sim.get_context()),
                leaf.GetMyContextFromRoot(extra.get_context())]
        leaf.everything = objs  # one big cycle through the leaf
        del b, leaf, logger, diagram, sim, extra, objs
        if trial % 10 == 9:
            gc.collect()
    gc.collect()
