#!/usr/bin/env bash
# Set up, build and run Teal's flagship example.
# Arguments are passed on to the example program.
set -euo pipefail

EXAMPLE=acrobot_lqr

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash "$root/scripts/setup.sh"

echo "== configure (build) =="
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release

echo "== build $EXAMPLE =="
cmake --build "$root/build" -j2 --target "$EXAMPLE"

echo "== run $EXAMPLE =="
# the examples find their models through the run-time search path
TEAL_MODEL_PATH="$root/models${TEAL_MODEL_PATH:+:$TEAL_MODEL_PATH}" "$root/build/$EXAMPLE" "$@"
