"""Typed ids (pydrake's MultibodyConstraintId, GeometryId, FrameId).

Teal's C API numbers constraints, scene graph geometries and frames with
plain ints; Python wraps them in small immutable id objects so that an id of
one kind is never taken for another (or for a body index). An id compares
equal only to an id of the same kind and value, hashes accordingly and is
invalid when default-constructed, as Drake's Identifier. Functions taking an
id also accept a plain int, for code written against earlier versions.
"""
import numpy as np

from teal import _core


class _Identifier:
    """An id of one kind: value() >= 0 when valid."""

    __slots__ = ("_v", "_resolver")

    def __init__(self, value=-1):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise _core.TealInvalidArgumentError(
                -1, f"{type(self).__name__}: expected an int value, got {value!r}")
        self._v = int(value) if value >= 0 else -1
        self._resolver = None

    @classmethod
    def _pending(cls, resolver):
        """An id known later: resolver() gives the value (< 0 while unknown).
        A plant's geometry gets its scene graph id when the plant registers
        with the scene graph, at Finalize in Drake's order."""
        new = cls()
        new._resolver = resolver
        return new

    @property
    def _value(self):
        if self._v < 0 and self._resolver is not None:
            self._v = max(int(self._resolver()), -1)
        return self._v

    def is_valid(self):
        """False for a default-constructed id (or one not assigned yet)."""
        return self._value >= 0

    def get_value(self):
        """The C index; raises for an invalid id."""
        if self._value < 0:
            raise _core.TealInvalidArgumentError(
                -1, f"{type(self).__name__}: the id is invalid (default-constructed, or a "
                "plant geometry before the plant is finalized with a scene graph)")
        return self._value

    def __eq__(self, other):
        if other is self:
            return True
        return type(other) is type(self) and other._value == self._value >= 0

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.get_value() < other.get_value()

    def __hash__(self):
        return hash((type(self).__name__, self.get_value()))

    def __repr__(self):
        return f"<{type(self).__name__} value={self._value}>"


class MultibodyConstraintId(_Identifier):
    """A constraint of a MultibodyPlant (what the Add*Constraint calls return)."""


class GeometryId(_Identifier):
    """A geometry of a SceneGraph."""


class FrameId(_Identifier):
    """A frame of a SceneGraph."""


def index_of(id_or_int, cls, what):
    """The C index of an id of kind cls, or of a plain int (compatibility)."""
    if isinstance(id_or_int, cls):
        return id_or_int.get_value()
    if isinstance(id_or_int, (int, np.integer)) and not isinstance(id_or_int, bool):
        return int(id_or_int)
    raise _core.TealInvalidArgumentError(
        -1, f"{what}: expected a {cls.__name__} or an int, got {id_or_int!r}")
