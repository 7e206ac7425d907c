"""Tests of dynhlo.runtime: artifacts, the JIT and its caches, arguments, results and processes."""
