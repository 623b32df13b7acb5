#!/usr/bin/env bash
# Exported-symbol check: libteal.so must export exactly the declared API,
# the names marked TEAL_API in the installed (non-*_internal.h) headers.
#
#   bash scripts/check_exports.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
# the library the build links to now (an older libteal.so.X.Y.Z may linger)
lib=$(readlink -f "$build/libteal.so" 2>/dev/null || true)
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
  echo "exports: no $build/libteal.so; build the library first" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The public headers without their comments (gcc -fpreprocessed strips
# comments and expands nothing).
find math framework solvers systems geometry multibody -name '*.h' ! -name '*_internal.h' |
  sort | while read -r header; do
    gcc -fpreprocessed -dD -E -P "$header"
  done >"$tmp/public.h"

# The declared API: the identifier each TEAL_API declaration names (the one
# before its parameter list, or before the ';' of an extern object).
tr '\n' ' ' <"$tmp/public.h" | sed 's/;/;\n/g' | grep -o 'TEAL_API[^;]*;' |
  sed -E 's/\(.*//; s/\[.*//; s/[ ;]*$//; s/.*[^A-Za-z0-9_]//' | sort -u >"$tmp/declared"

# (the sanitizer runtimes add their own symbols to an instrumented build)
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' |
  grep -Ev '^__(odr_asan|asan|ubsan|sanitizer|lsan)' | sort -u >"$tmp/exported" || true

# Library-wide symbols that the shared library hides: none of them may be
# declared in a public header (that would be API without TEAL_API).
static_lib=$(dirname "$lib")/libteal.a
if [ ! -f "$static_lib" ]; then
  echo "exports: no $static_lib next to $lib; build both libraries first" >&2
  exit 1
fi
nm -g --defined-only "$static_lib" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u |
  comm -23 - "$tmp/exported" >"$tmp/hidden"
while read -r name; do
  if grep -Eq "(^|[^A-Za-z0-9_])${name}[[:space:]]*(\(|;|\[)" "$tmp/public.h"; then
    echo "$name"
  fi
done <"$tmp/hidden" >"$tmp/unmarked"

# A public prototype or extern object without TEAL_API, defined or not,
# would be missing from libteal.so (declarations start at column 0).
grep -E '^(extern[[:space:]]+)?(const[[:space:]]+|unsigned[[:space:]]+|struct[[:space:]]+)*[A-Za-z_][A-Za-z0-9_]*[[:space:]*]+teal_[A-Za-z0-9_]+[[:space:]]*(\(|;|\[)' \
  "$tmp/public.h" | grep -Ev '^(static|typedef|TEAL_API)|^(struct|union|enum)[[:space:]]+[A-Za-z0-9_]+[[:space:]]*;' |
  sed -E 's/^[^(;[]*[^A-Za-z0-9_](teal_[A-Za-z0-9_]+).*/\1/' >>"$tmp/unmarked" || true
sort -u -o "$tmp/unmarked" "$tmp/unmarked"

status=0
if ! comm -23 "$tmp/exported" "$tmp/declared" >"$tmp/extra" || [ -s "$tmp/extra" ]; then
  echo "exports: exported from $lib but not declared TEAL_API in a public header:"
  sed 's/^/  /' "$tmp/extra"
  status=1
fi
if ! comm -13 "$tmp/exported" "$tmp/declared" >"$tmp/missing" || [ -s "$tmp/missing" ]; then
  echo "exports: declared TEAL_API but not exported (missing definition?):"
  sed 's/^/  /' "$tmp/missing"
  status=1
fi
if [ -s "$tmp/unmarked" ]; then
  echo "exports: declared in a public header without TEAL_API (hidden from libteal.so):"
  sed 's/^/  /' "$tmp/unmarked"
  status=1
fi
# teal.h is the whole public API: it includes every public header.
find math framework solvers systems geometry multibody -name '*.h' ! -name '*_internal.h' |
  sort | while read -r header; do
    grep -qx "#include \"$header\"" teal.h || echo "$header"
  done >"$tmp/not_umbrella"
if [ -s "$tmp/not_umbrella" ]; then
  echo "exports: public headers missing from teal.h:"
  sed 's/^/  /' "$tmp/not_umbrella"
  status=1
fi
if [ "$status" -eq 0 ]; then
  echo "exports: ok ($(wc -l <"$tmp/exported") symbols, all declared)"
fi
exit "$status"
