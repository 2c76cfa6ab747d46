#!/usr/bin/env bash
# Installs what is needed, builds gst-texel and runs a demo pipeline:
# texelconvert on a test source, a few output frames written as PNG files.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
. scripts/cuda-path.sh
[ -d build ] || meson setup build
ninja -C build
mkdir -p out
rm -f out/texel-demo-*.png
export GST_PLUGIN_PATH="$PWD/build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
# 4:3 NV12 test pattern -> 16:9 RGBA: converted, scaled (bicubic) and
# pillarboxed in a blue border, on the GPU when there is one.
GST_DEBUG="${GST_DEBUG:-texel*:4}" gst-launch-1.0 -q \
  videotestsrc num-buffers=5 pattern=smpte ! \
  video/x-raw,format=NV12,width=640,height=480 ! \
  texelconvert method=bicubic border-color=0xff202060 ! \
  video/x-raw,format=RGBA,width=640,height=360 ! \
  pngenc ! multifilesink location=out/texel-demo-%02d.png
ls -l out/texel-demo-*.png
echo "demo: wrote $(ls out/texel-demo-*.png | wc -l) PNG frames to out/"
