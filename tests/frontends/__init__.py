"""Tests of dynhlo.frontends: StableHLO and proto files, from_jax, from_tf, from_torch."""
