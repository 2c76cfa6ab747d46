# Sourced by the build scripts: NVIDIA's packages and JetPack install nvcc in
# /usr/local/cuda/bin, which is not on PATH by default; meson looks for it on
# PATH only. Without nvcc anywhere the plugin builds CPU-only.
if ! command -v nvcc >/dev/null 2>&1 && [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
fi
