"""The execution plan both backends build on: fusion groups, their order, buffers.

`fusion.py` groups a computation's instructions into fused groups (one kernel each) and
other steps, given a backend's `FusionRules` (which opcodes its kernels compute, which
library steps read views, how a group becomes a kernel); `buffers.py` assigns a static
buffer to every step output at the bound, reusing memory after a value's last reader. The
steps leave out the instructions whose values are read only as sizes the host knows
(`fusion.size_only`: a shape vector built from get-dimension-size for a set-dimension-size
a kernel computes; shapes/host_sizes.py). The order is `shapes/schedule.py`'s and the sizes are inference's (`shapes/dynamic.py`), both
backend-neutral already. The GPU (Triton kernels) and the compiled CPU path (LLVM loop
nests) run the same plan.
"""
