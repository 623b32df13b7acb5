#!/usr/bin/env bash
# Layering check: fails when a library file includes a header from a layer
# above its own, or another module's private *_internal.h.
#
#   layer 0: math (libm only; framework/error.h for the status codes), framework
#   layer 1: solvers
#   layer 2: systems, geometry (peers: neither includes the other)
#   layer 3: multibody
#
# Examples may include public headers only. Usage: bash scripts/check_layering.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

layer_of() {
  case "$1" in
    math | framework) echo 0 ;;
    solvers) echo 1 ;;
    systems | geometry) echo 2 ;;
    multibody) echo 3 ;;
    *) echo -1 ;;
  esac
}

violations=0
report() {
  echo "layering: $1"
  violations=$((violations + 1))
}

# check_include FILE MODULE HEADER: one project include of a library file.
check_include() {
  local file=$1 module=$2 header=$3
  local target=${header%%/*}
  local from to
  from=$(layer_of "$module")
  to=$(layer_of "$target")
  [ "$to" -lt 0 ] && return 0 # not a library header (e.g. a test helper)
  if [ "$to" -gt "$from" ]; then
    report "$file includes $header: $target (layer $to) is above $module (layer $from)"
  elif [ "$module" != "$target" ] && [ "$to" -eq "$from" ]; then
    if [ "$module" = math ] && [ "$header" = framework/error.h ]; then
      return 0
    fi
    report "$file includes $header: $module and $target are peers"
  fi
  if [ "$module" != "$target" ] && [[ "$header" == *_internal.h ]]; then
    report "$file includes $header: private to $target"
  fi
}

for module in math framework solvers systems geometry multibody; do
  while IFS=: read -r file header; do
    check_include "$file" "$module" "$header"
  done < <(grep -rHo --include='*.c' --include='*.h' '^#include "[^"]*"' "$module" |
    sed 's/#include "\(.*\)"/\1/')
done

# examples are what users write: public headers only
while IFS=: read -r file header; do
  if [[ "$header" == *_internal.h ]]; then
    report "$file includes $header: examples use the public API only"
  fi
done < <(grep -rHo --include='*.c' '^#include "[^"]*"' examples | sed 's/#include "\(.*\)"/\1/')

if [ "$violations" -gt 0 ]; then
  echo "layering: $violations violation(s)"
  exit 1
fi
echo "layering: ok"
