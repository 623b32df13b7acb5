#!/usr/bin/env bash
# Layering check: fails when a library file includes a header from a layer
# above its own, a peer module's header, another module's private
# *_internal.h, or (in math/ and framework/) anything but the C library.
#
#   layer 0: math (libm only; framework/error.h for the status codes), framework
#   layer 1: solvers
#   layer 2: systems, geometry (peers: neither includes the other)
#   layer 3: multibody
#
# Inside geometry/ and multibody/ the subfolders are ordered too (see
# sublevel_of). Project includes are written from the repository root
# ("multibody/tree/plant_model.h"); examples may include public headers only.
# Usage: bash scripts/check_layering.sh
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

# The order of the subfolders of one module: a file may include its own
# subfolder, lower ones and peers of equal rank, never a higher one.
sublevel_of() {
  case "$1" in
    geometry/shapes | multibody/math) echo 0 ;;
    geometry/proximity | multibody/tree) echo 1 ;;
    geometry/scene_graph | multibody/algorithms) echo 2 ;;
    geometry/visualization) echo 3 ;;
    multibody/forces | multibody/contact | multibody/constraints | multibody/plant) echo 3 ;;
    multibody/parsing | multibody/controllers | multibody/visualization) echo 4 ;;
    *) echo -1 ;;
  esac
}

# The one allowed upward include inside a module: the model container
# (multibody/tree) records force elements and geometries by their public
# types.
upward_allowed() {
  case "$1" in
    multibody/forces/force_elements.h | multibody/contact/plant_geometry.h) return 0 ;;
    *) return 1 ;;
  esac
}

# The C library headers the bottom layer may use.
c_library_header() {
  case "$1" in
    assert.h | float.h | limits.h | math.h | stdarg.h | stdbool.h | stddef.h | stdint.h | \
      stdio.h | stdlib.h | string.h) return 0 ;;
    *) return 1 ;;
  esac
}

violations=0
report() {
  echo "layering: $1"
  violations=$((violations + 1))
}

subfolder_of() {
  local path=$1
  local rest=${path#*/}
  if [[ "$rest" == */* ]]; then
    echo "${path%%/*}/${rest%%/*}"
  fi
}

# check_subfolders FILE HEADER: the order inside one module.
check_subfolders() {
  local file=$1 header=$2
  local from_sub to_sub from to
  from_sub=$(subfolder_of "$file")
  to_sub=$(subfolder_of "$header")
  [ -z "$from_sub" ] || [ -z "$to_sub" ] || [ "$from_sub" = "$to_sub" ] && return 0
  from=$(sublevel_of "$from_sub")
  to=$(sublevel_of "$to_sub")
  if [ "$from" -ge 0 ] && [ "$to" -gt "$from" ] && ! upward_allowed "$header"; then
    report "$file includes $header: $to_sub is above $from_sub"
  fi
}

# check_include FILE MODULE HEADER: one quoted include of a library file.
check_include() {
  local file=$1 module=$2 header=$3
  local target=${header%%/*}
  local from to
  from=$(layer_of "$module")
  to=$(layer_of "$target")
  if [ "$to" -lt 0 ]; then
    [ "$header" = teal_export.h ] && return 0
    report "$file includes \"$header\": write project includes from the repository root"
    return 0
  fi
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
  if [ "$module" = "$target" ]; then
    check_subfolders "$file" "$header"
  fi
}

# The includes of the files below a folder as FILE:KIND:HEADER lines, KIND
# being q ("...") or s (<...>), whatever the spacing around '#'.
includes_of() {
  grep -rHE --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' \
    "$@" |
    sed -E 's/^([^:]*):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:q:\2/;
            s/^([^:]*):[[:space:]]*#[[:space:]]*include[[:space:]]*<([^>]*)>.*/\1:s:\2/'
}

for module in math framework solvers systems geometry multibody; do
  while IFS=: read -r file kind header; do
    if [ "$kind" = q ]; then
      check_include "$file" "$module" "$header"
    elif [ "$(layer_of "$module")" -eq 0 ] && ! c_library_header "$header"; then
      report "$file includes <$header>: $module uses the C library only"
    fi
  done < <(includes_of "$module")
done

# examples are what users write: public headers only
while IFS=: read -r file kind header; do
  if [ "$kind" = q ] && [[ "$header" == *_internal.h ]]; then
    report "$file includes $header: examples use the public API only"
  fi
done < <(includes_of examples)

if [ "$violations" -gt 0 ]; then
  echo "layering: $violations violation(s)"
  exit 1
fi
echo "layering: ok"
