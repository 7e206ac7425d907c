"""The GPU backend's launch path: per-shape plans and cubin launches."""
