"""The GPU backend's artifacts: cross-compiling, storing and loading its kernels."""
