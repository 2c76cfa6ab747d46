#!/bin/sh
# What: a night camera on a Jetson: the CSI camera's dark, noisy 1080p frames
#   brightened in linear light (exposure +1.5 stops, linear-gamma 1.4), warmed by a
#   white-balance gain, then denoised with an edge-preserving bilateral
#   filter on luma only (chroma noise is low after the camera ISP), shown on
#   the display. texeladjust and texelfilter each make one GPU pass over
#   the frame, in zero-copy memory (no copies on a Jetson).
# Hardware: NVIDIA Jetson with JetPack 6 and a CSI camera. On a PC, replace
#   the first three elements with e.g. `v4l2src ! video/x-raw,format=YUY2`
#   and the sink with autovideosink.
exec gst-launch-1.0 -e \
  nvarguscamerasrc sensor-id=${SENSOR_ID:-0} ! \
  'video/x-raw(memory:NVMM),width=1920,height=1080,framerate=30/1' ! \
  nvvidconv ! video/x-raw,format=NV12 ! \
  texeladjust exposure=1.5 linear-gamma=1.4 red-gain=1.08 blue-gain=0.92 ! \
  texelfilter filter=bilateral sigma-space=1.5 sigma-range=0.08 planes=luma ! \
  nv3dsink sync=false
