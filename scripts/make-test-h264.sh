#!/usr/bin/env bash
# Makes tests/data/ball-640x480-30.h264, the H.264 stream that the
# decode -> process test (tests/element/test-cudamemory-gpu.c) feeds to
# NVDEC: 30 frames of videotestsrc's ball, 640x480, constrained baseline,
# Annex B byte stream. Needs x264enc (Debian's gstreamer1.0-plugins-ugly);
# the file is committed, so tests never need the encoder.
set -euo pipefail
cd "$(dirname "$0")/.."
gst-launch-1.0 -q videotestsrc num-buffers=30 pattern=ball ! \
  video/x-raw,format=I420,width=640,height=480,framerate=30/1 ! \
  x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bitrate=500 ! \
  video/x-h264,profile=constrained-baseline,stream-format=byte-stream ! \
  filesink location=tests/data/ball-640x480-30.h264
