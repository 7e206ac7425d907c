"""Tests of dynhlo.backends: what both backends share, and each backend in its folder."""
