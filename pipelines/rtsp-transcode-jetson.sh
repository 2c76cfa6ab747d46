#!/bin/sh
# What: RTSP transcoding on a Jetson: an H.264 camera stream is decoded in
#   hardware (nvv4l2decoder), cropped to its centre 1280x720 and converted by
#   texelconvert, encoded again in hardware (nvv4l2h264enc) into out.mp4.
#   Stop with Ctrl-C: -e finishes the MP4 file.
# Hardware: NVIDIA Jetson with JetPack 6 (Orin Nano has no hardware encoder:
#   use x264enc there).
# URL is the RTSP address of the camera, OUTPUT the file written.
# test-source: video/x-raw,width=1920,height=1080,framerate=30/1
exec gst-launch-1.0 -e \
  rtspsrc location=${URL:-rtsp://192.168.1.10:554/stream1} latency=200 ! \
  rtph264depay ! h264parse ! nvv4l2decoder ! \
  nvvidconv ! video/x-raw,format=NV12 ! \
  texelconvert crop-left=320 crop-right=320 crop-top=180 crop-bottom=180 ! \
  video/x-raw,format=NV12,width=1280,height=720 ! \
  nvvidconv ! 'video/x-raw(memory:NVMM),format=NV12' ! \
  nvv4l2h264enc bitrate=4000000 insert-sps-pps=true ! h264parse ! \
  mp4mux ! filesink location=${OUTPUT:-out.mp4}
