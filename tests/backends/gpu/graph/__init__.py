"""The GPU backend's graph path: captured programs, segments, fused attention, cubins."""
