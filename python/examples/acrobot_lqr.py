"""examples/acrobot_lqr.c in Python with pydrake's names: balances the acrobot by LQR, prints
the same gain K. Usage: acrobot_lqr.py [model.urdf [replay.html]] (writes the replay page)."""
import sys

import numpy as np

from teal import (AddDefaultVisualization, AddMultibodyPlantSceneGraph, DiagramBuilder,
                  LinearQuadraticRegulator, LogVectorOutput, Parser, Simulator)


def main(model="acrobot.urdf", seconds=5.0, start=(np.pi + 0.05, -0.03), return_log=False,
         replay=None):
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
    print("LQR gain K = [" + " ".join(f"{k:.3f}" for k in -lqr.D()[0]) + "]")
    builder.Connect(plant.get_state_output_port(), lqr.get_input_port())
    builder.Connect(lqr.get_output_port(), plant.get_actuation_input_port())
    logger = LogVectorOutput(plant.get_state_output_port(), builder, 0.01)
    visualizer = AddDefaultVisualization(builder)  # a frame every 1/60 s
    simulator = Simulator(builder.Build())
    root = simulator.get_mutable_context()
    plant.SetPositions(plant.GetMyMutableContextFromRoot(root), start)
    simulator.AdvanceTo(seconds)
    x, log = plant.GetPositionsAndVelocities(plant.GetMyContextFromRoot(root)), logger.FindLog(root)
    print(f"final state {x}, {log.data().shape[1]} samples logged")
    if replay:  # open it in a browser: the scene with the state plotted beside it
        visualizer.write_html(root, replay, title="acrobot LQR", plots=[log])
    return (-lqr.D(), x, log) if return_log else (-lqr.D(), x)


if __name__ == "__main__":
    main(*sys.argv[1:2], replay=sys.argv[2] if len(sys.argv) > 2 else None)
