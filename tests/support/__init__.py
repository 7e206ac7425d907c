"""Helpers the tests share: paths and the CLI runner (common), op checks, the GPU setup, program tables."""
