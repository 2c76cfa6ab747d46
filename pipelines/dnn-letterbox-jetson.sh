#!/bin/sh
# What: DNN preprocessing on a Jetson: the CSI camera's 1920x1080 frames
#   scaled to a 640x640 RGB network input, letterboxed on grey (0x727272, as
#   YOLO models expect), handed to the application through appsink.
#   texelconvert does the colour conversion, scaling and padding in one pass.
#   (Normalisation to float and planar layout is the application's step.)
# Hardware: NVIDIA Jetson with JetPack 6 and a CSI camera. On a PC, replace
#   the first three elements with e.g. `v4l2src ! video/x-raw,format=YUY2`.
# In an application, pull the frames from the appsink named "dnn"; on a
#   gst-launch line it just keeps the newest frame. wait-on-eos=false: with
#   no application pulling, the newest frame stays queued and appsink would
#   otherwise hold end-of-stream (and Ctrl-C, which -e turns into one)
#   until someone takes it, for ever.
exec gst-launch-1.0 -e \
  nvarguscamerasrc sensor-id=${SENSOR_ID:-0} ! \
  'video/x-raw(memory:NVMM),width=1920,height=1080,framerate=30/1' ! \
  nvvidconv ! video/x-raw,format=NV12 ! \
  texelconvert add-borders=true border-color=0xff727272 method=bilinear ! \
  video/x-raw,format=RGB,width=640,height=640,pixel-aspect-ratio=1/1 ! \
  appsink name=dnn max-buffers=1 drop=true wait-on-eos=false sync=false
