"""Errors, native-object lifetimes and numpy conversions shared by the package.

Lifetimes. Every C object is held by one _Handle. A handle frees its object
when the last reference to it goes, unless ownership moved to another object
(a builder, a diagram, a simulator); it then keeps that owner's handle alive
instead. Handles refer only to other handles, never to user objects, so they
never sit in a reference cycle: CPython frees them by reference counting,
each one before the handles it depends on, whatever order the garbage
collector picks for the Python objects around them.
"""
import numpy as np

from teal._ffi import ffi, lib

TEAL_OK = 0


class TealError(RuntimeError):
    """A Teal status code turned into an exception; str() is Teal's message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class TealInvalidArgumentError(TealError, ValueError):
    """TEAL_EINVAL: an invalid argument or a call in the wrong state."""


class TealSizeError(TealError, ValueError):
    """TEAL_ESIZE: a size mismatch."""


class TealNotFoundError(TealError, LookupError):
    """TEAL_ENOTFOUND: no object of that name or index."""


class TealNotConnectedError(TealError):
    """TEAL_ENOTCONNECTED: an input port neither connected nor fixed."""


class TealNonFiniteError(TealError, ValueError):
    """TEAL_ENONFINITE: NaN or Inf."""


class TealParseError(TealError):
    """TEAL_EPARSE: a malformed model file."""


class TealStateError(TealError):
    """TEAL_ESTATE: the object is in the wrong phase (e.g. already finalized)."""


class TealCallbackError(TealError):
    """TEAL_ECALLBACK: a user callback failed."""


_ERROR_CLASSES = {
    -1: TealInvalidArgumentError,
    -3: TealSizeError,
    -5: TealNotFoundError,
    -7: TealNotConnectedError,
    -10: TealNonFiniteError,
    -13: TealParseError,
    -15: TealStateError,
    -16: TealCallbackError,
}


def strerror(code):
    """Teal's short description of a status code."""
    return ffi.string(lib.teal_strerror(code)).decode()


# A Python exception raised inside a callback from C: the callback returns
# TEAL_ECALLBACK, and the first C failure reported to Python afterwards
# raises this exception instead, with its traceback and Teal's message as a note.
_pending_callback_errors = []


def set_callback_error(exc):
    """Records exc for the C call that is unwinding (the first one wins)."""
    if not _pending_callback_errors:
        _pending_callback_errors.append(exc)


def _take_callback_error(teal_message):
    if not _pending_callback_errors:
        return None
    exc = _pending_callback_errors.pop()
    if teal_message and hasattr(exc, "add_note"):  # Python 3.11+
        exc.add_note(f"Teal: {teal_message}")
    return exc


def error_from(err_ptr, fallback_code=-1, what=""):
    """A TealError from a teal_error record (a cdata pointer), or the Python
    exception a callback raised during the failed call."""
    code = err_ptr.code if err_ptr != ffi.NULL and err_ptr.code != TEAL_OK else fallback_code
    msg = ffi.string(err_ptr.message).decode() if err_ptr != ffi.NULL else ""
    return make_error(code, msg or what)


def make_error(code, message):
    """The TealError subclass for code carrying message (or strerror(code)),
    or the pending exception of a failed Python callback."""
    pending = _take_callback_error(message)
    if pending is not None:
        return pending
    if not message:
        message = strerror(code)
    return _ERROR_CLASSES.get(code, TealError)(code, message)


def check(code, err_ptr=ffi.NULL, what=""):
    """Raises when a C call returned a negative status; returns the status."""
    if code < 0:
        raise error_from(err_ptr, code, what)
    _pending_callback_errors.clear()  # a failure C chose to survive
    return code


def new_error():
    """A fresh teal_error record to hand to a C call."""
    return ffi.new("teal_error *")


def alloc_count():
    """Teal's count of teal_alloc/teal_calloc calls since start."""
    return lib.teal_alloc_count()


class _Handle:
    """One C object: its pointer, how to free it, and what must outlive it.

    owner is the handle that owns (or outlives) this one; ndeps counts the
    live handles whose owner this is. A handle frees its object only once
    nothing refers to it and ndeps is 0: reference counting gives that order
    by itself, and when the garbage collector finalizes a cycle in any order,
    a handle finalized before its dependents waits for the last of them.
    keep holds Python objects the C object calls back into (a Python leaf's
    callbacks) and the handles of objects it borrows (depend_on); they move
    with ownership so they live as long as the C object.
    """

    __slots__ = ("ptr", "_free", "owner", "dead_reason", "ndeps", "pending", "keep",
                 "__weakref__")

    def __init__(self, ptr, free=None, owner=None):
        self.ptr = ptr
        self._free = free  # None once another object owns ptr
        self.owner = None
        self.dead_reason = None
        self.ndeps = 0
        self.pending = False
        self.keep = []
        self._set_owner(owner)

    def _set_owner(self, owner):
        old, self.owner = self.owner, owner
        if owner is not None:
            owner.ndeps += 1
        if old is not None:
            old._release_dependent()

    def get(self):
        """The pointer, or an exception when it (or its owner) was freed."""
        h = self
        while h is not None:
            if h.dead_reason is not None:
                raise TealStateError(-15, h.dead_reason)
            h = h.owner
        return self.ptr

    def give_to(self, owner):
        """Ownership moved to owner (a handle): do not free, keep it alive."""
        self._free = None
        owner.keep.extend(self.keep)
        self.keep = []
        self._set_owner(owner)

    def depend_on(self, other):
        """This C object borrows other's: other is freed only after it."""
        other.ndeps += 1
        self.keep.append(other)

    def kill(self, reason):
        """The C object is gone (freed by its owner): refuse further use."""
        self._free = None
        self.dead_reason = reason

    def _release_dependent(self):
        self.ndeps -= 1
        if self.ndeps == 0 and self.pending:
            self._release()

    def _release(self):
        self.pending = False
        free, self._free = self._free, None
        if free is not None and self.dead_reason is None:
            free(self.ptr)
        keep, self.keep = self.keep, []
        for item in keep:
            if isinstance(item, _Handle):
                item._release_dependent()
        self._set_owner(None)

    def __del__(self):
        self.pending = True
        if self.ndeps == 0:
            self._release()


def as_vector(value, n=None, what="vector"):
    """value as a contiguous float64 1-D array (a view when already one)."""
    a = np.ascontiguousarray(value, dtype=np.float64)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise TealSizeError(-3, f"{what}: expected a 1-D array, got shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise TealSizeError(-3, f"{what}: expected {n} values, got {a.shape[0]}")
    return a


def as_matrix(value, rows=None, cols=None, what="matrix"):
    """value as a C-contiguous float64 2-D array (row-major, as Teal takes)."""
    a = np.ascontiguousarray(value, dtype=np.float64)
    if a.ndim == 0:
        a = a.reshape(1, 1)
    if a.ndim != 2:
        raise TealSizeError(-3, f"{what}: expected a 2-D array, got shape {a.shape}")
    if (rows is not None and a.shape[0] != rows) or (cols is not None and a.shape[1] != cols):
        raise TealSizeError(
            -3, f"{what}: expected shape ({rows}, {cols}), got {a.shape}")
    return a


def dptr(array):
    """A double* over a contiguous float64 array (no copy; keep array alive)."""
    return ffi.from_buffer("double[]", array)  # passes as a double*, in one call


def from_doubles(ptr, n):
    """A numpy copy of n doubles at ptr."""
    out = np.empty(n)
    if n:
        ffi.memmove(ffi.from_buffer(out), ptr, n * 8)
    return out


def cstr(text):
    """text as bytes for a const char* argument."""
    return text.encode() if isinstance(text, str) else text


class _ViewBase:
    """Exposes C memory to numpy (__array_interface__) while holding owner,
    the handle of the C object that owns the memory: the array's base is
    this object, so the owner (and everything it depends on) stays alive as
    long as any view of the memory does."""

    __slots__ = ("__array_interface__", "owner")

    def __init__(self, ptr, shape, owner):
        address = int(ffi.cast("uintptr_t", ptr))
        self.__array_interface__ = {"data": (address, True), "shape": shape, "typestr": "<f8",
                                    "version": 3}
        self.owner = owner


def view(ptr, n, owner):
    """A read-only numpy view of n doubles at ptr (no copy) that keeps owner
    (a _Handle) alive. Read-only because a write through it would bypass the
    context's change tracking, leaving cached results stale."""
    if n == 0 or ptr == ffi.NULL:
        a = np.zeros(0)
        a.flags.writeable = False
        return a
    return np.asarray(_ViewBase(ptr, (n,), owner))
