"""Running plans: Triton's direct C launch (direct.py), launchers for kernels compiled by
Triton's JIT (jit.py), for cubins (cubin.py) and for kernels compiled to cubins on their
first launch (cubin_jit.py: the default on a GPU), the general runner (runner.py), and the
per-call fast path (fastpath.py)."""
