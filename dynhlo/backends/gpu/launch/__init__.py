"""Running plans: the one launcher (launcher.py: a kernel compiled by Triton's JIT or to a
cubin, launched by a call or, once compiled, by its `direct` form), the general runner
(runner.py), and the per-call fast path (fastpath.py)."""
