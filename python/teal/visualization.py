"""The visualizer and its browser replay (pydrake.visualization, Meshcat-like).

Teal's visualizer (geometry/visualization/visualizer.h) records the pose of
every geometry of a scene graph, at a period of simulated time, into the
context; write_html writes the recording as one self-contained page that
replays it in a browser (docs/visualization.md), optionally with time plots
of vector logs beside the scene.
"""
import numpy as np

from teal import _core
from teal._core import _Handle, cstr, ffi, lib
from teal.framework import System


class Visualizer(System):
    """A visualizer system added by AddToBuilder or AddDefaultVisualization
    (owned by the builder, then the diagram)."""

    @staticmethod
    def AddToBuilder(builder, scene_graph, publish_period=1.0 / 60.0, include_proximity=False,
                     exact_times=False, name=None):
        """Adds a visualizer of scene_graph (the plant finalized) to builder
        and connects it; a frame every publish_period seconds of simulated
        time (at step ends; exact_times=True stops the integrator at every
        multiple of the period instead, as Drake's MeshcatVisualizer)."""
        opts = lib.teal_visualizer_options_default()
        opts.publish_period = float(publish_period)
        opts.include_proximity = int(bool(include_proximity))
        opts.exact_times = int(bool(exact_times))
        name_bytes = ffi.new("char[]", cstr(name)) if name else ffi.NULL
        opts.name = name_bytes
        opts_ptr = ffi.new("teal_visualizer_options *", opts)
        err = _core.new_error()
        ptr = lib.teal_add_visualizer(builder._ptr(), scene_graph._h.get(), opts_ptr, err)
        if ptr == ffi.NULL:
            raise _core.error_from(err, -1, "Visualizer.AddToBuilder failed")
        visualizer = Visualizer(_Handle(ptr, None, builder._h))
        builder._systems.append(visualizer)
        return visualizer

    def _recording(self, root_context):
        ctx = root_context._ptr()
        rec = lib.teal_visualizer_recording(self._sys_ptr(), ctx)
        if rec == ffi.NULL:
            raise _core.TealInvalidArgumentError(
                -1, f"visualizer '{self.get_name()}': that context does not hold it")
        return rec

    def num_frames(self, root_context):
        """Frames recorded in root_context."""
        return self._recording(root_context).count

    def recording_times(self, root_context):
        """The frames' times (a numpy copy: the recording grows by reallocation)."""
        rec = self._recording(root_context)
        return _core.from_doubles(rec.times, rec.count)

    def recording_poses(self, root_context):
        """The poses as a (frames, geometries, 7) array, position then
        quaternion w, x, y, z (a copy)."""
        rec = self._recording(root_context)
        n = rec.count * rec.num_geometries * 7
        return _core.from_doubles(rec.poses, n).reshape(rec.count, rec.num_geometries, 7)

    def DeleteRecording(self, root_context):
        """Drops the recorded frames (Meshcat's DeleteRecording)."""
        ctx = root_context._ptr()
        _core.check(lib.teal_visualizer_clear(self._sys_ptr(), ctx), lib.teal_context_error(ctx))

    def write_html(self, root_context, path, title=None, plots=(), show_frames=False):
        """Writes the recording in root_context as a replay page at path.
        plots: VectorLog objects (log.FindLog(root)) or (title, log[, names])
        tuples, drawn as time plots beside the scene."""
        opts = lib.teal_replay_options_default()
        keep = []
        if title:
            keep.append(ffi.new("char[]", cstr(title)))
            opts.title = keep[-1]
        opts.show_frames = int(bool(show_frames))
        if plots:
            arr = ffi.new("teal_replay_plot[]", len(plots))
            for i, plot in enumerate(plots):
                _fill_plot(arr[i], plot, keep)
            opts.plots, opts.num_plots = arr, len(plots)
            keep.append(arr)
        err = _core.new_error()
        _core.check(lib.teal_visualizer_write_html(self._sys_ptr(), root_context._ptr(),
                                                   cstr(str(path)), ffi.new(
                                                       "teal_replay_options *", opts), err), err)


def _fill_plot(entry, plot, keep):
    """Fills a teal_replay_plot from a VectorLog or a (title, log[, names]) tuple."""
    title, log, names = (None, plot, None) if not isinstance(plot, tuple) else \
        (plot + (None,))[:3]
    times = np.ascontiguousarray(log.sample_times())
    data = np.ascontiguousarray(log.data().T)  # one row per sample, as Teal stores it
    keep.extend([times, data])
    if title:
        keep.append(ffi.new("char[]", cstr(title)))
        entry.title = keep[-1]
    entry.count, entry.size = data.shape[0], data.shape[1] if data.ndim == 2 else 0
    entry.times, entry.data = _core.dptr(times), _core.dptr(data)
    if names is not None:
        strings = [ffi.new("char[]", cstr(n)) for n in names]
        table = ffi.new("char *[]", strings)
        keep.extend(strings + [table])
        entry.names = table


def AddDefaultVisualization(builder, publish_period=1.0 / 60.0):
    """Adds a Visualizer of the builder's scene graph (the one
    AddMultibodyPlantSceneGraph made; finalize the plant first), as Drake's
    AddDefaultVisualization adds a MeshcatVisualizer; returns it."""
    scene_graph = getattr(builder, "_scene_graph", None)
    if scene_graph is None:
        raise _core.TealInvalidArgumentError(
            -1, "AddDefaultVisualization: the builder has no scene graph "
            "(call AddMultibodyPlantSceneGraph first)")
    return Visualizer.AddToBuilder(builder, scene_graph, publish_period)
