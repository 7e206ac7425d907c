"""Tests of the `dynhlo` command."""
