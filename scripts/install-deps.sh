#!/usr/bin/env bash
# Installs what gst-texel needs to build and test on Debian 12 / Ubuntu / JetPack.
# The CUDA toolkit is not a Debian package: nvcc is looked for in /usr/local/cuda
# (NVIDIA's repository or JetPack); without it the plugin builds CPU-only.
set -euo pipefail
pkgs=(meson ninja-build pkg-config gcc
      libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
      gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
      gstreamer1.0-plugins-bad libyaml-dev valgrind
      python3-matplotlib
      # the tree's one formatter (scripts/check-format.sh)
      clang-format
      # EGL headers: NVMM surface arrays (cuda_egl_interop.h); EGL and GLES
      # libraries: the test stand-in's surface arrays (GL textures)
      libegl-dev libgles-dev)
# The fuzz targets (scripts/fuzz.sh): clang and its libFuzzer runtime, which
# Debian 12 packages separately (elsewhere it comes with clang).
fuzz_pkgs=(clang libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}" "${fuzz_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  # Only what this distribution has (libclang-rt-14-dev is Debian's name).
  available=()
  for p in "${missing[@]}"; do
    apt-cache show "$p" >/dev/null 2>&1 && available+=("$p")
  done
  missing=("${available[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
