"""Tests of the CPU backend beyond its op tables (tests/ops)."""
