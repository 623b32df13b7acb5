"""Teal from Python, with pydrake's names.

Port Drake code by changing its imports to ``from teal import ...``: the
classes and functions below keep Drake's names and argument order. Arrays go in
and come out as numpy float64 arrays; every Teal error is raised as a
TealError (or a subclass per code) carrying Teal's message.
"""
from teal._core import (TealCallbackError, TealError, TealInvalidArgumentError,
                        TealNonFiniteError, TealNotConnectedError, TealNotFoundError,
                        TealParseError, TealSizeError, TealStateError, alloc_count, strerror)
from teal.analysis import (FIRST_PORT, NO_PORT, DiscreteTimeLinearQuadraticRegulator,
                           Linearize, LinearQuadraticRegulator, LogVectorOutput, Simulator,
                           SimulatorStatus, VectorLog, VectorLogSink)
from teal.framework import Context, Diagram, DiagramBuilder, InputPort, OutputPort, System
from teal.leaf import BasicVector, LeafSystem
from teal.multibody import (AddMultibodyPlantSceneGraph, ContactResults, InverseDynamicsController,
                             MultibodyPlant, Parser, PointPairContactInfo, SceneGraph)
from teal.primitives import (Adder, ConstantVectorSource, Gain, LinearSystem, PidController,
                             Saturation, ZeroOrderHold)

__all__ = [
    "AddMultibodyPlantSceneGraph",
    "Adder",
    "BasicVector",
    "ConstantVectorSource",
    "ContactResults",
    "Context",
    "Diagram",
    "DiagramBuilder",
    "DiscreteTimeLinearQuadraticRegulator",
    "FIRST_PORT",
    "Gain",
    "InputPort",
    "InverseDynamicsController",
    "LeafSystem",
    "LinearQuadraticRegulator",
    "LinearSystem",
    "Linearize",
    "LogVectorOutput",
    "MultibodyPlant",
    "NO_PORT",
    "OutputPort",
    "Parser",
    "PidController",
    "PointPairContactInfo",
    "Saturation",
    "SceneGraph",
    "Simulator",
    "SimulatorStatus",
    "System",
    "TealCallbackError",
    "TealError",
    "TealInvalidArgumentError",
    "TealNonFiniteError",
    "TealNotConnectedError",
    "TealNotFoundError",
    "TealParseError",
    "TealSizeError",
    "TealStateError",
    "VectorLog",
    "VectorLogSink",
    "ZeroOrderHold",
    "alloc_count",
    "strerror",
]
