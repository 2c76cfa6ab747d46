#!/bin/sh
# What: file transcoding: any video file GStreamer can decode, scaled to
#   1280x720 and converted to I420 by texelconvert, encoded to H.264 with
#   x264enc into an MP4 file.
# Hardware: any Linux machine; texelconvert uses an NVIDIA GPU when there is
#   one (staged copies on a discrete GPU, one frame in flight for a file),
#   else the CPU. x264enc comes with gstreamer1.0-plugins-ugly.
# Decoders' 8 to 10-bit 4:2:0, 4:2:2 and 4:4:4 output (I420_10LE, I422_10LE,
#   Y444, Y444_10LE, Y42B, ...) goes in as it is; a format the element does
#   not take (12-bit) is named in a warning: put videoconvert before it.
# INPUT is the file read, OUTPUT the file written.
# test-source: video/x-raw,width=1920,height=1080,framerate=30/1
exec gst-launch-1.0 -e \
  filesrc location=${INPUT:-input.mp4} ! decodebin ! \
  texelconvert method=bicubic ! video/x-raw,format=I420,width=1280,height=720 ! \
  x264enc bitrate=4000 speed-preset=veryfast ! h264parse ! \
  mp4mux ! filesink location=${OUTPUT:-out.mp4}
