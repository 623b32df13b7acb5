"""Shared fixtures: where the models and the C programs are."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "models")
os.environ.setdefault("TEAL_MODEL_PATH", MODELS)


@pytest.fixture
def acrobot_urdf():
    """The acrobot model the C flagship uses."""
    return os.path.join(MODELS, "acrobot.urdf")


@pytest.fixture
def build_dir():
    """The CMake build folder (TEAL_BUILD_DIR, else build/ in the repository)."""
    return os.environ.get("TEAL_BUILD_DIR", os.path.join(ROOT, "build"))
