"""The compiled CPU path: the shared fusion plan run with LLVM loop nests.

`rules.py` says what a CPU kernel computes (correctly rounded elementwise work, broadcasts,
transposes, slices, size-1 reshapes: bit-identical to the reference; reductions over the
trailing dimensions, float sums and products within rounding); `kernels.py` writes one loop nest per
fused group as LLVM IR, sizes and strides read at run time; `machine.py` compiles it with
llvmlite and keeps the object code in a private disk cache; `runner.py` runs a computation
as its list of steps (`steps.py`: what they are made of): kernels, dots (`batch_dot.py`: any
f32/f64 dot as the reference's NumPy calls, into a reused buffer), and the reference lowering
of every other instruction, with its steps specialized per argument shape (`fast.py`, over
`folding.py`: values fixed for the shapes;
`special.py`: lowerings with their shapes settled; `memo.py`: a loop body's values made of
its counter, kept per counter value); `loops.py` reads a while loop's condition and body
(a counter's condition compared on the state, elements passed through as part of the key).
"""
