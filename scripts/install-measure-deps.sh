#!/bin/sh
# What scripts/demosaic-psnr.py needs beyond install-deps.sh: OpenCV (the
# reference demosaics), scikit-image and matplotlib's data (their sample
# photographs), numpy, PIL, bayer2rgb (gst-plugins-bad). A measuring
# tool's dependencies, not CI's: CI does not run this.
set -e
apt-get install -y --no-install-recommends python3-numpy python3-pil \
    python3-opencv python3-skimage \
    python-matplotlib-data gstreamer1.0-plugins-bad
