#!/bin/sh
# What: a Jetson CSI camera with a wide-angle lens, undistorted with its
#   OpenCV calibration (camera matrix and Brown-Conrady coefficients, from
#   cv::calibrateCamera or ROS camera_calibration) and shown on the display.
#   alpha=0 keeps only valid pixels (no black corners); the calibration's
#   size is scaled to the stream's. texelwarp samples the frame through the
#   GPU's texture units, in zero-copy memory on the Jetson.
# Hardware: NVIDIA Jetson with JetPack 6 and a CSI camera.
# CALIBRATION is the camera's calibration file (default: the example in
#   pipelines/calibration/, made for another camera: replace it).
exec gst-launch-1.0 -e \
  nvarguscamerasrc sensor-id=${SENSOR_ID:-0} ! \
  'video/x-raw(memory:NVMM),width=1920,height=1080,framerate=30/1' ! \
  nvvidconv ! video/x-raw,format=NV12 ! \
  texelwarp model=pinhole alpha=0 method=bilinear \
    calibration-file=${CALIBRATION:-$(dirname "$0")/calibration/example-pinhole-1280x720.yaml} ! \
  nv3dsink sync=false
