"""Frames of a MultibodyPlant (pydrake's Frame, FixedOffsetFrame, AddFrame,
GetFrameByName, RigidBody.body_frame)."""
import numpy as np

from teal import _core
from teal._core import lib
from teal.multibody_elements import RigidBody, RigidTransform, _as_transform, _Element


class Frame(_Element):
    """A frame of a plant (Drake's Frame): a body's own frame or a fixed
    offset from another frame."""

    def name(self):
        """The frame's name."""
        return self._name(lib.teal_plant_frame_name, "frame")

    def body(self):
        """The body the frame is fixed to."""
        body = lib.teal_plant_frame_body(self._plant_obj._plant(), self._index)
        if body < 0:
            raise _core.TealNotFoundError(-5, f"frame {self._index}: no such frame in the plant")
        return RigidBody(self._plant_obj, body)

    def GetFixedPoseInBodyFrame(self):
        """X_BF, the frame's pose in its body's frame."""
        self.body()  # checks the index
        X = lib.teal_plant_frame_pose_in_body(self._plant_obj._plant(), self._index)
        return RigidTransform(np.array(list(X.R.m)).reshape(3, 3), list(X.p.v))


class FixedOffsetFrame:
    """A frame to add (Drake's FixedOffsetFrame(name, P, X_PF,
    model_instance)): name, parent frame P (a Frame, or a RigidBody for its
    body frame), its pose X_PF in P, and the model instance it belongs to
    (None: its parent's). plant.AddFrame(frame) adds it and returns the
    plant's Frame."""

    def __init__(self, name, P, X_PF, model_instance=None):
        self.name = name
        self.P = P
        self.X_PF = X_PF
        self.model_instance = model_instance


def _parent_frame(plant, P, what):
    if isinstance(P, Frame):
        return P.index()
    if isinstance(P, RigidBody):
        frame = lib.teal_plant_body_frame(plant._plant(), P.index())
        if frame < 0:
            raise _core.TealNotFoundError(-5, f"{what}: unknown body {P.index()}")
        return frame
    raise _core.TealInvalidArgumentError(
        -1, f"{what}: expected a Frame or a RigidBody as the parent, got {P!r}")


class PlantFramesMixin:
    """MultibodyPlant's frame methods (mixed into MultibodyPlant)."""

    def AddFrame(self, frame):
        """Adds a FixedOffsetFrame (before Finalize) and returns its Frame;
        with a model_instance the frame belongs to that instance whatever
        its parent's (and its name must be unique there)."""
        what = "AddFrame"
        if not isinstance(frame, FixedOffsetFrame):
            raise _core.TealInvalidArgumentError(
                -1, f"{what}: expected a FixedOffsetFrame, got {frame!r}")
        parent = _parent_frame(self, frame.P, what)
        X = _as_transform(frame.X_PF, what + " X_PF")
        name = _core.cstr(frame.name)
        if frame.model_instance is None:
            rc = lib.teal_plant_add_frame(self._plant(), name, parent, X)
        else:
            rc = lib.teal_plant_add_frame_in_instance(self._plant(), name,
                                                      int(frame.model_instance), parent, X)
        return Frame(self, self._plant_check(rc, what))

    def GetFrameByName(self, name, model_instance=None):
        """The frame named name (in model_instance, if given)."""
        return self._lookup(lib.teal_plant_get_frame_by_name, name, model_instance, Frame)

    def num_frames(self):
        """Number of frames, the bodies' own frames included."""
        return lib.teal_plant_num_frames(self._plant())

    def GetBodyFrame(self, body):
        """Teal's shortcut for body.body_frame(): the body's own Frame."""
        return Frame(self, _parent_frame(self, body, "GetBodyFrame"))
