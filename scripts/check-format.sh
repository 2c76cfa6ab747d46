#!/usr/bin/env bash
# The tree's one formatter: every C and CUDA source git tracks must be as
# clang-format (.clang-format at the root) writes it. Prints the files that
# are not and fails; `scripts/check-format.sh --fix` rewrites them.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.cuh')
if [ "${1:-}" = --fix ]; then
  # A few files (long macros of strings) settle only on a second pass.
  for pass in 1 2 3; do clang-format -i "${files[@]}"; done
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f"
    bad=$((bad + 1))
  fi
done
echo "check-format: ${#files[@]} files, $bad not formatted ($(clang-format --version | head -1))"
[ "$bad" -eq 0 ]
