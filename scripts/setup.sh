#!/usr/bin/env bash
# Install the Debian packages Teal needs to build and test.
# Quick and silent-ish when everything is already installed.
set -euo pipefail

# graphviz: the tests check that dot accepts the Graphviz text Teal writes;
# coinor-libipopt-dev: Ipopt, the NLP solver of trajectory optimization
# (optional in CMake, TEAL_WITH_IPOPT, but CI builds and tests with it);
# libjs-three and libjs-dygraphs: the replay pages inline three.js and
# dygraphs from them; chromium: the browser test of the replay pages
# (tests/browser); libassimp-dev and libqhull-dev: mesh files and their convex
# hulls (geometry/shapes/mesh_*.h); libmujoco-dev: MuJoCo, never linked into
# the library, is the peer the benches measure against and an independent
# reference in the tests (bench_mjcf_mujoco compares M(q) and bias forces of
# every MJCF test model with MuJoCo's; bench_constraints runs as a bench only).
packages=(cmake pkg-config libgsl-dev libopenblas-dev liblapacke-dev libxml2-dev libassimp-dev
  libqhull-dev libmujoco-dev check doxygen
  graphviz coinor-libipopt-dev libjs-three libjs-dygraphs chromium
  # the Python package (python/) for /usr/bin/python3: cffi builds it, numpy
  # carries its arrays, pytest runs its tests, setuptools installs it offline
  # (matplotlib: python/examples/plot_acrobot.py and its test); python3 also
  # drives the browser test
  python3 python3-dev python3-cffi python3-numpy python3-pytest python3-setuptools
  python3-matplotlib)

log() { printf '[setup] %s\n' "$*"; }

if ! command -v dpkg >/dev/null 2>&1; then
  log "dpkg not found: not a Debian-based system, skipping package checks."
  log "Make sure a C11 compiler, make, cmake, pkg-config, GSL, OpenBLAS, LAPACKE and Check are installed."
  exit 0
fi

is_installed() {
  dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed$'
}

missing=()

# A compiler toolchain: build-essential, or at least gcc, make and libc6-dev.
if ! is_installed build-essential; then
  if ! is_installed gcc || ! is_installed make || ! is_installed libc6-dev; then
    missing+=(build-essential)
  fi
fi

for pkg in "${packages[@]}"; do
  if ! is_installed "$pkg"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  log "all build dependencies are installed."
  exit 0
fi

log "missing packages: ${missing[*]}"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    log "error: not running as root and sudo is not available; install as root: ${missing[*]}" >&2
    exit 1
  fi
fi

log "running apt-get update"
"${sudo_cmd[@]}" apt-get update
log "installing: ${missing[*]}"
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
log "installed: ${missing[*]}"
