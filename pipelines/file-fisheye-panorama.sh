#!/bin/sh
# What: file to file dewarping: a recording from a fisheye camera turned
#   into a 220-degree equirectangular panorama (longitude across, latitude
#   down) in one texelwarp pass, encoded to H.264 in an MP4 file.
# Hardware: any Linux machine; texelwarp uses an NVIDIA GPU when there is
#   one (staged copies on a discrete GPU, one frame in flight for a file),
#   else the CPU. x264enc comes with gstreamer1.0-plugins-ugly.
# Decoders' 8 to 10-bit 4:2:0, 4:2:2 and 4:4:4 output (I420_10LE, I422_10LE,
#   Y444, Y444_10LE, Y42B, ...) goes in as it is; a format the element does
#   not take (12-bit) is named in a warning: put videoconvert before it.
# INPUT is the file read, OUTPUT the file written, FISHEYE_CALIBRATION the
#   lens's OpenCV fisheye calibration (default: the example in
#   pipelines/calibration/, made for another camera: replace it).
# test-source: video/x-raw,width=1920,height=1080,framerate=30/1
exec gst-launch-1.0 -e \
  filesrc location=${INPUT:-fisheye.mp4} ! decodebin ! \
  texelwarp model=fisheye projection=equirectangular fov=220 \
    calibration-file=${FISHEYE_CALIBRATION:-$(dirname "$0")/calibration/example-fisheye-1920x1080.yaml} ! \
  video/x-raw,format=I420,width=2048,height=1024 ! \
  x264enc bitrate=8000 speed-preset=veryfast ! h264parse ! \
  mp4mux ! filesink location=${OUTPUT:-panorama.mp4}
