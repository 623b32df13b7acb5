"""Systems, ports, contexts and the diagram builder (pydrake.systems.framework)."""
import itertools

import numpy as np

from teal import _core, abstract
from teal._core import _Handle, check, cstr, dptr, ffi, lib

_name_counters = {}


def auto_name(kind):
    """A name unique in this process: kind, then kind_1, kind_2, ..."""
    n = next(_name_counters.setdefault(kind, itertools.count()))
    return kind if n == 0 else f"{kind}_{n}"


def new_owned_system(ptr, err, what):
    """A handle owning a freshly made teal_system, or the error raised."""
    if ptr == ffi.NULL:
        raise _core.error_from(err, -1, what)
    return _Handle(ptr, lib.teal_system_free)


class VectorView(np.ndarray):
    """A numpy array with pydrake's VectorBase accessors get_value() and
    CopyToVector() (what Context and ports return). Drake's size() is left
    out on purpose: it would hide numpy's size attribute, which numpy code
    relies on; use len() or .size."""

    def get_value(self):
        """Itself."""
        return self

    def CopyToVector(self):
        """A writable numpy copy (a snapshot of a view)."""
        return np.array(self)


class MutableNumericParameter:
    """Writes one numeric parameter group of a context (Drake's
    get_mutable_numeric_parameter result)."""

    def __init__(self, context, index):
        self._context = context
        self._index = index

    def get_value(self):
        """A read-only view of the current value."""
        return self._context.get_numeric_parameter(self._index)

    def size(self):
        """Number of entries."""
        return self.get_value().shape[0]

    def SetFromVector(self, value):
        """Copies value in (same size)."""
        v = _core.as_vector(value, what="numeric parameter")
        ctx = self._context._ptr()
        check(lib.teal_context_set_numeric_parameter(ctx, self._index, dptr(v), v.shape[0]),
              lib.teal_context_error(ctx))

    def SetAtIndex(self, i, value):
        """Sets entry i."""
        v = self.get_value().CopyToVector()
        v[i] = value
        self.SetFromVector(v)


class InputPort:
    """A vector input port of a system (Drake's InputPort)."""

    def __init__(self, system, index):
        self._system = system
        self._index = index

    def _ptr(self):
        return lib.teal_system_input_port(self._system._sys_ptr(), self._index)

    def get_index(self):
        """The port's index in its system."""
        return self._index

    def get_name(self):
        """The port's name."""
        return ffi.string(lib.teal_input_port_name(self._ptr())).decode()

    def size(self):
        """Number of doubles the port carries."""
        return lib.teal_input_port_size(self._ptr())

    def get_system(self):
        """The system the port belongs to."""
        return self._system

    def Eval(self, context, copy=True):
        """The port's value in context (the system's own context): a numpy copy,
        or with copy=False a read-only view of the context's memory (see
        OutputPort.Eval)."""
        ctx = context._ptr()
        value_type = lib.teal_input_port_type(self._ptr())
        if value_type != ffi.NULL:  # an abstract port: the Python object
            out = ffi.new("const void **")
            check(lib.teal_eval_abstract_input(self._system._sys_ptr(), ctx, self._index, out),
                  lib.teal_context_error(ctx))
            return abstract.read_port_value(value_type, out[0], f"port '{self.get_name()}'")
        out = ffi.new("const double **")
        check(lib.teal_eval_vector_input(self._system._sys_ptr(), ctx, self._index, out),
              lib.teal_context_error(ctx))
        return context._array(out[0], self.size(), copy)

    def FixValue(self, context, value):
        """Fixes the input in context (the system's own context) to value (a
        vector, or for an abstract port a Python object or AbstractValue)."""
        if lib.teal_input_port_type(self._ptr()) != ffi.NULL:
            abstract.fix_input(context, self._index, value)
            return
        v = _core.as_vector(value, what=f"input port '{self.get_name()}' value")
        check(lib.teal_context_fix_input(context._ptr(), self._index, dptr(v), v.shape[0]),
              lib.teal_context_error(context._ptr()))


class OutputPort:
    """A vector output port of a system (Drake's OutputPort)."""

    def __init__(self, system, index):
        self._system = system
        self._index = index

    def _ptr(self):
        return lib.teal_system_output_port(self._system._sys_ptr(), self._index)

    def get_index(self):
        """The port's index in its system."""
        return self._index

    def get_name(self):
        """The port's name."""
        return ffi.string(lib.teal_output_port_name(self._ptr())).decode()

    def size(self):
        """Number of doubles the port carries."""
        return lib.teal_output_port_size(self._ptr())

    def get_system(self):
        """The system the port belongs to."""
        return self._system

    def Eval(self, context, copy=True):
        """The port's value in context (the system's own context). A numpy copy
        by default, as pydrake returns; copy=False gives a read-only view of
        the context's cache entry instead (no copy; it keeps the context
        alive), which holds the value of the latest evaluation: a later
        Eval after the context changed rewrites it in place."""
        ctx = context._ptr()
        value_type = lib.teal_output_port_type(self._ptr())
        if value_type != ffi.NULL:  # an abstract port: the Python object
            out = ffi.new("const void **")
            check(lib.teal_eval_abstract_output(self._system._sys_ptr(), ctx, self._index, out),
                  lib.teal_context_error(ctx))
            return abstract.read_port_value(value_type, out[0], f"port '{self.get_name()}'")
        out = ffi.new("const double **")
        check(lib.teal_eval_vector_output(self._system._sys_ptr(), ctx, self._index, out),
              lib.teal_context_error(ctx))
        return context._array(out[0], self.size(), copy)


class System:
    """A Teal system (leaf or diagram); see the subclasses for constructors."""

    def __init__(self, handle):
        self._h = handle

    def _sys_ptr(self):
        return self._h.get()

    def _keepalive(self):
        """The handle that keeps this system's C object alive."""
        return self._h

    def get_name(self):
        """The system's name."""
        return ffi.string(lib.teal_system_name(self._sys_ptr())).decode()

    def num_input_ports(self):
        """Number of input ports."""
        return lib.teal_system_num_input_ports(self._sys_ptr())

    def num_output_ports(self):
        """Number of output ports."""
        return lib.teal_system_num_output_ports(self._sys_ptr())

    def _port_index(self, index, count, kind):
        if index is None:
            if count != 1:
                raise _core.TealInvalidArgumentError(
                    -1, f"system '{self.get_name()}' has {count} {kind} ports: name an index")
            return 0
        if not 0 <= index < count:
            raise _core.TealNotFoundError(
                -5, f"system '{self.get_name()}' has no {kind} port {index} (it has {count})")
        return index

    def get_input_port(self, index=None):
        """Input port index (the only one when index is omitted)."""
        return InputPort(self, self._port_index(index, self.num_input_ports(), "input"))

    def get_output_port(self, index=None):
        """Output port index (the only one when index is omitted)."""
        return OutputPort(self, self._port_index(index, self.num_output_ports(), "output"))

    def GetInputPort(self, name):
        """The input port called name."""
        p = lib.teal_system_input_port_by_name(self._sys_ptr(), cstr(name))
        if p == ffi.NULL:
            raise _core.TealNotFoundError(
                -5, f"system '{self.get_name()}' has no input port named '{name}'")
        return InputPort(self, lib.teal_input_port_index(p))

    def GetOutputPort(self, name):
        """The output port called name."""
        p = lib.teal_system_output_port_by_name(self._sys_ptr(), cstr(name))
        if p == ffi.NULL:
            raise _core.TealNotFoundError(
                -5, f"system '{self.get_name()}' has no output port named '{name}'")
        return OutputPort(self, lib.teal_output_port_index(p))

    def num_continuous_states(self):
        """Size of the continuous state x = [q; v; z]."""
        return lib.teal_system_num_continuous_states(self._sys_ptr(), ffi.NULL, ffi.NULL,
                                                     ffi.NULL)

    def num_discrete_states(self):
        """Total size of the discrete state."""
        return lib.teal_system_num_discrete_states(self._sys_ptr())

    def num_numeric_parameter_groups(self):
        """Number of numeric parameter groups (a leaf's)."""
        return lib.teal_system_num_numeric_parameters(self._sys_ptr())

    def CreateDefaultContext(self):
        """A new context holding the system's default values."""
        err = _core.new_error()
        ptr = lib.teal_context_new(self._sys_ptr(), err)
        if ptr == ffi.NULL:
            raise _core.error_from(err, -1, "CreateDefaultContext failed")
        return Context(_Handle(ptr, lib.teal_context_free, self._keepalive()), self)

    def GetMyContextFromRoot(self, root_context):
        """This system's context inside a diagram's root context."""
        return self.GetMyMutableContextFromRoot(root_context)

    def GetMyMutableContextFromRoot(self, root_context):
        """This system's (writable) context inside a diagram's root context."""
        root = root_context._ptr()
        if lib.teal_context_system(root) == self._sys_ptr():
            return root_context
        sub = lib.teal_context_subcontext_mut(root, self._sys_ptr())
        if sub == ffi.NULL:
            raise _core.error_from(lib.teal_context_error(root), -5,
                                   f"system '{self.get_name()}' is not inside that context")
        return Context(_Handle(sub, None, root_context._h), self)


class Context:
    """A context: time, state, parameters and fixed inputs of a system."""

    def __init__(self, handle, system):
        self._h = handle
        self._system = system

    def _ptr(self):
        return self._h.get()

    def _err(self):
        return lib.teal_context_error(self._ptr())

    def get_time(self):
        """The context's time."""
        return lib.teal_context_time(self._ptr())

    def SetTime(self, t):
        """Sets the time (root contexts only)."""
        check(lib.teal_context_set_time(self._ptr(), float(t)), self._err())

    def _view_owner(self):
        """The handle a view of this context's memory keeps alive."""
        return self._h

    def _array(self, ptr, n, copy=False):
        """n doubles of this context at ptr: a read-only view that keeps the
        context alive, or a copy when asked (or when no handle owns it)."""
        owner = self._view_owner()
        if copy or owner is None:
            return _core.from_doubles(ptr, n).view(VectorView)
        return _core.view(ptr, n, owner).view(VectorView)

    def _continuous_sizes(self):
        sizes = ffi.new("int[3]")
        lib.teal_system_num_continuous_states(lib.teal_context_system(self._ptr()), sizes,
                                              sizes + 1, sizes + 2)
        return sizes[0], sizes[1], sizes[2]

    def get_continuous_state_vector(self):
        """The continuous state x = [q; v; z]: a read-only view of the
        context's memory when x is contiguous there (a root context, or a
        subsystem whose q, v and z are adjacent), else a copy. The view
        follows later changes of the state (Drake's reference semantics);
        call CopyToVector() on it to keep a snapshot."""
        ctx = self._ptr()
        nq, nv, nz = self._continuous_sizes()
        parts = [(p, n) for p, n in ((lib.teal_context_q(ctx), nq), (lib.teal_context_v(ctx), nv),
                                     (lib.teal_context_z(ctx), nz)) if n]
        if not parts:
            return self._array(ffi.NULL, 0)
        start, offsets = parts[0][0], itertools.accumulate(n for _, n in parts)
        if all(p == start + off for (p, _), off in zip(parts[1:], offsets)):
            return self._array(start, nq + nv + nz)
        x = np.empty(nq + nv + nz)  # q, v and z apart in memory: a copy
        check(lib.teal_context_get_continuous_state(ctx, dptr(x), x.shape[0]), self._err())
        return x.view(VectorView)

    def SetContinuousState(self, x):
        """Copies x = [q; v; z] into the context."""
        v = _core.as_vector(x, what="continuous state")
        check(lib.teal_context_set_continuous_state(self._ptr(), dptr(v), v.shape[0]),
              self._err())

    def get_discrete_state_vector(self):
        """All discrete state (groups back to back): a read-only view of the
        context's memory that follows later updates (no copy)."""
        ctx = self._ptr()
        n = lib.teal_system_num_discrete_states(lib.teal_context_system(ctx))
        return self._array(lib.teal_context_discrete_state(ctx), n)

    def SetDiscreteState(self, group_or_value, value=None):
        """SetDiscreteState(xd) copies all discrete state in; SetDiscreteState(
        group, xd) one group of a leaf's context (Drake's two overloads)."""
        ctx = self._ptr()
        if value is not None:
            v = _core.as_vector(value, what="discrete state group")
            check(lib.teal_context_set_discrete_group(ctx, int(group_or_value), dptr(v),
                                                      v.shape[0]), self._err())
            return
        n = lib.teal_system_num_discrete_states(lib.teal_context_system(ctx))
        v = _core.as_vector(group_or_value, n, what="SetDiscreteState")
        if n:  # the _mut accessor marks the state changed before the copy
            ffi.memmove(lib.teal_context_discrete_state_mut(ctx), ffi.from_buffer(v), n * 8)

    def get_numeric_parameter(self, index):
        """Numeric parameter group index of a leaf's context: a read-only view
        (no copy) that follows later changes."""
        ctx = self._ptr()
        p = lib.teal_context_numeric_parameter(ctx, int(index))
        if p == ffi.NULL:
            raise _core.error_from(self._err(), -5, f"no numeric parameter {index}")
        return self._array(p, lib.teal_system_numeric_parameter_size(
            lib.teal_context_system(ctx), int(index)))

    def get_abstract_state(self, index):
        """Abstract state index of a leaf's context, as an AbstractValue
        holding the Python object (the context's reference, not a copy)."""
        return abstract.AbstractValue(abstract.read_state(self, index))

    def SetAbstractState(self, index, value):
        """Sets abstract state index to value (an object or AbstractValue)."""
        abstract.write_state(self, index, value)

    def get_mutable_numeric_parameter(self, index):
        """A writer for numeric parameter group index: SetFromVector,
        SetAtIndex and get_value, each going through Teal's setter so cached
        results that depend on the parameter are invalidated."""
        return MutableNumericParameter(self, int(index))

    def SetToDefaults(self):
        """Resets state and parameters to the system's defaults."""
        check(lib.teal_context_set_to_defaults(self._ptr()), self._err())


class Diagram(System):
    """A diagram built by DiagramBuilder.Build; it owns its subsystems."""

    def __init__(self, handle, systems=()):
        super().__init__(handle)
        self._systems = list(systems)

    def GetSystems(self):
        """The subsystems, in the order they were added."""
        return list(self._systems)

    def GetSubsystemByName(self, name):
        """The subsystem called name."""
        for system in self._systems:
            if system.get_name() == name:
                return system
        raise _core.TealNotFoundError(
            -5, f"diagram '{self.get_name()}' has no subsystem named '{name}'")


class DiagramBuilder:
    """Collects systems and connections, then builds a Diagram (Drake's DiagramBuilder)."""

    def __init__(self, name="diagram"):
        ptr = lib.teal_builder_new(cstr(name))
        if ptr == ffi.NULL:
            raise MemoryError("teal_builder_new failed")
        self._h = _Handle(ptr, lib.teal_builder_free)
        self._built = False
        self._systems = []

    def _ptr(self):
        if self._built:
            raise _core.TealStateError(-15, "DiagramBuilder: Build() was already called")
        return self._h.get()

    def _raise_builder_error(self, what):
        raise _core.error_from(lib.teal_builder_error(self._ptr()), -1, what)

    def AddSystem(self, system):
        """Adds system; the builder (then the diagram) owns it. Returns system."""
        h = system._keepalive()
        if h._free is None:
            raise _core.TealInvalidArgumentError(
                -1, f"AddSystem: system '{system.get_name()}' already belongs to a builder")
        b = self._ptr()
        if lib.teal_builder_add(b, system._sys_ptr()) == ffi.NULL:
            h.kill("this system was freed when DiagramBuilder.AddSystem failed")
            self._raise_builder_error("AddSystem failed")
        h.give_to(self._h)
        self._systems.append(system)
        return system

    def Connect(self, src, dst):
        """Connects an output port to an input port."""
        b = self._ptr()
        if lib.teal_builder_connect(b, src._ptr(), dst._ptr()) < 0:
            self._raise_builder_error("Connect failed")

    def ExportInput(self, port, name):
        """Exposes a subsystem's input as a diagram input called name."""
        if lib.teal_builder_export_input(self._ptr(), port._ptr(), cstr(name)) < 0:
            self._raise_builder_error("ExportInput failed")

    def ExportOutput(self, port, name):
        """Exposes a subsystem's output as a diagram output called name."""
        if lib.teal_builder_export_output(self._ptr(), port._ptr(), cstr(name)) < 0:
            self._raise_builder_error("ExportOutput failed")

    def Build(self):
        """Builds the diagram; the builder cannot be used afterwards."""
        err = _core.new_error()
        ptr = lib.teal_builder_build(self._ptr(), err)
        self._built = True
        if ptr == ffi.NULL:
            self._h.kill("this object was freed when DiagramBuilder.Build failed: "
                         + ffi.string(err.message).decode())
            raise _core.error_from(err, -1, "Build failed")
        diagram = _Handle(ptr, lib.teal_system_free)
        self._h.give_to(diagram)
        systems, self._systems = self._systems, []
        return Diagram(diagram, systems)
