#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, CPU-only plugin) and
# runs each for a bounded time, starting from the committed seed corpus in
# tests/fuzz/corpus/TARGET. New inputs go to a scratch corpus, never into the
# repository; a crash fails the run and leaves its input in out/fuzz/.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]      (default 30; CI uses this)
#
# To keep a crash as a regression test, copy its input into the target's
# corpus directory: every build replays that corpus as a test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
bash scripts/install-deps.sh
builddir="${FUZZ_BUILDDIR:-build-fuzz}"
[ -d "$builddir" ] || CC=clang meson setup "$builddir" -Dcuda=disabled \
  -Dfuzzing=enabled -Db_sanitize=address,undefined -Db_lundef=false \
  -Dbenchmarks=disabled --buildtype=debugoptimized >/dev/null
ninja -C "$builddir" >/dev/null
out="out/fuzz"
mkdir -p "$out"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
export GST_REGISTRY_1_0="$PWD/$builddir/fuzz-registry.bin"
status=0
for bin in "$builddir"/tests/fuzz/fuzz-*; do
  name="$(basename "$bin")"
  case "$name" in *-replay|*.p) continue ;; esac
  [ -x "$bin" ] || continue
  target="${name#fuzz-}"
  scratch="$(mktemp -d)"
  echo "fuzz: $target for ${seconds}s"
  if "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
      -seed="${FUZZ_SEED:-1}" -max_len=4096 -print_final_stats=1 -artifact_prefix="$out/$target-" \
      "$scratch" "tests/fuzz/corpus/$target" >"$out/$target.log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$out/$target.log" \
      | sed "s/^/  $target /"
  else
    status=1
    echo "fuzz: $target FAILED; the log and the crashing input are in $out/:"
    grep -E "ERROR|SUMMARY|Test unit written" "$out/$target.log" | head -20
  fi
  rm -rf "$scratch"
done
exit $status
