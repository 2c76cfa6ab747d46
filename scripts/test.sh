#!/usr/bin/env bash
# Installs what is needed, builds gst-texel and runs every test. GPU tests
# skip (exit 77) on machines without a usable GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
. scripts/cuda-path.sh
builddir="${BUILDDIR:-build}"
[ -d "$builddir" ] || meson setup "$builddir"
ninja -C "$builddir"
status=0
meson test -C "$builddir" --print-errorlogs --num-processes 2 || status=$?
# The CPU path under valgrind: no leak, no invalid access.
meson test -C "$builddir" --setup valgrind --suite unit --suite element \
  --print-errorlogs --num-processes 2 \
  || status=$?
# One plain summary line for whoever reads the log.
python3 - "$builddir/meson-logs/testlog.json" "$builddir/meson-logs/testlog-valgrind.json" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for path in sys.argv[1:]:
    try:
        for line in open(path):
            r = json.loads(line)["result"]
            key = "OK" if r in ("OK", "EXPECTEDFAIL") else "SKIP" if r == "SKIP" else "FAIL"
            counts[key] += 1
    except FileNotFoundError:
        pass
print(f"tests: {counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
PY
exit $status
