#!/usr/bin/env bash
# Set up, build and run the whole Teal test suite.
#
#   bash scripts/test.sh              # Release build in build/
#   bash scripts/test.sh --sanitize   # Debug + ASan/UBSan build in build-asan/
#
# Any further arguments are passed to ctest (e.g. -R test_system).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build_dir=build
# Both builds also build the Python package and run its pytest suite (ctest's
# python_tests; in the sanitizer build with ASan's runtime preloaded).
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DTEAL_BUILD_TESTS=ON -DTEAL_SANITIZE=OFF
  -DTEAL_BUILD_PYTHON=ON)

if [ "${1:-}" = "--sanitize" ]; then
  shift
  build_dir=build-asan
  cmake_args=(-DCMAKE_BUILD_TYPE=Debug -DTEAL_BUILD_TESTS=ON -DTEAL_SANITIZE=ON
    -DTEAL_BUILD_PYTHON=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi

bash "$root/scripts/setup.sh"

echo "== configure ($build_dir) =="
cmake -S "$root" -B "$root/$build_dir" "${cmake_args[@]}"

echo "== build ($build_dir) =="
cmake --build "$root/$build_dir" -j2

echo "== test ($build_dir) =="
ctest --test-dir "$root/$build_dir" --output-on-failure -j2 "$@"
