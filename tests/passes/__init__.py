"""Tests of dynhlo.passes: each pass HLO in, HLO out, and the pipelines."""
