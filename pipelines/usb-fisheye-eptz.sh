#!/bin/sh
# What: electronic pan-tilt-zoom from a USB fisheye camera: texelwarp turns
#   the fisheye picture into a rectilinear view 70 degrees wide, looking 30
#   degrees right and 10 degrees down, for a 1280x720 window. pan, tilt and
#   fov can be changed while playing (and driven by a GstController), so an
#   application can sweep the view smoothly.
# Hardware: any Linux machine with a UVC fisheye camera (Jetson, or a PC
#   with an NVIDIA GPU; without one texelwarp runs on the CPU, slowly).
# DEVICE picks the camera (default /dev/video0); FISHEYE_CALIBRATION its
#   OpenCV fisheye calibration (default: the example in
#   pipelines/calibration/, made for another camera: replace it).
exec gst-launch-1.0 -e \
  v4l2src device=${DEVICE:-/dev/video0} ! \
  video/x-raw,format=YUY2,width=1920,height=1080,framerate=30/1 ! \
  texelwarp model=fisheye fov=70 pan=30 tilt=-10 method=bicubic \
    calibration-file=${FISHEYE_CALIBRATION:-$(dirname "$0")/calibration/example-fisheye-1920x1080.yaml} ! \
  video/x-raw,format=BGRx,width=1280,height=720 ! \
  autovideosink
