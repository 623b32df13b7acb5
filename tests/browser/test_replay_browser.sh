#!/usr/bin/env bash
# Browser test of the replay page (geometry/visualization): headless
# Chromium opens a replay written by an example from file://, seeks through
# the URL (#t=...), takes screenshots and dumps the DOM. Fails when the page
# logged a JavaScript error or never drew, the canvas is blank, the robot's
# colours are missing, a geometry's colour is not where its recorded pose
# projects, or two times of a moving run look the same (with --pose: the
# model at its default pose and posed by the page's joint sliders through
# the URL, #q=..., as teal-view's pages are).
# Exit 77 (a ctest skip) only when chromium or libjs-three is absent.
# usage: test_replay_browser.sh [--pose q1,q2,...] <program> <models folder> [program args]
set -euo pipefail
views=("t=0.5" "t=3")
if [ "${1:-}" = --pose ]; then
  views=("t=0" "t=0&q=$2")
  shift 2
fi
program=$1 models=$2
shift 2
name=$(basename "$program")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
three=${TEAL_THREE_JS_DIR:-/usr/share/javascript/three}
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (Debian package chromium; scripts/setup.sh installs it)"
  exit 77
fi
if [ ! -f "$three/build/three.min.js" ]; then
  echo "SKIP: three.js is not installed (Debian package libjs-three; scripts/setup.sh)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && TEAL_MODEL_PATH="$models" "$program" "$@" >"$work/run.log" 2>&1) || {
  cat "$work/run.log"
  echo "FAIL: $program failed"
  exit 1
}
page=$(sed -n 's/^replay: \(.*\.html\).*/\1/p' "$work/run.log")
[ -n "$page" ] || { cat "$work/run.log"; echo "FAIL: $name printed no replay path"; exit 1; }
case $page in /*) ;; *) page=$work/$page ;; esac
[ -f "$page" ] || { echo "FAIL: $page does not exist"; exit 1; }

# run_chromium <mode> <fragment> <out>: one fresh headless browser on the
# page opened at #<fragment>.
run_chromium() {
  local mode=$1 view=$2 out=$3 profile
  profile=$(mktemp -d "$work/profile.XXXXXX")
  local args=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync
    --user-data-dir="$profile" --use-angle=swiftshader --enable-unsafe-swiftshader
    --window-size=800,600 --hide-scrollbars --virtual-time-budget=4000
    --enable-logging=stderr --v=0)
  if [ "$mode" = screenshot ]; then
    timeout 120 "$browser" "${args[@]}" --screenshot="$out" "file://$page#$view&size=800x600" \
      >/dev/null 2>>"$work/console.log"
  else
    timeout 120 "$browser" "${args[@]}" --dump-dom "file://$page#$view&size=800x600" \
      >"$out" 2>>"$work/console.log"
  fi
}

fail=0
for i in 0 1; do
  view=${views[$i]}
  run_chromium screenshot "$view" "$work/shot_$i.png"
  run_chromium dom "$view" "$work/dom_$i.html"
  if ! grep -q 'data-teal="ready"' "$work/dom_$i.html"; then
    echo "FAIL: $name at #$view: the page never drew a frame or reported an error:"
    grep -o 'error: [^<]*' "$work/dom_$i.html" || true
    fail=1
  fi
  sed -n 's/.*<pre id="probe"[^>]*>\([^<]*\)<\/pre>.*/\1/p' "$work/dom_$i.html" |
    sed 's/&quot;/"/g; s/&amp;/\&/g' >"$work/probe_$i.json"
  [ -s "$work/probe_$i.json" ] || { echo "FAIL: $name at #$view: no probe in the page"; fail=1; }
done
if grep -E 'Uncaught|CONSOLE.*(Error|error)' "$work/console.log"; then
  echo "FAIL: $name: the page logged a JavaScript error"
  fail=1
fi
if [ "$fail" -eq 0 ]; then
  python3 "$here/check_screenshot.py" "$work/shot_0.png" "$work/probe_0.json" \
    "$work/shot_1.png" || fail=1
  python3 "$here/check_screenshot.py" "$work/shot_1.png" "$work/probe_1.json" || fail=1
fi
if [ -n "${TEAL_REPLAY_SCREENSHOT:-}" ]; then
  cp "$work/shot_1.png" "$TEAL_REPLAY_SCREENSHOT"
fi
[ "$fail" -eq 0 ] && echo "PASS: $name replay renders in Chromium"
exit "$fail"
