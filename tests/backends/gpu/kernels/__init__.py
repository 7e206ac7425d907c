"""The GPU backend's generated kernels against the CPU backend."""
