"""Tests of the GPU backend against the CPU backend (Triton's interpreter without a GPU)."""
