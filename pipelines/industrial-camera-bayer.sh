#!/bin/sh
# What: an industrial (machine-vision) camera delivering 8-bit Bayer through
#   V4L2, developed, scaled to 1280x720 and shown; bilinear demosaic for the
#   sharpest edges of printed patterns is one property away (demosaic=bilinear).
# Hardware: any Linux machine (with or without an NVIDIA GPU: without one
#   texelconvert runs on the CPU) and a USB3 or GigE camera with a V4L2
#   driver offering BayerRG8 (format=rggb; other cameras: bggr, grbg, gbrg).
#   GenICam-only cameras: aravissrc in place of v4l2src.
exec gst-launch-1.0 -e \
  v4l2src device=${DEVICE:-/dev/video0} ! \
  video/x-bayer,format=rggb,width=2048,height=1536,framerate=30/1 ! \
  texelconvert wb-gain-red=${GAIN_R:-1.5} wb-gain-blue=${GAIN_B:-1.7} ! \
  video/x-raw,format=BGRx,width=1280,height=720 ! \
  autovideosink
