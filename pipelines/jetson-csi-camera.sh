#!/bin/sh
# What: a Jetson CSI camera (nvarguscamerasrc) shown on the display, converted
#   to RGBA and scaled to 1280x720 by texelconvert on the GPU.
# Hardware: NVIDIA Jetson (Orin, Thor) with JetPack 6 (Thor: JetPack 7) and a CSI camera
#   (IMX219, IMX477, ...); a display for nv3dsink.
# Memory: nvvidconv (VIC) brings the frame from NVMM into system memory; from
#   there texelconvert runs zero-copy (memory-mode=auto on an integrated GPU).
# SENSOR_ID picks the camera (default 0).
exec gst-launch-1.0 -e \
  nvarguscamerasrc sensor-id=${SENSOR_ID:-0} ! \
  'video/x-raw(memory:NVMM),width=1920,height=1080,framerate=30/1' ! \
  nvvidconv ! video/x-raw,format=NV12 ! \
  texelconvert ! video/x-raw,format=RGBA,width=1280,height=720 ! \
  nvvidconv ! 'video/x-raw(memory:NVMM)' ! \
  nv3dsink
