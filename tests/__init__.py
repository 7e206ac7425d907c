"""dynhlo's tests, laid out like the package (CONTRIBUTING.md, "Tests"); helpers in
tests/support."""
