"""The compiled CPU path: the shared fusion plan run with LLVM loop nests.

`rules.py` says what a CPU kernel computes (correctly rounded elementwise work, broadcasts,
transposes, slices, size-1 reshapes: bit-identical to the reference; reductions over the
trailing dimensions, float sums and products within rounding); `kernels.py` writes one loop nest per
fused group as LLVM IR, sizes and strides read at run time; `machine.py` compiles it with
llvmlite and keeps the object code in a private disk cache; `runner.py` runs a computation
as its list of steps: kernels, and the reference lowering of every other instruction.
"""
