#!/bin/sh
# Rewrites the properties table of each docs/elements page that says it is
# generated from gst-inspect-1.0 (texelconvert.md is written by hand and
# only checked), from the plugin of a build tree:
#   scripts/update-element-docs.sh BUILD_DIR
# then `meson test -C BUILD_DIR --suite docs` checks every page.
set -eu
build=${1:?usage: $0 BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
GST_PLUGIN_PATH=$(cd "$build/plugin" && pwd) GST_REGISTRY_1_0=$build/update-docs-registry.bin \
  exec python3 "$top/tests/docs/check-element-docs.py" --update "$top/docs"
