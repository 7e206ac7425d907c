"""Running plans: the kernel-source cache (kernel_cache.py), the one direct C launch
(direct.py), launchers for JIT kernels (jit.py) and AOT cubins (cubin.py), the general
runner (runner.py), and the per-call fast path (fastpath.py)."""
