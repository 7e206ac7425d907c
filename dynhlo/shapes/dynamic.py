"""Dynamic dimension inference: which dimensions are dynamic and where their sizes come from.

For every instruction, a dims tree: a tuple of Dims (int or Sym) for an array, a list of trees
for a tuple. Entry parameters' `<=` and `?` dimensions get their size from the argument;
every other instruction's dims follow from its operands through its rule in
dynhlo.shapes.rules (XLA: DynamicDimensionInference). Declared shapes of intermediates act as
bounds: an instruction declared static whose operands are dynamic becomes dynamic.

Called computations (call, fusion, while, conditional, ...) are analyzed per call site, so one
computation called with different sizes keeps separate results.
"""

from __future__ import annotations

import sys

from ..errors import DynamicSizeError, HloVerifyError, UnsupportedError
from ..hlo.ir import Computation, HloModule, Instruction
from ..hlo.opcodes import Opcode
from ..hlo.shape_assertions import equal_dims
from ..hlo.shape import UNBOUNDED, AnyShape
# The shape rules of every family: importing a family's file registers its rules.
from . import rules_collective, rules_control_flow, rules_data, rules_indexing  # noqa: F401
from . import rules_linalg, rules_numeric, rules_reduce, rules_sort, rules_window  # noqa: F401
from . import rules_dynamic_window, rules_gpu_solver, rules_xla_linalg  # noqa: F401
from . import rules_lapack, rules_lapack_eig, rules_lapack_schur, rules_lapack_svd  # noqa: F401
from . import rules_dynamic_shape  # noqa: F401
from .algebra import at_most
from .rules import RuleContext, rule_of
from .sizes import Sym, bound_of, dim_text, param_dim
from .trees import ComputationInfo, DimsTree, declared_tree, tree_text

class Inference:
    """Runs the rules over a module; rules call back into `analyze` for called computations
    (through RuleContext.call)."""

    def __init__(self, module: HloModule):
        self.module = module

    def _located(self, exc: HloVerifyError, inst: Instruction) -> HloVerifyError:
        """The error with the line:column of `inst` when it names `inst` (names repeat
        across computations, so the instruction itself is used, not a search by name)."""
        if exc.instruction == inst.name:
            exc.locate(self.module.position_of(inst))
        return exc

    def analyze(self, comp: Computation, param_trees: list[DimsTree],
                param_values: dict | None = None) -> ComputationInfo:
        info = ComputationInfo(comp)
        if param_values:
            info.param_values.update(param_values)
        if len(param_trees) != len(comp.parameters):
            raise HloVerifyError(f"computation '{comp.name}' takes {len(comp.parameters)} "
                                 f"parameters, called with {len(param_trees)}")
        for inst in comp.post_order():
            if inst.opcode is Opcode.PARAMETER:
                tree = param_trees[inst.parameter_number]
            else:
                operands = [info.dims[o] for o in inst.operands]
                rule = rule_of(inst.opcode)
                try:
                    tree = rule(RuleContext(self.analyze, info, inst), inst, operands)
                except HloVerifyError as exc:
                    raise self._located(exc, inst)
            try:
                info.dims[inst] = check_against_declared(inst, tree, inst.shape)
            except HloVerifyError as exc:
                raise self._located(exc, inst)
        return info


def check_against_declared(inst: Instruction, tree: DimsTree, shape: AnyShape) -> DimsTree:
    """The inferred tree, checked against the declared shape's bounds and rank."""
    if shape.is_tuple:
        if not isinstance(tree, list) or len(tree) != len(shape.elements):
            raise HloVerifyError(f"declared {shape} but the operands give {tree_text(tree)}",
                                 inst.name)
        return [check_against_declared(inst, t, s) for t, s in zip(tree, shape.elements,
                                                                   strict=True)]
    declared_dims = shape.dims
    if tree.__class__ is tuple and tree == declared_dims:   # static, as declared (a Sym
        return tree                                         # equals no int): nothing to do
    if isinstance(tree, list) or len(tree) != len(declared_dims):
        raise HloVerifyError(f"declared {shape} but the operands give {tree_text(tree)}",
                             inst.name)
    out = None
    for d, dim in enumerate(tree):
        declared = declared_dims[d]
        bound = dim if dim.__class__ is int else bound_of(dim)
        if bound == declared or declared == UNBOUNDED or bound == UNBOUNDED:
            continue
        if out is None:
            out = list(tree)
        if isinstance(dim, Sym) and dim.root().expr is not None and bound > declared:
            # a bound the program knows and inference cannot prove (JAX's sizes are >= 1,
            # its constraints): the size holds to it, checked at run time (XLA's kRuntime)
            out[d] = Sym(declared, at_most(dim.root().expr, declared,
                                           _over_bound(inst.name, d, shape)))
        else:
            raise HloVerifyError(f"declared {shape} but dimension {d} is "
                                 f"{dim_text(dim)} (bound {bound}) from the operands",
                                 inst.name)
    return tuple(tree) if out is None else tuple(out)


def _over_bound(name: str, d: int, shape):
    def fail(size: int, bound: int) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{name}': dimension {d} has run-time size "
                                f"{size} > bound {bound} of its declared shape {shape}")
    return fail


def infer_module(module: HloModule) -> ComputationInfo:
    """Dynamic dimension inference for the entry computation and everything it calls.
    Entry dimensions that the module's shape assertions require equal are one size
    (_param_dims).

    Raises:
        HloVerifyError: an instruction whose declared shape disagrees with its operands.
        UnsupportedError: calls nested deeper than Python's recursion limit allows.
    """
    entry = module.entry
    equal, made = equal_dims(module.shape_assertions), {}
    trees = [declared_tree(p.shape, _param_dims(equal, made, p))
             for p in entry.parameters]
    for p, tree in zip(entry.parameters, trees, strict=True):
        if p.shape.is_tuple:
            raise module.locate(HloVerifyError("tuple-shaped entry parameters are not "
                                               "supported; pass the elements as separate "
                                               "parameters", p.name))
    try:
        info = Inference(module).analyze(entry, trees)
    except RecursionError:
        # Each level of call nesting costs a few Python frames; hundreds of levels (no real
        # model has them) exhaust Python's stack. Say so rather than show a traceback.
        raise UnsupportedError(f"module '{module.name}': computations call each other more "
                               f"deeply than dynhlo can follow (Python's recursion limit, "
                               f"{sys.getrecursionlimit()})") from None
    _check_sized(info)
    return info


def _param_dims(equal: dict, made: dict, param):
    """declared_tree's maker of parameter `param`'s dynamic dimensions (`made`: the Sym of
    each (parameter, dimension) made so far). A dimension the module's shape assertions
    require equal to an earlier parameter's (equal_dims), dynamic with the same bound, is
    that dimension's size itself, so what reads both is one size: JAX's `q @ k.T` over
    one dimension variable `n` is an `n x n` kernel, not an implicit broadcast of either
    side (the assertions are checked before every call)."""
    def make(path, d, bound):
        key = (param.parameter_number, d)
        first = equal.get(key)
        if first is not None and made.get(first).__class__ is Sym and \
                made[first].bound == bound:
            return made[first]
        return made.setdefault(key, param_dim(param, d, bound))
    return make


def _check_sized(info: ComputationInfo) -> None:
    """UnsupportedError for a `?` dimension that nothing gives a size to (an iota or a
    broadcast of a constant declared `?` that meets no sized operand): it has no bound to
    run at either, so no program can compute it."""
    stack, seen = [info], set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        stack.extend(current.calls.values())
        for inst, tree in current.dims.items():
            if tree.__class__ is tuple:   # an array's dims: _unsized's loop, inlined
                for d, dim in enumerate(tree):
                    if isinstance(dim, Sym):
                        root = dim.root()
                        if root.expr is None and root.bound == UNBOUNDED:
                            raise _unsized_error(inst, d)
                continue
            for d, dim in _unsized(tree):
                raise _unsized_error(inst, d)


def _unsized_error(inst: Instruction, d: int) -> UnsupportedError:
    return UnsupportedError(
        f"instruction '{inst.name}' ({inst.shape}): dimension {d} is unbounded (?) "
        "and nothing gives it a size (no parameter, set-dimension-size or operand "
        "of known size reaches it); declare a bound (<=N) or a static size")


def _unsized(tree: DimsTree):
    if isinstance(tree, list):
        for t in tree:
            yield from _unsized(t)
        return
    for d, dim in enumerate(tree):
        if isinstance(dim, Sym):
            root = dim.root()
            if root.expr is None and root.bound == UNBOUNDED:
                yield d, dim

def is_dynamic_tree(tree: DimsTree) -> bool:
    if isinstance(tree, list):
        return any(is_dynamic_tree(t) for t in tree)
    return any(isinstance(d, Sym) for d in tree)

