#!/usr/bin/env bash
# Installs a built Teal into a temporary prefix and builds and runs a small
# program against it, once through pkg-config (shared library) and once
# through find_package(teal) (shared and static targets). Also checks that
# the public headers are installed under include/teal/ and the private
# *_internal.h ones are not.
#
#   bash scripts/check_install.sh [BUILD_DIR]   # default: build
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

echo "== install $build_dir into a temporary prefix =="
cmake --install "$build_dir" --prefix "$prefix" > "$work/install.log"

for header in teal.h teal_export.h math/transform.h framework/system.h systems/analysis/simulator.h \
    multibody/plant/plant_system.h multibody/algorithms/data.h geometry/scene_graph/scene_graph.h; do
  if [ ! -f "$prefix/include/teal/$header" ]; then
    echo "check_install: include/teal/$header was not installed" >&2
    exit 1
  fi
done
if find "$prefix/include" -name '*_internal.h' | grep -q .; then
  echo "check_install: private *_internal.h headers were installed:" >&2
  find "$prefix/include" -name '*_internal.h' >&2
  exit 1
fi

pc="$(find "$prefix" -name teal.pc | head -n 1)"
if [ -z "$pc" ]; then
  echo "check_install: teal.pc was not installed" >&2
  exit 1
fi
libdir="$(dirname "$(dirname "$pc")")"

echo "== pkg-config teal: build and run the consumer (shared) =="
export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror "$root/tests/install/consumer.c" \
  $(pkg-config --cflags --libs teal) -lm -o "$work/consumer_pc"
LD_LIBRARY_PATH="$libdir" "$work/consumer_pc"

echo "== find_package(teal): build and run the consumer (shared and static) =="
cmake -S "$root/tests/install" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  > "$work/configure.log"
cmake --build "$work/consumer" -j2 > "$work/build.log"
"$work/consumer/consumer_shared"
"$work/consumer/consumer_static"
echo "check_install: passed"
