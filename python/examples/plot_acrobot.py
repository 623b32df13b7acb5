"""Runs the acrobot LQR example and saves the logged joint angles as a PNG
with matplotlib (Debian python3-matplotlib). Usage: plot_acrobot.py [out.png]"""
import os
import runpy
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402


def main(out="acrobot_lqr.png", model="acrobot.urdf"):
    example = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                          "acrobot_lqr.py"))
    _, _, log = example["main"](model, 5.0, (3.19, -0.03), return_log=True)
    t, x = log.sample_times(), log.data()
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(t, x[0] - np.pi, label="shoulder q - pi")
    ax.plot(t, x[1], label="elbow q")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("angle (rad)")
    ax.set_title("Acrobot balanced by LQR (Teal from Python)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"wrote {out} ({len(t)} samples)")
    return out


if __name__ == "__main__":
    main(*sys.argv[1:2])
