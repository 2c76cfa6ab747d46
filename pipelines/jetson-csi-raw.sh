#!/bin/sh
# What: a CSI sensor's raw 10-bit Bayer frames straight from Jetson's VI
#   (v4l2src, bypassing the ISP), developed by texelconvert on the GPU:
#   black level, white balance, Malvar-He-Cutler demosaic and a colour
#   matrix, then NV12 for the encoder or display.
# Hardware: Jetson Orin with a Bayer sensor (e.g. IMX219, IMX477). VI stores
#   RAW10 in the high bits of 16-bit words: bayer-alignment=msb. The 10-bit
#   caps name (rggb10le) needs GStreamer 1.24's v4l2src; with an older one
#   use an 8-bit sensor mode (format=rggb). `v4l2-ctl -d /dev/video0
#   --list-formats-ext` lists the modes; the pattern (rggb, bggr, ...) is the
#   sensor's. BLACK (black level in codes) and the gains are the sensor's
#   too: measure them on a dark frame and a grey card.
exec gst-launch-1.0 -e \
  v4l2src device=${DEVICE:-/dev/video0} ! \
  video/x-bayer,format=rggb10le,width=1920,height=1080,framerate=30/1 ! \
  texelconvert bayer-alignment=msb black-level-red=${BLACK:-64} \
    black-level-green=${BLACK:-64} black-level-blue=${BLACK:-64} \
    wb-gain-red=${GAIN_R:-1.8} wb-gain-blue=${GAIN_B:-1.6} ! \
  video/x-raw,format=NV12,width=1920,height=1080 ! \
  nv3dsink
