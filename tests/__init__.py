"""dynhlo's tests, laid out like the package (CONTRIBUTING.md, "Tests"); shared helpers in tests/support."""
