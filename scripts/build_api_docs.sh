#!/usr/bin/env bash
# Build the API reference (HTML) from the public headers with Doxygen.
# Warnings are errors: an undocumented public declaration or a broken doc
# comment fails the build (docs/Doxyfile says what is read and why).
#
#   bash scripts/build_api_docs.sh [OUT_DIR]   (default: build/api in the repository)
#
# The pages go to OUT_DIR/html (open OUT_DIR/html/index.html). This script
# installs nothing; scripts/setup.sh installs doxygen.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:-$root/build/api}

if ! command -v doxygen >/dev/null 2>&1; then
  echo "api docs: doxygen not found; install it (bash scripts/setup.sh installs it)" >&2
  exit 1
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"

# Doxygen lists a header's functions, types and macros (and warns when they
# are undocumented) only when the header itself is documented, so every
# public header must open with a /** @file comment.
missing=$(
  { echo teal.h; echo teal_export.h
    find math framework solvers systems geometry multibody -name '*.h' ! -name '*_internal.h'; } |
    sort | while read -r header; do
      grep -Eq '/\*\*[[:space:]]*[@\\]file' "$header" || echo "$header"
    done
)
if [ -n "$missing" ]; then
  echo "api docs: these public headers have no /** @file comment:" >&2
  echo "$missing" | sed 's/^/  /' >&2
  exit 1
fi

# The version for the page titles, from framework/version.h (empty if absent).
version=""
if [ -f framework/version.h ]; then
  version=$(awk '/^#define TEAL_VERSION_(MAJOR|MINOR|PATCH) / {v = v sep $3; sep = "."}
                 END {print v}' framework/version.h)
fi

# Stale pages of removed headers would survive a rebuild into the same place.
rm -rf "$out/html"

log="$out/doxygen-warnings.log"
# Doxygen exits non-zero on a warning (WARN_AS_ERROR); the log is checked too,
# so a warning fails the build whichever way doxygen reports it.
status=0
TEAL_DOCS_OUT="$out" TEAL_DOCS_VERSION="$version" doxygen docs/Doxyfile 2>"$log" || status=$?
if [ "$status" -ne 0 ] || [ -s "$log" ]; then
  cat "$log" >&2
  echo "api docs: FAILED, $(grep -c . "$log" || true) warning lines (doxygen status $status)" >&2
  exit 1
fi
echo "api docs: $out/html/index.html"
