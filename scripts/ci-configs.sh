#!/usr/bin/env bash
# CI: the configurations users build, besides the default one that
# scripts/test.sh builds and tests. Each is configured, built and tested in
# a build folder of its own:
#   jetpack6  CUDA kernels without GStreamer's CUDA library
#             (-Dcuda-memory=disabled), as on JetPack 6 (GStreamer 1.20);
#             unit and element suites, and no GStreamer function newer than
#             1.20 imported by any of its binaries (check-gst-api.py)
#   cpu-only  -Dcuda=disabled; unit and element suites
#   meson-0.61.2
#             the default configuration with Meson 0.61.2, the version of
#             Ubuntu 22.04 and so JetPack 6, from ../shared/toolchains;
#             every suite; one CUDA architecture (Orin's), as jetpack6: the
#             Meson version is what is under test, and the default build
#             of scripts/test.sh already compiles every architecture.
#             Skipped, and said so, where ../shared is absent (a user's
#             clone).
# Then scripts/ci-arm64.sh: the arm64 package cross-built in a chroot, its
# tests run under qemu.
#
#   CI_CONFIGS="jetpack6 cpu-only meson-0.61.2 arm64"   which ones to run
#   BUILDROOT=out/ci                                    where the folders go
# Every configuration runs even when one fails; the exit status is non-zero
# if any failed. A summary table closes the log.
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD
. scripts/cuda-path.sh
buildroot="${BUILDROOT:-$src/out/ci}"
configs="${CI_CONFIGS:-jetpack6 cpu-only meson-0.61.2 arm64}"
meson061="$src/../shared/toolchains/meson-0.61.2/meson.py"
summary=()
status=0
say() { printf '== ci-configs: %s\n' "$*"; }

# Counts from a meson test log: "N passed, N failed, N skipped".
count_tests() {
  python3 - "$1" <<'PY'
import json, sys
c = {"OK": 0, "FAIL": 0, "SKIP": 0}
try:
    for line in open(sys.argv[1]):
        r = json.loads(line)["result"]
        c["OK" if r in ("OK", "EXPECTEDFAIL") else "SKIP" if r == "SKIP" else "FAIL"] += 1
except FileNotFoundError:
    pass
print(f"{c['OK']} passed, {c['FAIL']} failed, {c['SKIP']} skipped")
PY
}

# run_config NAME MESON_COMMAND SUITES -- SETUP_ARGS...
run_config() {
  local name=$1 meson=$2 suites=$3; shift 4
  local dir="$buildroot/$name" t0 rc=0 counts suite_args=()
  t0=$(date +%s)
  for s in $suites; do suite_args+=(--suite "$s"); done
  say "$name: $meson setup $*"
  rm -rf "$dir"
  $meson setup "$dir" "$@" >"$buildroot/$name-setup.log" 2>&1 || {
    tail -n 30 "$buildroot/$name-setup.log"; rc=1; }
  if [ $rc -eq 0 ]; then
    grep -E '^ +(CUDA|memory:CUDAMemory)' "$buildroot/$name-setup.log" || true
    ninja -C "$dir" >"$buildroot/$name-build.log" 2>&1 || {
      grep -E -A5 'error|FAILED' "$buildroot/$name-build.log" | head -n 40; rc=1; }
  fi
  if [ $rc -eq 0 ]; then
    $meson test -C "$dir" --no-rebuild --num-processes 2 --print-errorlogs \
      "${suite_args[@]}" || rc=1
  fi
  counts=$(count_tests "$dir/meson-logs/testlog.json")
  summary+=("$(printf '%-14s %-6s %-40s %4d s' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "$counts" $(( $(date +%s) - t0 )))")
  [ $rc -eq 0 ] || status=1
}

# JetPack 6 has GStreamer 1.20: no binary of the build may import newer API.
check_gst_api() {
  local bins out rc=0
  bins=$(find "$1/plugin" "$1/tests" "$1/tools" -type f -executable \
    \( -name '*.so' -o ! -name '*.*' \) ! -path '*.p/*' 2>/dev/null)
  out=$(python3 scripts/check-gst-api.py 1.20 $bins) || rc=1
  echo "$out"
  summary+=("$(printf '%-14s %-6s %s' gst-1.20-api "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "$(echo "$out" | tail -n 1 | sed 's/^check-gst-api: //')")")
  [ $rc -eq 0 ] || status=1
}

mkdir -p "$buildroot"
have_nvcc=no; command -v nvcc >/dev/null 2>&1 && have_nvcc=yes
for c in $configs; do
  case $c in
    jetpack6)
      if [ $have_nvcc = yes ]; then
        # One architecture (Orin's): the configuration is what is under
        # test, not nvcc's time for every GPU.
        run_config jetpack6 meson "unit element" -- \
          -Dcuda=enabled -Dcuda-memory=disabled -Dcuda-arch=sm_87
        check_gst_api "$buildroot/jetpack6"
      else
        say "jetpack6: no nvcc on this machine, CUDA configuration not built"
        summary+=("$(printf '%-14s %-6s %s' jetpack6 skip 'no nvcc')")
      fi ;;
    cpu-only)
      run_config cpu-only meson "unit element" -- -Dcuda=disabled ;;
    meson-0.61.2)
      if [ -f "$meson061" ]; then
        run_config meson-0.61.2 "python3 $meson061" "" -- -Dcuda-arch=sm_87
      else
        say "meson-0.61.2: ../shared/toolchains/meson-0.61.2 is absent (a user's clone): skipped"
        summary+=("$(printf '%-14s %-6s %s' meson-0.61.2 skip '../shared absent')")
      fi ;;
    arm64)
      t0=$(date +%s)
      if OUTDIR="$buildroot/arm64" bash scripts/ci-arm64.sh; then
        summary+=("$(printf '%-14s %-6s %-40s %4d s' arm64 ok "$(sed -n 's/^arm64 tests under qemu: //p' "$buildroot/arm64/summary.txt")" $(( $(date +%s) - t0 )))")
      else
        summary+=("$(printf '%-14s %-6s %-40s %4d s' arm64 FAIL '' $(( $(date +%s) - t0 )))")
        status=1
      fi ;;
    *) echo "ci-configs: unknown configuration '$c'" >&2; status=1 ;;
  esac
done

say "summary"
printf '%s\n' "${summary[@]}"
exit $status
