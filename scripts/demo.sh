#!/usr/bin/env bash
# Installs what is needed, builds gst-texel and runs the demo pipelines:
# texelconvert on a test source, a few output frames written as PNG files;
# then texelwarp on a synthetic fisheye picture (a checkerboard seen
# through the lens of pipelines/calibration/example-fisheye-1920x1080.yaml),
# undistorted into a rectilinear view and unrolled into a panorama, each
# written as a PNG file (the pictures of docs/elements/texelwarp.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
. scripts/cuda-path.sh
[ -d build ] || meson setup build
ninja -C build
mkdir -p out
rm -f out/texel-demo-*.png out/texel-warp-*.png
export GST_PLUGIN_PATH="$PWD/build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
# 4:3 NV12 test pattern -> 16:9 RGBA: converted, scaled (bicubic) and
# pillarboxed in a blue border, on the GPU when there is one.
GST_DEBUG="${GST_DEBUG:-texel*:4}" gst-launch-1.0 -q \
  videotestsrc num-buffers=5 pattern=smpte ! \
  video/x-raw,format=NV12,width=640,height=480 ! \
  texelconvert method=bicubic border-color=0xff202060 ! \
  video/x-raw,format=RGBA,width=640,height=360 ! \
  pngenc ! multifilesink location=out/texel-demo-%02d.png

# The fisheye picture (raw RGBA), then what texelwarp makes of it.
calib=pipelines/calibration/example-fisheye-1920x1080.yaml
build/tools/texel-fisheye-chart "$calib" 960 540 out/texel-warp-fisheye.rgba
chart="filesrc location=out/texel-warp-fisheye.rgba ! rawvideoparse format=rgba width=960 height=540 framerate=1/1"
gst-launch-1.0 -q $chart ! pngenc ! filesink location=out/texel-warp-fisheye.png
GST_DEBUG="${GST_DEBUG:-texel*:4}" gst-launch-1.0 -q $chart ! \
  texelwarp model=fisheye calibration-file="$calib" fov=110 method=bicubic ! \
  video/x-raw,format=RGBA,width=960,height=540 ! \
  pngenc ! filesink location=out/texel-warp-undistorted.png
GST_DEBUG="${GST_DEBUG:-texel*:4}" gst-launch-1.0 -q $chart ! \
  texelwarp model=fisheye calibration-file="$calib" projection=equirectangular \
    fov=180 method=bicubic ! \
  video/x-raw,format=RGBA,width=960,height=480 ! \
  pngenc ! filesink location=out/texel-warp-panorama.png
rm -f out/texel-warp-fisheye.rgba
ls -l out/texel-demo-*.png out/texel-warp-*.png
echo "demo: wrote $(ls out/texel-demo-*.png | wc -l) PNG frames of texelconvert" \
  "and $(ls out/texel-warp-*.png | wc -l) pictures of texelwarp to out/"
