"""Text tests of generated kernels: HLO in, CHECK lines over the kernel source."""
