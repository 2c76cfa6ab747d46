#!/usr/bin/env bash
# On the lent GPU machine, in one call: the gpu suite, the hostile-input and
# every-element tests on the GPU path, and compute-sanitizer memcheck of the
# tests whose code paths a change touched, all side by side, each bounded
# so that the call ends inside its limit.
#   scripts/gpu-check-changes.sh BUILDDIR [SECONDS [sanitizer-only]]
# Logs in $OUT; one summary line per run at the end.
set -uo pipefail
b="${1:-build-gpu}"; limit="${2:-540}"
out="${OUT:-/tmp/texel-out}"; mkdir -p "$out"
. .gstrt/env.sh
export GST_PLUGIN_PATH="$PWD/$b/plugin" GST_PLUGIN_PATH_1_0="$PWD/$b/plugin"
t="$b/tests"
job() { # NAME COMMAND...: runs it bounded, log in $out/NAME.txt
  local name=$1; shift
  timeout "$limit" "$@" > "$out/$name.txt" 2>&1
  echo "rc=$?" >> "$out/$name.txt"
}
# memcheck, as a command timeout(1) can run (it runs no shell function).
san=(env GST_DEBUG=*:1 CK_FORK=no compute-sanitizer --tool memcheck
     --leak-check full --error-exitcode 9)
nvidia-smi -L
if [ "${3:-}" != sanitizer-only ]; then
  job suite meson test -C "$b" --no-rebuild --suite gpu --num-processes 6 --print-errorlogs &
  (export TEXEL_TEST_BACKEND=cuda CK_DEFAULT_TIMEOUT=120; job hostile "$t/element/test-hostile") &
fi
(export TEXEL_TEST_BACKEND=cuda; job san-every "${san[@]}" "$t/element/test-every-element") &
(export TEXEL_TEST_BACKEND=cuda; job san-hostile "${san[@]}" "$t/element/test-hostile") &
job san-adjust "${san[@]}" "$t/gpu/test-adjust-gpu" --quick &
job san-warp "${san[@]}" "$t/gpu/test-warp-gpu" --quick &
wait
[ -f "$out/suite.txt" ] && grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" "$out/suite.txt"
for f in "$out"/*.txt; do
  echo "$(basename "$f" .txt): $(grep -E 'Checks:|ERROR SUMMARY|LEAK SUMMARY|^rc=' "$f" | tr '\n' ' ')"
done
