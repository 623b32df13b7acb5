#!/usr/bin/env bash
# Checks that every Teal function, type and constant the README's first
# program uses is documented in the rendered API reference, so a newcomer
# who copies the program finds each name there.
#
#   bash scripts/check_readme_reference.sh [API_DIR]   (default: build/api;
#   build it first with scripts/build_api_docs.sh)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
html="${1:-$root/build/api}/html"
if [ ! -f "$html/index.html" ]; then
  echo "readme reference: no $html/index.html; run scripts/build_api_docs.sh first" >&2
  exit 1
fi

program="$(sed -n '/<!-- first-program:begin -->/,/<!-- first-program:end -->/p' \
  "$root/README.md")"
if ! grep -q 'int main' <<<"$program"; then
  echo "readme reference: no first program between the README's markers" >&2
  exit 1
fi

missing=0
checked=0
# functions: Doxygen writes "<type> NAME </td>" in a member's heading
for name in $(grep -oE '\bteal_[a-z0-9_]+ ?\(' <<<"$program" | tr -d ' (' | sort -u); do
  checked=$((checked + 1))
  if ! grep -q "[ >]$name </td>" "$html"/*.html; then
    echo "readme reference: function $name is not documented in the API reference" >&2
    missing=$((missing + 1))
  fi
done
# types and constants: a link whose text is the name, in some index page
for name in $(grep -oE '\b(teal_[a-z0-9_]+|TEAL_[A-Z0-9_]+)\b' <<<"$program" | sort -u); do
  if grep -qE "\b$name ?\(" <<<"$program"; then
    continue
  fi
  checked=$((checked + 1))
  if ! grep -q ">$name<" "$html"/*.html; then
    echo "readme reference: $name is not documented in the API reference" >&2
    missing=$((missing + 1))
  fi
done
if [ "$missing" -gt 0 ]; then
  exit 1
fi
echo "readme reference: ok ($checked names of the first program, all documented)"
