#!/bin/sh
# What: a USB (UVC) camera in YUY2, mounted upside down: texelconvert turns it
#   by 180 degrees, converts to BGRx and doubles its size for the display.
# Hardware: any Linux machine with a UVC camera (Jetson, PC with or without an
#   NVIDIA GPU: without one texelconvert runs on the CPU).
# DEVICE picks the camera (default /dev/video0); `v4l2-ctl --list-formats-ext`
#   lists the sizes it offers in YUY2.
exec gst-launch-1.0 -e \
  v4l2src device=${DEVICE:-/dev/video0} ! \
  video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! \
  texelconvert video-direction=180 method=bicubic ! \
  video/x-raw,format=BGRx,width=1280,height=960 ! \
  autovideosink
