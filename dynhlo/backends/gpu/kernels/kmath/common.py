"""Kernel math helpers (`M.*`) that are the same on the GPU and in the interpreter.

kmath/__init__.py imports these first, then the mode's own helpers (device.py or interp.py);
only helpers written in plain `tl` that need no libdevice belong here.
"""

import triton
import triton.language as tl


@triton.jit
def sigmoid(x):
    return 1.0 / (1.0 + tl.exp(-x))


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _and(a, b):
    return a & b


@triton.jit
def _or(a, b):
    return a | b


@triton.jit
def reduce_prod(x):
    return tl.reduce(x, 1, _mul, keep_dims=True)


@triton.jit
def reduce_and(x):
    return tl.reduce(x, 1, _and, keep_dims=True)


@triton.jit
def reduce_or(x):
    return tl.reduce(x, 1, _or, keep_dims=True)
