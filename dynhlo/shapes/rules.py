"""Per-opcode shape rules: operand dims trees -> result dims tree (bounds and dynamism).

One small rule per opcode, registered with `@rule(...)`. A rule sees Dims (int: static, Sym:
dynamic with a bound) and returns the result's; dynhlo.shapes.dynamic checks the result against
the declared shape. Elementwise opcodes without a rule of their own get `elementwise`; the
other opcodes without a rule get `default_rule`: the declared shape, its dynamic dimensions
read off the computed result (`rule_of` says which). Custom calls are a second table,
CUSTOM_CALL_RULES, keyed by target (`@custom_call_rule(...)`). Both tables refuse a second
registration of one key (dynhlo.hlo.opcodes.OnceTable). Semantics: XLA operation semantics
and DynamicDimensionInference (xla/service/dynamic_dimension_inference.cc).

This file holds the tables and the helpers rules share; the rules of each opcode family live
in rules_<family>.py, the family names of the CPU backend's ops_<family>.py, and register
into the tables when dynamic.py (the engine) imports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import HloVerifyError
from ..hlo import attrs
from ..hlo.ir import Computation, Instruction
from ..hlo.opcodes import OP_SPECS, Group, Opcode, OnceTable
from .sizes import Sym, dim_text, meet
from .trees import ComputationInfo, DimsTree, declared_tree, observed_tree

RULES = OnceTable("shape rules")
"""Opcode -> fn(ctx: RuleContext, inst, operand dims trees) -> the result's dims tree."""

CUSTOM_CALL_RULES = OnceTable("custom-call shape rules")
"""custom_call_target -> a rule as in RULES, for the custom calls dynhlo runs."""


@dataclass
class RuleContext:
    """What a rule may ask while it runs one instruction: its call site's results so far,
    inference of a called computation, and an error naming the instruction.

    `analyze(computation, param_trees) -> ComputationInfo` is the engine's (dynamic.py), passed
    in so that the rules need not import the engine that runs them.
    """

    analyze: Callable[..., ComputationInfo]
    info: ComputationInfo
    inst: Instruction

    def call(self, comp: Computation, param_trees: list[DimsTree], index: int = 0,
             param_values: dict | None = None):
        """The callee's results for `param_trees`; `param_values`: its parameters' integer
        scalar elements known as size expressions (ComputationInfo.param_values)."""
        callee = self.analyze(comp, param_trees, param_values)
        self.info.calls[(self.inst, index)] = callee
        return callee

    def error(self, message: str) -> HloVerifyError:
        return HloVerifyError(message, self.inst.name)


def rule(*opcodes: Opcode):
    """Register the decorated function as the shape rule of `opcodes` (each once)."""
    def register(fn):
        for op in opcodes:
            RULES[op] = fn
        return fn
    return register


def custom_call_rule(*targets: str):
    """Register the decorated function as the shape rule of custom calls to `targets`."""
    def register(fn):
        for target in targets:
            CUSTOM_CALL_RULES[target] = fn
        return fn
    return register


def default_rule(ctx: RuleContext, inst, operands):
    """The declared shape, its dynamic dimensions read off the computed result."""
    return observed_tree(inst)


def sizeless(ctx: RuleContext, inst, operands):
    """The declared shape with a free size per `<=` dimension (no operand gives sizes)."""
    return fresh_declared(inst)


def _elementwise_rule(ctx: RuleContext, inst, operands):
    return elementwise(ctx, operands)


def rule_of(op: Opcode) -> Callable:
    """The shape rule of `op`: its own, else `elementwise` for elementwise opcodes, else
    `default_rule`."""
    own = RULES.get(op)
    if own is not None:
        return own
    if OP_SPECS[op].group in (Group.UNARY, Group.BINARY, Group.TERNARY):
        return _elementwise_rule
    return default_rule


def fresh_declared(inst):
    """The declared shape with a free Sym (size set by whatever it meets) per `<=` dim."""
    return declared_tree(inst.shape, lambda path, d, bound: Sym(bound))


def elementwise(ctx: RuleContext, operands, join=meet) -> tuple:
    """The result dims of operands that meet elementwise; `join` makes one dim of two
    (default: XLA's elementwise rule, `sizes.meet`; `unify` where sizes must be one)."""
    arrays = [t for t in operands if len(t)]  # rank-0 operands broadcast (clamp, select)
    if not arrays:
        return ()
    out = list(arrays[0])
    for t in arrays[1:]:
        if len(t) != len(out):
            raise ctx.error(f"operand ranks differ: {len(out)} and {len(t)}")
        for d, dim in enumerate(t):
            if dim.__class__ is int and dim == out[d] and out[d].__class__ is int:
                continue   # one static size: what meet and unify give for it
            joined = join(out[d], dim, ctx.inst.name)
            if joined is None:
                raise ctx.error(f"operand dimension {d} sizes differ: {dim_text(out[d])} and "
                                f"{dim_text(dim)}")
            out[d] = joined
    return tuple(out)


def single_dimension(ctx, inst) -> int:
    """The one entry of `dimensions={d}` (concatenate, sort, get/set-dimension-size)."""
    dims = attrs.ints(inst, "dimensions", ())
    if len(dims) != 1:
        raise ctx.error(f"{inst.opcode.value} takes exactly one dimension, got "
                        f"dimensions={{{','.join(map(str, dims))}}}")
    return dims[0]
