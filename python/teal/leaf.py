"""Leaf systems written in Python (Drake's LeafSystem subclassed in pydrake).

C calls back into Python through cffi's extern "Python" functions. A Python
exception raised in a callback makes it return TEAL_ECALLBACK: the C call
stops (the simulator keeps the last accepted state in its context) and the
exception is raised again, traceback included, from the Python call that
started it (AdvanceTo, Eval, ...), with Teal's message added as a note.
"""
import numpy as np

from teal import _core, abstract
from teal._core import _Handle, check, cstr, ffi, lib
from teal.framework import Context, InputPort, OutputPort, System, auto_name

TEAL_ECALLBACK = -16


class BasicVector:
    """A writable vector over C memory, valid during one callback (Drake's
    BasicVector as handed to output, derivative and update callbacks)."""

    def __init__(self, ptr_or_value, n=None):
        if n is None:  # BasicVector(values): a model value, as pydrake's
            self._value = np.array(ptr_or_value, dtype=np.float64).reshape(-1)
        else:
            self._value = np.frombuffer(ffi.buffer(ptr_or_value, n * 8), dtype=np.float64) \
                if n else np.zeros(0)

    def size(self):
        """Number of entries."""
        return self._value.shape[0]

    def get_value(self):
        """A read-only view of the entries."""
        view = self._value.view()
        view.flags.writeable = False
        return view

    def get_mutable_value(self):
        """A writable numpy view of the entries (no copy)."""
        return self._value

    def CopyToVector(self):
        """A numpy copy."""
        return self._value.copy()

    def SetFromVector(self, value):
        """Copies value in (same size)."""
        self._value[:] = _core.as_vector(value, self.size(), what="SetFromVector")

    def SetAtIndex(self, i, value):
        """Sets entry i."""
        self._value[i] = value

    def GetAtIndex(self, i):
        """Entry i."""
        return self._value[i]

    def get_mutable_vector(self):
        """Itself (Drake's ContinuousState / DiscreteValues accessor)."""
        return self

    def set_value(self, value):
        """Copies value in (Drake's DiscreteValues.set_value)."""
        self.SetFromVector(value)


def _report(ctx, code, text):
    lib.teal_context_report_error(ctx, code, b"Python %s", ffi.new("char[]", text.encode()))
    return code


def _callback(fn, ctx, *args):
    """Runs a Python callback for C; returns a Teal status (an EventStatus
    the callback returns is honoured: termination stops the run as Teal's
    TEAL_STOP, failure fails it with the status's message)."""
    try:
        result = fn(*args)
    except BaseException as exc:  # noqa: B902 -- every exception goes back to Python
        _core.set_callback_error(exc)
        return _report(ctx, TEAL_ECALLBACK, f"{type(exc).__name__}: {exc}")
    if isinstance(result, EventStatus):
        if result.severity == EventStatus.kFailed:
            return _report(ctx, TEAL_ECALLBACK, f"EventStatus.Failed: {result.message}")
        if result.severity == EventStatus.kReachedTermination:
            return lib.TEAL_STOP
    return 0


class EventStatus:
    """What an event handler or monitor returns (Drake's EventStatus); None
    counts as Succeeded."""

    kDidNothing, kSucceeded, kReachedTermination, kFailed = 0, 1, 2, 3

    def __init__(self, severity, message=""):
        self.severity = severity
        self.message = message

    @staticmethod
    def DidNothing():
        """Nothing to do."""
        return EventStatus(EventStatus.kDidNothing)

    @staticmethod
    def Succeeded():
        """Handled; go on."""
        return EventStatus(EventStatus.kSucceeded)

    @staticmethod
    def ReachedTermination(system, message):
        """Stop the simulation normally (AdvanceTo returns early)."""
        return EventStatus(EventStatus.kReachedTermination, message)

    @staticmethod
    def Failed(system, message):
        """Stop the simulation with an error (AdvanceTo raises TealCallbackError)."""
        return EventStatus(EventStatus.kFailed, message)


class _CallbackContext(Context):
    """The const context C hands a callback: valid during that call only."""

    def __init__(self, raw, system):  # no handle: C owns it for the call
        self._raw = raw
        self._system = system

    def _ptr(self):
        return self._raw

    def _view_owner(self):
        return None  # no handle: arrays read from a callback context are copies

    def get_continuous_state_vector(self):
        n = self._system._num_continuous
        x = np.empty(n)
        check(lib.teal_context_get_continuous_state(self._raw, _core.dptr(x), n),
              lib.teal_context_error(self._raw))
        return x


def _callback_context(leaf, ctx):
    return _CallbackContext(ctx, leaf)


@ffi.def_extern()
def teal_py_vector_calc(sys, ctx, out, user):
    """C entry point of a Python output callback."""
    leaf, calc, size = ffi.from_handle(user)
    return _callback(calc, ctx, _callback_context(leaf, ctx), BasicVector(out, size))


@ffi.def_extern()
def teal_py_abstract_calc(sys, ctx, out, user):
    """C entry point of a Python abstract output callback."""
    leaf, calc = ffi.from_handle(user)
    return _callback(calc, ctx, _callback_context(leaf, ctx), abstract._OutputValue(out))


class State:
    """The next state an unrestricted update writes (Drake's State): its
    continuous, discrete and abstract parts, valid during the callback."""

    def __init__(self, leaf, view):
        self._leaf = leaf
        self._view = view

    def get_mutable_abstract_state(self, index):
        """Abstract state index: get_value() / set_value(obj)."""
        if not 0 <= index < self._leaf._num_abstract:
            raise _core.TealNotFoundError(-5, f"no abstract state {index}")
        return abstract._OutputValue(self._view.xa[index])

    def get_abstract_state(self, index):
        """Abstract state index (as get_mutable_abstract_state)."""
        return self.get_mutable_abstract_state(index)

    def get_mutable_discrete_state(self):
        """All discrete state (a BasicVector holding the current values)."""
        return BasicVector(self._view.xd, self._leaf._num_discrete)

    def get_mutable_continuous_state(self):
        """The continuous state x = [q; v; z] (holding the current values);
        what is written here replaces x when the update is applied."""
        return ContinuousState(self._view, self._leaf._continuous_sizes)


class ContinuousState:
    """The next continuous state an unrestricted update writes (Drake's
    ContinuousState as the State hands it out): x = [q; v; z], valid during
    the callback. q, v and z may sit apart in memory, so the whole vector is
    read and written through get_value / SetFromVector / SetAtIndex."""

    def __init__(self, view, sizes):
        self._parts = [BasicVector(ptr, n) for ptr, n in zip((view.q, view.v, view.z), sizes)]

    def size(self):
        """nq + nv + nz."""
        return sum(part.size() for part in self._parts)

    def get_vector(self):
        """Itself (pydrake's ContinuousState.get_vector)."""
        return self

    get_mutable_vector = get_vector

    def get_generalized_position(self):
        """q, writable (no copy)."""
        return self._parts[0]

    def get_generalized_velocity(self):
        """v, writable (no copy)."""
        return self._parts[1]

    def get_misc_continuous_state(self):
        """z, writable (no copy)."""
        return self._parts[2]

    def CopyToVector(self):
        """x as one numpy copy."""
        return np.concatenate([part.CopyToVector() for part in self._parts])

    get_value = CopyToVector

    def SetFromVector(self, value):
        """Writes all of x (same size)."""
        x = _core.as_vector(value, self.size(), what="ContinuousState.SetFromVector")
        start = 0
        for part in self._parts:
            part.SetFromVector(x[start:start + part.size()])
            start += part.size()

    def SetAtIndex(self, i, value):
        """Sets entry i of x."""
        if not 0 <= i < self.size():
            raise _core.TealNotFoundError(
                -5, f"ContinuousState.SetAtIndex: no entry {i} (the state has {self.size()})")
        for part in self._parts:
            if i < part.size():
                part.SetAtIndex(i, value)
                return
            i -= part.size()


@ffi.def_extern()
def teal_py_unrestricted_update(sys, ctx, next_state, user):
    """C entry point of an unrestricted update."""
    leaf, update = ffi.from_handle(user)
    return _callback(update, ctx, _callback_context(leaf, ctx), State(leaf, next_state))


@ffi.def_extern()
def teal_py_derivatives(sys, ctx, xcdot, user):
    """C entry point of DoCalcTimeDerivatives."""
    leaf = ffi.from_handle(user)
    return _callback(leaf.DoCalcTimeDerivatives, ctx, _callback_context(leaf, ctx),
                     leaf._derivatives_vector(xcdot.q))


@ffi.def_extern()
def teal_py_discrete_update(sys, ctx, xd_next, user):
    """C entry point of a periodic discrete update."""
    leaf, update = ffi.from_handle(user)
    return _callback(update, ctx, _callback_context(leaf, ctx),
                     BasicVector(xd_next, leaf._num_discrete))


@ffi.def_extern()
def teal_py_publish(sys, ctx, user):
    """C entry point of a publish event (periodic, per-step, forced, initialization)."""
    leaf, publish = ffi.from_handle(user)
    return _callback(publish, ctx, _callback_context(leaf, ctx))


@ffi.def_extern()
def teal_py_witness(sys, ctx, value, user):
    """C entry point of a witness function's value."""
    leaf, witness = ffi.from_handle(user)

    def calc(context):
        value[0] = float(witness.calc(context))
    return _callback(calc, ctx, _callback_context(leaf, ctx))


@ffi.def_extern()
def teal_py_witness_publish(sys, ctx, user):
    """C entry point of a witness-triggered publish."""
    leaf, witness = ffi.from_handle(user)
    return _callback(witness.event.callback, ctx, _callback_context(leaf, ctx))


@ffi.def_extern()
def teal_py_witness_update(sys, ctx, xd_next, user):
    """C entry point of a witness-triggered discrete update."""
    leaf, witness = ffi.from_handle(user)
    return _callback(witness.event.callback, ctx, _callback_context(leaf, ctx),
                     BasicVector(xd_next, leaf._num_discrete))


class PublishEvent:
    """A publish handler callback(context) for a witness function."""

    def __init__(self, callback):
        self.callback = callback


class DiscreteUpdateEvent:
    """A discrete update callback(context, discrete_state) for a witness function."""

    def __init__(self, callback):
        self.callback = callback


class WitnessFunctionDirection:
    """Which zero crossings of a witness trigger its event (Drake's names)."""

    kPositiveThenNonPositive = 0
    kNegativeThenNonNegative = 1
    kCrossesZero = 2


class WitnessFunction:
    """A witness declared by LeafSystem.MakeWitnessFunction."""

    def __init__(self, description, direction_type, calc, event):
        self._description = description
        self.direction_type = direction_type
        self.calc = calc
        self.event = event

    def description(self):
        """The description given."""
        return self._description


class LeafSystem(System):
    """Subclass it and declare ports, state and events in __init__, as in
    pydrake; Teal finalizes the leaf when it is first used as a system."""

    def __init__(self, name=None):
        ptr = lib.teal_leaf_new(cstr(name or auto_name(type(self).__name__.lower())), ffi.NULL,
                                ffi.NULL)
        if ptr == ffi.NULL:
            raise MemoryError("teal_leaf_new failed")
        super().__init__(_Handle(ptr, lib.teal_system_free))
        self._finalized = False
        self._num_continuous = 0
        self._continuous_sizes = (0, 0, 0)
        self._num_discrete = 0
        self._xcdot_views = {}
        self._num_abstract = 0

    def _derivatives_vector(self, ptr):
        """The BasicVector over the n doubles C hands DoCalcTimeDerivatives at
        ptr. The integrators reuse a few buffers, so the views are kept by
        address: a view of the same address and size is the same memory, and
        it is used only during the callback, as a new one would be."""
        address = int(ffi.cast("uintptr_t", ptr))
        vector = self._xcdot_views.get(address)
        if vector is None:
            vector = BasicVector(ptr, self._num_continuous)
            if len(self._xcdot_views) < 32:
                self._xcdot_views[address] = vector
        return vector

    def _declaring(self):
        if self._finalized:
            raise _core.TealStateError(
                -15, f"{type(self).__name__}: declarations must come before the first use")
        return self._h.get()

    def _sys_ptr(self):
        ptr = self._h.get()
        if not self._finalized:
            self._finalized = True
            check(lib.teal_leaf_finalize(ptr), lib.teal_system_error(ptr),
                  f"{type(self).__name__}: finalize failed")
        return ptr

    def _declared(self, rc):
        ptr = self._h.get()
        return check(rc, lib.teal_system_error(ptr))

    def _user(self, obj):
        handle = ffi.new_handle(obj)
        self._h.keep.append(handle)  # lives as long as the C system
        return handle

    def DeclareVectorInputPort(self, name, size):
        """Declares a vector input port; returns it."""
        ptr = self._declaring()
        index = self._declared(lib.teal_leaf_declare_vector_input(ptr, cstr(name), int(size)))
        return InputPort(self, index)

    def DeclareVectorOutputPort(self, name, size, calc, prerequisites_of_calc=None):
        """Declares a vector output computed by calc(context, output), output a
        BasicVector; returns the port. prerequisites_of_calc is a set of tickets
        (xc_ticket(), ...), by default all sources: an output that does not
        read an input must say so, or feedback around it is an algebraic loop."""
        ptr = self._declaring()
        user = self._user((self, calc, int(size)))
        tickets = sorted(prerequisites_of_calc or ())
        prereqs = ffi.new("teal_ticket[]", tickets) if tickets else ffi.NULL
        index = self._declared(lib.teal_leaf_declare_vector_output(
            ptr, cstr(name), int(size), lib.teal_py_vector_calc, user, prereqs, len(tickets)))
        return OutputPort(self, index)

    def DeclareAbstractState(self, model_value):
        """Declares an abstract state holding a Python object (default:
        model_value's object, an AbstractValue or the object); returns its
        index. Read it with context.get_abstract_state(index).get_value();
        change it in an unrestricted update or with SetAbstractState."""
        index = self._declared(abstract.declare_state(self._declaring(), model_value))
        self._num_abstract += 1
        return index

    def _unrestricted(self, declare, update, *args):
        ptr = self._declaring()
        self._declared(declare(ptr, *args, lib.teal_py_unrestricted_update,
                               self._user((self, update))))

    def DeclarePeriodicUnrestrictedUpdateEvent(self, period_sec, offset_sec, update):
        """update(context, state) writes the next abstract and discrete state
        (state.get_mutable_abstract_state(i).set_value(...),
        state.get_mutable_discrete_state()) every period_sec from offset_sec."""
        self._unrestricted(lib.teal_leaf_declare_periodic_unrestricted_update, update,
                           float(period_sec), float(offset_sec))

    def DeclarePerStepUnrestrictedUpdateEvent(self, update):
        """update(context, state) at every simulator step."""
        self._unrestricted(lib.teal_leaf_declare_per_step_unrestricted_update, update)

    def DeclareInitializationUnrestrictedUpdateEvent(self, update):
        """update(context, state) once, when a simulation is initialized."""
        self._unrestricted(lib.teal_leaf_declare_initialization_unrestricted_update, update)

    def DeclareAbstractInputPort(self, name, model_value=None):
        """Declares an input carrying a Python object (model_value, an
        AbstractValue, is accepted for pydrake's signature; an unconnected
        port still has no value); Eval returns the object."""
        ptr = self._declaring()
        index = self._declared(lib.teal_leaf_declare_abstract_input(ptr, cstr(name),
                                                                    abstract.PYTHON_OBJECT))
        return InputPort(self, index)

    def DeclareAbstractOutputPort(self, name, alloc, calc, prerequisites_of_calc=None):
        """Declares an output carrying a Python object: calc(context, output)
        calls output.set_value(obj). alloc (pydrake's allocator, a callable
        or an AbstractValue) is not needed: the value starts as None.
        prerequisites_of_calc as for DeclareVectorOutputPort."""
        ptr = self._declaring()
        user = self._user((self, calc))
        tickets = sorted(prerequisites_of_calc or ())
        prereqs = ffi.new("teal_ticket[]", tickets) if tickets else ffi.NULL
        index = self._declared(lib.teal_leaf_declare_abstract_output(
            ptr, cstr(name), abstract.PYTHON_OBJECT, lib.teal_py_abstract_calc, user, prereqs,
            len(tickets)))
        return OutputPort(self, index)

    def DeclareContinuousState(self, num_q, num_v=None, num_z=None, model_value=None):
        """Declares x = [q; v; z]: (n) for n miscellaneous states, or (nq, nv, nz);
        model_value is the default (zeros when omitted). Override
        DoCalcTimeDerivatives(context, derivatives) to give x'."""
        ptr = self._declaring()
        nq, nv, nz = (0, 0, int(num_q)) if num_v is None else (int(num_q), int(num_v), int(num_z))
        n = nq + nv + nz
        x0 = _core.as_vector(np.zeros(n) if model_value is None else model_value, n,
                             what="DeclareContinuousState model_value")
        self._declared(lib.teal_leaf_declare_continuous_state(ptr, nq, nv, nz, _core.dptr(x0)))
        self._declared(lib.teal_leaf_set_time_derivatives(ptr, lib.teal_py_derivatives,
                                                          self._user(self)))
        self._num_continuous = n
        self._continuous_sizes = (nq, nv, nz)

    def DeclareDiscreteState(self, model_value):
        """Declares a discrete state group: an int size or a default vector."""
        ptr = self._declaring()
        x0 = _core.as_vector(np.zeros(model_value) if np.ndim(model_value) == 0 and
                             isinstance(model_value, (int, np.integer)) else model_value,
                             what="DeclareDiscreteState")
        index = self._declared(lib.teal_leaf_declare_discrete_state(ptr, x0.shape[0],
                                                                    _core.dptr(x0)))
        self._num_discrete += x0.shape[0]
        return index

    def DeclarePeriodicDiscreteUpdateEvent(self, period_sec, offset_sec, update):
        """update(context, discrete_state) writes the next value of all
        discrete state every period_sec from offset_sec."""
        ptr = self._declaring()
        self._declared(lib.teal_leaf_declare_periodic_discrete_update(
            ptr, float(period_sec), float(offset_sec), lib.teal_py_discrete_update,
            self._user((self, update))))

    def DeclareNumericParameter(self, model_vector):
        """Declares a numeric parameter group with default model_vector (a
        BasicVector or array); returns its index. Read it with
        context.get_numeric_parameter(index)."""
        ptr = self._declaring()
        value = model_vector.get_value() if isinstance(model_vector, BasicVector) else \
            model_vector
        p0 = _core.as_vector(value, what="DeclareNumericParameter")
        return self._declared(lib.teal_leaf_declare_numeric_parameter(ptr, p0.shape[0],
                                                                       _core.dptr(p0)))

    @staticmethod
    def GetNumericParameter(context, index):
        """context.get_numeric_parameter(index)."""
        return context.get_numeric_parameter(index)

    def _publish(self, declare, publish, *args):
        ptr = self._declaring()
        self._declared(declare(ptr, *args, lib.teal_py_publish, self._user((self, publish))))

    def DeclarePeriodicPublishEvent(self, period_sec, offset_sec, publish):
        """publish(context) runs every period_sec from offset_sec; it may
        return an EventStatus (ReachedTermination stops the run)."""
        self._publish(lib.teal_leaf_declare_periodic_publish, publish, float(period_sec),
                      float(offset_sec))

    def DeclarePerStepPublishEvent(self, publish):
        """publish(context) runs after every simulator step."""
        self._publish(lib.teal_leaf_declare_per_step_publish, publish)

    def DeclareForcedPublishEvent(self, publish):
        """publish(context) runs when forced: ForcedPublish(context), or after
        every step of a simulator with set_publish_every_time_step(True)."""
        self._publish(lib.teal_leaf_declare_forced_publish, publish)

    def DeclareInitializationPublishEvent(self, publish):
        """publish(context) runs once when a simulation is initialized."""
        self._publish(lib.teal_leaf_declare_initialization_publish, publish)

    def DeclareInitializationDiscreteUpdateEvent(self, update):
        """update(context, discrete_state) runs once at initialization."""
        ptr = self._declaring()
        self._declared(lib.teal_leaf_declare_initialization_discrete_update(
            ptr, lib.teal_py_discrete_update, self._user((self, update))))

    def MakeWitnessFunction(self, description, direction_type, calc, event):
        """Declares a witness calc(context) -> float whose zero crossings in
        direction_type (a WitnessFunctionDirection) the simulator isolates
        before running event (a PublishEvent or DiscreteUpdateEvent); returns
        it. Unlike Drake, declaring is enough: no DoGetWitnessFunctions."""
        ptr = self._declaring()
        witness = WitnessFunction(description, int(direction_type), calc, event)
        user = self._user((self, witness))
        if isinstance(event, PublishEvent):
            rc = lib.teal_leaf_declare_witness_publish(ptr, witness.direction_type,
                                                       lib.teal_py_witness,
                                                       lib.teal_py_witness_publish, user)
        elif isinstance(event, DiscreteUpdateEvent):
            rc = lib.teal_leaf_declare_witness_discrete_update(ptr, witness.direction_type,
                                                               lib.teal_py_witness,
                                                               lib.teal_py_witness_update, user)
        else:
            raise _core.TealInvalidArgumentError(
                -1, "MakeWitnessFunction: event must be a PublishEvent or DiscreteUpdateEvent")
        self._declared(rc)
        return witness

    def ForcedPublish(self, context):
        """Runs the forced publishes of this leaf in context (its own)."""
        ctx = context._ptr()
        _core._pending_callback_errors.clear()
        check(lib.teal_force_publish(self._sys_ptr(), ctx), lib.teal_context_error(ctx))

    @staticmethod
    def nothing_ticket():
        """Depends on nothing."""
        return lib.TEAL_TICKET_NOTHING

    @staticmethod
    def time_ticket():
        """Depends on the time."""
        return lib.TEAL_TICKET_TIME

    @staticmethod
    def xc_ticket():
        """Depends on the continuous state."""
        return lib.TEAL_TICKET_XC

    @staticmethod
    def xd_ticket():
        """Depends on the discrete state."""
        return lib.TEAL_TICKET_XD

    @staticmethod
    def all_state_ticket():
        """Depends on every kind of state."""
        return lib.TEAL_TICKET_ALL_STATE

    @staticmethod
    def all_parameters_ticket():
        """Depends on the numeric parameters."""
        return lib.TEAL_TICKET_ALL_PARAMETERS

    @staticmethod
    def all_input_ports_ticket():
        """Depends on every input."""
        return lib.TEAL_TICKET_ALL_INPUTS

    @staticmethod
    def all_sources_ticket():
        """Depends on everything (the default)."""
        return lib.TEAL_TICKET_ALL_SOURCES

    @staticmethod
    def input_port_ticket(index):
        """Depends on input port index."""
        return lib.TEAL_TICKET_INPUT_BASE + int(index)

    def DoCalcTimeDerivatives(self, context, derivatives):
        """Override: write x' into derivatives (a BasicVector of x's size)."""
        raise NotImplementedError(f"{type(self).__name__} must define DoCalcTimeDerivatives")
