"""Helpers the tests share: paths and the CLI runner (common), op checks, the GPU setup, the
program tables of the frontend tests."""
