"""A pendulum written as a Python LeafSystem, balanced upright by LQR designed
from its own linearization (Drake's pendulum LQR, in pydrake's names)."""
import math

import numpy as np

from teal import DiagramBuilder, LeafSystem, LinearQuadraticRegulator, Simulator


class Pendulum(LeafSystem):
    """theta'' = -(g / l) sin(theta) - b theta' + tau / (m l^2), output [theta; theta']."""

    def __init__(self, g=9.81, length=1.0, mass=1.0, damping=0.1):
        LeafSystem.__init__(self)
        self.g, self.length, self.mass, self.damping = g, length, mass, damping
        self.tau = self.DeclareVectorInputPort("tau", 1)
        self.DeclareContinuousState(1, 1, 0)
        # the output reads only the state, so feedback through it is no loop
        self.DeclareVectorOutputPort("state", 2, self.CopyStateOut, {self.xc_ticket()})

    def CopyStateOut(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        theta, omega = context.get_continuous_state_vector()
        tau = self.tau.Eval(context)[0]
        alpha = (-self.g / self.length * math.sin(theta) - self.damping * omega
                 + tau / (self.mass * self.length**2))
        derivatives.get_mutable_vector().SetFromVector([omega, alpha])


def main(start=(math.pi - 0.3, 0.0), seconds=10.0):
    pendulum = Pendulum()
    context = pendulum.CreateDefaultContext()
    context.SetContinuousState([math.pi, 0.0])
    pendulum.get_input_port().FixValue(context, [0.0])
    lqr = LinearQuadraticRegulator(pendulum, context, np.diag([10.0, 1.0]), [[1.0]])
    print("LQR gain K =", -lqr.D()[0])
    builder = DiagramBuilder()
    builder.AddSystem(pendulum)
    builder.AddSystem(lqr)
    builder.Connect(pendulum.get_output_port(), lqr.get_input_port())
    builder.Connect(lqr.get_output_port(), pendulum.get_input_port())
    simulator = Simulator(builder.Build())
    root = simulator.get_mutable_context()
    pendulum.GetMyContextFromRoot(root).SetContinuousState(start)
    simulator.AdvanceTo(seconds)
    x = pendulum.GetMyContextFromRoot(root).get_continuous_state_vector()
    print(f"from theta = {start[0]:.3f}: after {seconds} s theta = {x[0]:.6f}, "
          f"theta' = {x[1]:.2e}")
    return x


if __name__ == "__main__":
    main()
