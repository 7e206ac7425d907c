"""The least size at which TensorFlow lowers a function: below it an op's shape check fails
(top_k needs k values, a VALID convolution or pool its window's extent), as the op's kernel
fails at run time; XLA's program at the bound would run there and give values TensorFlow
never gives (top_k's missing ones made up, an empty convolution).

from_tf lowers at the sizes it compares (__init__.py: bound - 1, a middle one, 2 and 1); where
TensorFlow refuses one, the least size it lowers at lies between that size and the next
larger one that lowered, found by bisection (each step one lowering). It is stated as a
SizeRequirement of kind `lowering` on the argument dimension of that size (checked before
each call, stored in artifacts: dynhlo.hlo.size_requirements), naming the op from
TensorFlow's message (`{{node TopKV2}} = TopKV2[...]`). Sizes below a refused one are taken
as refused too: a function TensorFlow lowers at 1 but not at 2 is refused at 1 as well,
never run where TensorFlow was not asked.
"""

from __future__ import annotations

import re

from ...errors import UnsupportedError
from ...hlo.size_requirements import SizeRequirement


class LoweringRefused(UnsupportedError):
    """TensorFlow refused to lower the function at these static sizes; `reason` is the line
    of its error that says why."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def least_size(lower, bounds: dict, name: str, compared) -> tuple[int, str | None]:
    """(the least size of `name` that `lower(sizes)` lowers at, the reason TensorFlow gave
    one size below it, or None where it lowers at every size of `compared` (smaller sizes,
    largest first) and so least 1)."""
    accepted = bounds[name]
    for size in compared:
        try:
            lower({**bounds, name: size})
        except LoweringRefused as exc:
            refused, reason = size, exc.reason
            break
        accepted = size
    else:
        return 1, None
    while accepted - refused > 1:   # refused < least <= accepted
        middle = (accepted + refused) // 2
        try:
            lower({**bounds, name: middle})
            accepted = middle
        except LoweringRefused as exc:
            refused, reason = middle, exc.reason
    return accepted, reason


_KERNEL = re.compile(r"tf2xla/kernels/(\w+?)_op\.cc")
_NODE = re.compile(r"\{\{node ([^}]+)\}\}(?: = (\w+)\[)?")


def refused_op(reason: str) -> str:
    """The op TensorFlow's message names (`conv1d (Conv2D)`, or `TopKV2` where the node is
    named as its type), else the message's start."""
    m = _NODE.search(reason)
    if m is None:
        kernel = _KERNEL.search(reason)   # tf2xla's RET_CHECK names its kernel's file
        return "".join(w.title() for w in kernel.group(1).split("_")) if kernel \
            else re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", reason)[:120]
    node, kind = m.group(1), m.group(2)
    return node if kind in (None, node) else f"{node} ({kind})"


def lowering_requirements(least: dict, places: dict,
                          arguments: list | None) -> list[SizeRequirement]:
    """One SizeRequirement of kind `lowering` per size name whose least size (`least`: name
    -> (least size, TensorFlow's reason)) TensorFlow refused below (reason not None)."""
    return [SizeRequirement("lowering", refused_op(reason), places[name], name, n,
                            arguments[places[name][0]] if arguments else None)
            for name, (n, reason) in sorted(least.items()) if reason is not None]
