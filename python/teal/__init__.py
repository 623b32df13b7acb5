"""Teal from Python, with pydrake's names.

Port Drake code by changing its imports to ``from teal import ...``: the
classes and functions below keep Drake's names and argument order. Arrays go in
and come out as numpy float64 arrays; every Teal error is raised as a
TealError (or a subclass per code) carrying Teal's message.
"""
from teal.abstract import AbstractValue
from teal._core import (TealCallbackError, TealError, TealInvalidArgumentError,
                        TealNonFiniteError, TealNotConnectedError, TealNotFoundError,
                        TealParseError, TealSizeError, TealStateError, alloc_count, strerror)
from teal.analysis import (FIRST_PORT, NO_PORT, DiscreteTimeLinearQuadraticRegulator,
                           GetIntegrationSchemes, IntegratorBase, Linearize,
                           LinearQuadraticRegulator, LogVectorOutput, ResetIntegratorFromFlags,
                           Simulator, SimulatorStatus, VectorLog, VectorLogSink)
from teal.estimators import (DiscreteTimeSteadyStateKalmanFilter, LuenbergerObserver,
                             SteadyStateKalmanFilter)
from teal.finite_horizon_lqr import (FiniteHorizonLinearQuadraticRegulator,
                                     FiniteHorizonLinearQuadraticRegulatorOptions,
                                     FiniteHorizonLinearQuadraticRegulatorResult,
                                     MakeFiniteHorizonLinearQuadraticRegulator)
from teal.framework import (Context, Diagram, DiagramBuilder, InputPort, MutableNumericParameter,
                            OutputPort, System, VectorView)
from teal.leaf import (BasicVector, DiscreteUpdateEvent, EventStatus, LeafSystem, PublishEvent,
                       WitnessFunction, WitnessFunctionDirection)
from teal.lqg import LinearQuadraticGaussianController
from teal.multibody import (AddMultibodyPlantSceneGraph, ContactResults, InverseDynamicsController,
                             MultibodyPlant, PointPairContactInfo, SceneGraph)
from teal.multibody_elements import Joint, RigidBody, RigidTransform
from teal.parsing import PackageMap, Parser
from teal.primitives import (Adder, ConstantVectorSource, Demultiplexer, FirstOrderLowPassFilter,
                             Gain, Integrator, LinearSystem, MatrixGain, Multiplexer,
                             PassThrough, PidController, PiecewisePolynomial, Saturation,
                             TrajectorySource, ZeroOrderHold)
from teal.sources import DiscreteDerivative, Ramp, RandomDistribution, RandomSource, Sine, Step
from teal.visualization import AddDefaultVisualization, Visualizer

__all__ = [
    "AbstractValue",
    "AddDefaultVisualization",
    "AddMultibodyPlantSceneGraph",
    "Adder",
    "BasicVector",
    "ConstantVectorSource",
    "ContactResults",
    "Context",
    "Demultiplexer",
    "Diagram",
    "DiagramBuilder",
    "DiscreteDerivative",
    "DiscreteTimeLinearQuadraticRegulator",
    "DiscreteTimeSteadyStateKalmanFilter",
    "DiscreteUpdateEvent",
    "EventStatus",
    "FIRST_PORT",
    "FiniteHorizonLinearQuadraticRegulator",
    "FiniteHorizonLinearQuadraticRegulatorOptions",
    "FiniteHorizonLinearQuadraticRegulatorResult",
    "FirstOrderLowPassFilter",
    "Gain",
    "GetIntegrationSchemes",
    "InputPort",
    "Integrator",
    "IntegratorBase",
    "InverseDynamicsController",
    "Joint",
    "LeafSystem",
    "LinearQuadraticGaussianController",
    "LinearQuadraticRegulator",
    "LinearSystem",
    "Linearize",
    "LogVectorOutput",
    "LuenbergerObserver",
    "MakeFiniteHorizonLinearQuadraticRegulator",
    "MatrixGain",
    "MultibodyPlant",
    "Multiplexer",
    "MutableNumericParameter",
    "NO_PORT",
    "OutputPort",
    "PackageMap",
    "Parser",
    "PassThrough",
    "PidController",
    "PiecewisePolynomial",
    "PointPairContactInfo",
    "PublishEvent",
    "Ramp",
    "RandomDistribution",
    "RandomSource",
    "ResetIntegratorFromFlags",
    "RigidBody",
    "RigidTransform",
    "Saturation",
    "SceneGraph",
    "Simulator",
    "SimulatorStatus",
    "Sine",
    "SteadyStateKalmanFilter",
    "Step",
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
    "TrajectorySource",
    "VectorLog",
    "VectorLogSink",
    "VectorView",
    "Visualizer",
    "WitnessFunction",
    "WitnessFunctionDirection",
    "ZeroOrderHold",
    "alloc_count",
    "strerror",
]
