#!/usr/bin/env bash
# Installs a built Teal into a temporary prefix and, from a folder outside
# the repository, builds and runs against it:
#   - the README's first program (extracted from README.md), through
#     pkg-config, linked shared and static, finding its model among the
#     installed ones;
#   - tests/install/consumer.c through pkg-config (shared) and through
#     find_package(teal) (shared and static targets).
# Also checks that the public headers are installed under include/teal/ and
# the private *_internal.h ones are not, that the models, docs and example
# sources are installed, and that a static link puts OpenBLAS before GSL's
# reference CBLAS.
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

for file in share/teal/models/acrobot.urdf share/doc/teal/README.md share/doc/teal/LICENSE \
    share/doc/teal/CHANGELOG.md share/doc/teal/index.md share/doc/teal/examples/acrobot_lqr.c; do
  if [ ! -f "$prefix/$file" ]; then
    echo "check_install: $file was not installed" >&2
    exit 1
  fi
done

export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
static_libs="$(pkg-config --static --libs teal)"
case "$static_libs" in
  *-lopenblas*-lgslcblas*) ;;
  *)
    echo "check_install: pkg-config --static --libs teal must list -lopenblas before" \
      "-lgslcblas: $static_libs" >&2
    exit 1
    ;;
esac

# Everything runs from a folder outside the repository, with no model path
# set: the first program must find its model among the installed ones.
run_dir="$work/elsewhere"
mkdir -p "$run_dir" "$prefix/bin"
cd "$run_dir"
unset TEAL_MODEL_PATH

echo "== the README's first program: extract, build with pkg-config, run (shared, static) =="
sed -n '/<!-- first-program:begin -->/,/<!-- first-program:end -->/p' "$root/README.md" |
  sed '1,2d;$d' | sed '$d' > first.c
if ! grep -q 'int main' first.c; then
  echo "check_install: no first program between the README's first-program markers" >&2
  exit 1
fi
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Wpedantic -Werror first.c $(pkg-config --cflags --libs teal) \
  -o first_shared
LD_LIBRARY_PATH="$libdir" ./first_shared
# the static program is installed beside the library, as a user's would be
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Wpedantic -Werror first.c $(pkg-config --cflags teal) \
  ${static_libs/-lteal /-l:libteal.a } -o "$prefix/bin/first_static"
"$prefix/bin/first_static"

echo "== pkg-config teal: build and run the consumer (shared) =="
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror "$root/tests/install/consumer.c" \
  $(pkg-config --cflags --libs teal) -o "$work/consumer_pc"
LD_LIBRARY_PATH="$libdir" "$work/consumer_pc"

echo "== find_package(teal): build and run the consumer (shared and static) and the first program =="
cmake -S "$root/tests/install" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DTEAL_FIRST_PROGRAM="$run_dir/first.c" > "$work/configure.log"
cmake --build "$work/consumer" -j2 > "$work/build.log"
"$work/consumer/consumer_shared"
"$work/consumer/consumer_static"
"$work/consumer/first_cmake"
echo "check_install: passed"
