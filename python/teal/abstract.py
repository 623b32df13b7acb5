"""Abstract values holding Python objects (pydrake's AbstractValue / Value).

Teal stores an abstract value in a fixed-size block of the context and
manages it only through its type's hooks (framework/value.h). The one type
defined here, "python_object", stores in its block an integer key into a
registry of Python objects with reference counts: the copy hook shares the
object (a copy is the same Python object, as assigning it in Python would
be) and counts the reference, the free hook drops it, and key 0 is None.
So a Python object lives as long as any context block refers to it.
"""
import itertools

from teal import _core
from teal._core import ffi, lib

_registry = {}  # key -> [object, references]
_keys = itertools.count(1)


def _incref(key):
    if key:
        _registry[key][1] += 1


def _decref(key):
    if key:
        entry = _registry[key]
        entry[1] -= 1
        if entry[1] == 0:
            del _registry[key]


def _slot(block):
    return ffi.cast("long long *", block)


def get(block):
    """The Python object held in an abstract value block."""
    key = _slot(block)[0]
    return _registry[key][0] if key else None


def put(block, obj):
    """Makes block (a valid value) hold obj, releasing what it held."""
    slot = _slot(block)
    old = slot[0]
    if obj is None:
        slot[0] = 0
    else:
        key = next(_keys)
        _registry[key] = [obj, 1]
        slot[0] = key
    _decref(old)


@ffi.def_extern(error=-16)  # TEAL_ECALLBACK if the registry were ever inconsistent
def teal_py_value_copy(dst, src):
    """The copy hook: dst shares src's object."""
    d, s = _slot(dst), _slot(src)
    if d[0] != s[0]:
        _incref(s[0])
        _decref(d[0])
        d[0] = s[0]
    return 0


@ffi.def_extern()
def teal_py_value_free(value):
    """The free hook: drops the block's reference."""
    try:
        _decref(_slot(value)[0])
    except Exception:  # noqa: BLE001 -- interpreter shutdown: nothing left to release
        pass


_NAME = ffi.new("char[]", b"python_object")
PYTHON_OBJECT = ffi.new("teal_value_type *", {
    "name": _NAME, "size": ffi.sizeof("long long"), "init": ffi.NULL,
    "copy": lib.teal_py_value_copy, "free": lib.teal_py_value_free})


def num_live_objects():
    """Objects held by context blocks (for leak tests)."""
    return len(_registry)


class AbstractValue:
    """A Python object as a model or port value (pydrake's AbstractValue):
    AbstractValue.Make(obj), get_value(), set_value(obj)."""

    def __init__(self, value=None):
        self._value = value

    @staticmethod
    def Make(value):
        """Wraps value."""
        return AbstractValue(value)

    def get_value(self):
        """The object."""
        return self._value

    def get_mutable_value(self):
        """The object (mutable objects are changed in place)."""
        return self._value

    def set_value(self, value):
        """Replaces the object."""
        self._value = value


class _OutputValue(AbstractValue):
    """The output block C hands an abstract output's calc: set_value stores
    into the context."""

    def __init__(self, block):  # pylint: disable=super-init-not-called
        self._block = block

    def get_value(self):
        return get(self._block)

    get_mutable_value = get_value

    def set_value(self, value):
        put(self._block, value)


# Readers of C-typed abstract values by type name: each turns a value (a
# const void * to the C struct) into a Python copy. The modules binding the
# C types register theirs (teal.geometry, teal.multibody).
_c_readers = {}


def register_c_reader(type_name, reader):
    """Makes ports of the C value type type_name readable: reader(ptr) copies
    the value at ptr into a Python object."""
    _c_readers[type_name] = reader


def read_port_value(value_type, value_ptr, what):
    """The Python object an abstract port evaluated to: the object itself for
    a Python leaf's port, a copy for a C type with a reader, else an error."""
    if value_type == PYTHON_OBJECT:
        return get(value_ptr)
    name = ffi.string(value_type.name).decode() if value_type != ffi.NULL else "?"
    reader = _c_readers.get(name)
    if reader is None:
        raise _core.TealInvalidArgumentError(
            -1, f"{what}: abstract values of C type '{name}' cannot be read from Python "
            f"(readable C types: {', '.join(sorted(_c_readers))})")
    return reader(value_ptr)


def _temporary_block(value):
    """A block holding value's object (release it with put(block, None))."""
    obj = value.get_value() if isinstance(value, AbstractValue) else value
    block = ffi.new("long long *", 0)
    put(block, obj)
    return block


def declare_state(sys_ptr, model_value):
    """Declares an abstract state of a leaf defaulting to model_value's object."""
    block = _temporary_block(model_value)
    try:
        return lib.teal_leaf_declare_abstract_state(sys_ptr, PYTHON_OBJECT, block)
    finally:
        put(block, None)  # the leaf holds its own reference now


def read_state(context, index):
    """The object of abstract state index of a leaf's context."""
    ctx = context._ptr()
    block = lib.teal_context_abstract_state(ctx, int(index))
    if block == ffi.NULL:
        raise _core.error_from(lib.teal_context_error(ctx), -5, f"no abstract state {index}")
    return get(block)


def write_state(context, index, value):
    """Sets abstract state index of a leaf's context to value's object."""
    block = _temporary_block(value)
    ctx = context._ptr()
    try:
        _core.check(lib.teal_context_set_abstract_state(ctx, int(index), block),
                    lib.teal_context_error(ctx))
    finally:
        put(block, None)


def fix_input(context, index, value):
    """Fixes abstract input index of context to the Python object value."""
    block = _temporary_block(value)
    ctx = context._ptr()
    try:
        _core.check(lib.teal_context_fix_abstract_input(ctx, index, block),
                    lib.teal_context_error(ctx))
    finally:
        put(block, None)  # the context holds its own reference now
