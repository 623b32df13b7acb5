"""Balance Spong's acrobot upright with LQR: examples/acrobot_lqr.c in Python,
with pydrake's names (Drake's acrobot run_lqr). Prints the same gain K."""
import sys

import numpy as np

from teal import (AddMultibodyPlantSceneGraph, DiagramBuilder, LinearQuadraticRegulator,
                  LogVectorOutput, Parser, Simulator)


def main(model="acrobot.urdf", seconds=5.0, start=(np.pi + 0.05, -0.03), return_log=False):
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, time_step=1e-3)
    Parser(plant).AddModels(model)
    plant.Finalize()
    context = plant.CreateDefaultContext()  # the upright, with u = 0
    plant.SetPositionsAndVelocities(context, [np.pi, 0.0, 0.0, 0.0])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    Q, R = np.diag([10.0, 10.0, 1.0, 1.0]), np.eye(1)
    lqr = builder.AddSystem(LinearQuadraticRegulator(
        plant, context, Q, R, input_port_index=plant.get_actuation_input_port().get_index()))
    K = -lqr.D()
    print("LQR gain K = [" + " ".join(f"{k:.3f}" for k in K[0]) + "]")
    builder.Connect(plant.get_state_output_port(), lqr.get_input_port())
    builder.Connect(lqr.get_output_port(), plant.get_actuation_input_port())
    logger = LogVectorOutput(plant.get_state_output_port(), builder, 0.01)
    simulator = Simulator(builder.Build())
    root = simulator.get_mutable_context()
    plant.SetPositions(plant.GetMyMutableContextFromRoot(root), start)
    simulator.AdvanceTo(seconds)
    x, log = plant.GetPositionsAndVelocities(plant.GetMyContextFromRoot(root)), logger.FindLog(root)
    print(f"final state {x}, {log.data().shape[1]} samples logged")
    return (K, x, log) if return_log else (K, x)


if __name__ == "__main__":
    main(*sys.argv[1:2])
