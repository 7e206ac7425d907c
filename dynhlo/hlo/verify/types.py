"""Element types and operand kinds of every non-elementwise op, and its called computations.

XLA's ShapeInference and HloVerifier are the reference (shape_inference.cc: InferReshapeShape,
InferBroadcastShape, InferSliceShape, InferConcatOpShape, InferPadShape, InferReduceShape,
InferScatterShape, InferDynamicSliceShape, ...; hlo_verifier.cc: HandleBroadcast,
HandleReshape, HandleGetTupleElement, ...). Without these checks an ill-typed module runs and
the backends disagree: a `slice` of f32 declared u8 gave f32 values on the CPU and wrapped u8
on the GPU, a `reduce` with three operands or a non-scalar init returned garbage, and a
missing `to_apply` was a KeyError at run time.

What is checked here, per instruction (dimensions are checked by dynhlo.shapes):
- array ops take arrays: a tuple operand is refused, except where XLA takes one (tuple,
  get-tuple-element, while, conditional, call, fusion, custom-call, async ops, copy, ...);
- the computations an opcode must call are named (reduce's to_apply, while's body, ...);
- data-movement ops keep their operand's element type (reshape, broadcast, slice, ...);
  index operands are integers; set-dimension-size takes an s32[] size and gives s32 from
  get-dimension-size;
- reduce, reduce-window, scatter and select-and-scatter have the operand count XLA's
  variadic forms need, scalar inits, and reducers typed like their inits and inputs;
- broadcast dimensions are operand-rank many, distinct, and within the result;
- ops that give one array are not declared a tuple; rng takes two scalars of its result's
  type; partition-id and replica-id give u32[], after-all a token; topk gives (values, s32
  indices); fft's types follow fft_type; a custom-call names its target.
Raises HloVerifyError naming the instruction.
"""

from __future__ import annotations

from typing import Callable

from ...errors import HloVerifyError
from .. import attrs
from ..ir import Instruction
from ..opcodes import OP_SPECS, Group, Opcode, OpSpec, Trait
from ..shape import AnyShape, leaf_shapes
from ..types import INTEGRAL_TYPES

def check_instruction(inst: Instruction) -> None:
    """Raise HloVerifyError naming `inst` when it breaks one of the rules above.

    The facts checked per opcode are its OpSpec's (dynhlo.hlo.opcodes): traits TUPLE_OPERANDS,
    ARRAY_RESULT, KEEPS_TYPE; `needs`, `least`, `same_type`, `indices`, `operand_type`,
    `choices`, `result_dimension`, `distinct`; `reducer` picks the check of a reducing op's
    operands and reducer ("inits": reduce's, "updates": scatter's); `result` "called" with
    trait CALL_ARGUMENTS checks a call's arguments and result against its computation. The
    checks that are code, not facts, are the table at the end of this file."""
    spec = OP_SPECS[inst.opcode]
    least = spec.least
    if len(inst.operands) < least:
        _fail(inst, f"{inst.opcode.value} takes at least {least} operand(s), got "
                    f"{len(inst.operands)}")
    _check_tuple_operands(inst, spec)
    if spec.needs:
        _check_required_calls(inst, spec)
    if inst.opcode in _KEEPS_TYPE:
        _check_keeps_type(inst, spec)
    if spec.result.endswith("[]"):
        want = spec.result[:-2]
        _expect(inst, inst.shape.element_type == want and not inst.shape.rank,
                f"{inst.opcode.value} gives {want}[], declared {inst.shape}")
    for key, values in spec.choices:
        value = attrs.string(inst, key)
        _expect(inst, value in values,
                f"{inst.opcode.value} {key}={value} is not {' or '.join(values)}")
    if spec.operand_type:
        _check_operand_types(inst, spec.operand_type)
    if spec.result_dimension:
        dimension = inst.attrs.get(spec.result_dimension, "")
        _expect(inst, dimension.isdigit() and int(dimension) < inst.shape.rank,
                f"{spec.result_dimension}={dimension or '(missing)'} is not a dimension of "
                f"the rank-{inst.shape.rank} result")
    if spec.distinct:
        _check_distinct(inst, spec.distinct)
    rule = _RULES.get(inst.opcode) or _REDUCERS.get(spec.reducer)
    if rule is None and spec.result == "called" and Trait.CALL_ARGUMENTS in spec.traits:
        rule = _check_call
    if rule is not None:
        rule(inst)


def _check_operand_types(inst: Instruction, want: str) -> None:
    """Every operand has the element type `want`, or is a scalar of the result's element type
    (want "result[]")."""
    scalar = want == "result[]"
    element = inst.shape.element_type if scalar else want
    for i, o in enumerate(inst.operands):
        ok = o.shape.element_type == element and not (scalar and o.shape.rank)
        _expect(inst, ok, f"operand {i} '{o.name}' of {inst.opcode.value} is {o.shape}; it "
                          f"takes {f'{element}[] scalar' if scalar else element}s")


# The opcodes of each trait, as sets (an enum.Flag's `in` is a Python call, per
# instruction): the traits of OP_SPECS[op] are fixed, so `op in _SET` asks the same.
def _having(trait: Trait) -> frozenset:
    return frozenset(op for op, spec in OP_SPECS.items() if trait in spec.traits)


_KEEPS_TYPE = _having(Trait.KEEPS_TYPE)
_TUPLE_OPERANDS = _having(Trait.TUPLE_OPERANDS)
_ARRAY_ONLY = _having(Trait.ARRAY_RESULT) | frozenset(
    op for op, spec in OP_SPECS.items()
    if spec.group in (Group.UNARY, Group.BINARY, Group.TERNARY))


def _check_tuple_operands(inst: Instruction, spec: OpSpec) -> None:
    op = inst.opcode
    if inst.shape.is_tuple and op in _ARRAY_ONLY:
        _fail(inst, f"{op.value} gives an array, declared the tuple {inst.shape}")
    if op in _TUPLE_OPERANDS:
        return
    for i, operand in enumerate(inst.operands):
        if operand.shape.is_tuple:
            _fail(inst, f"operand {i} '{operand.name}' is the tuple {operand.shape}; "
                        f"{inst.opcode.value} takes arrays (use get-tuple-element)")


def _check_required_calls(inst: Instruction, spec: OpSpec) -> None:
    for alternatives in spec.needs:
        found = [k for k in alternatives if inst.called.get(k)]
        if not found:
            _fail(inst, f"{inst.opcode.value} needs a called computation: "
                        f"{'= or '.join(alternatives)}=")
        if alternatives[0] != "branch_computations" and len(inst.called[found[0]]) != 1:
            _fail(inst, f"{found[0]}= names {len(inst.called[found[0]])} computations; "
                        f"{inst.opcode.value} calls one")


def _check_keeps_type(inst: Instruction, spec: OpSpec) -> None:
    operand = inst.operands[0].shape.element_type if inst.operands else None
    if operand is None:
        return
    result = inst.shape.element_type
    if inst.shape.is_tuple:  # copy-start: (operand, operand, context)
        result = leaf_shapes(inst.shape)[0].element_type
    if result != operand:
        _fail(inst, f"{inst.opcode.value} of {operand} gives {operand}, declared {result} "
                    "(data movement keeps the element type; insert a convert)")
    same = spec.same_type
    if same is not None:
        for i, o in list(enumerate(inst.operands))[same]:
            if o.shape.element_type != operand:
                _fail(inst, f"operand {i} '{o.name}' is {o.shape.element_type}; "
                            f"{inst.opcode.value} needs every operand {operand}")
    index = spec.indices
    if index is not None:
        for i, o in list(enumerate(inst.operands))[index]:
            if o.shape.element_type not in INTEGRAL_TYPES:
                _fail(inst, f"operand {i} '{o.name}' is {o.shape.element_type}; "
                            f"{inst.opcode.value} takes integer indices and sizes")


def _check_broadcast(inst: Instruction) -> None:
    dims = attrs.ints(inst, "dimensions", ())
    operand, result = inst.operands[0].shape, inst.shape
    if len(dims) != operand.rank:
        _fail(inst, f"dimensions={{{','.join(map(str, dims))}}} has {len(dims)} entries for "
                    f"a rank-{operand.rank} operand; broadcast maps each operand dimension")
    if len(set(dims)) != len(dims):
        _fail(inst, f"dimensions={{{','.join(map(str, dims))}}} repeats a dimension; each "
                    "operand dimension maps to its own result dimension")
    for d in dims:
        if not 0 <= d < result.rank:
            _fail(inst, f"broadcast dimension {d} is not a dimension of the rank-"
                        f"{result.rank} result")


def _check_distinct(inst: Instruction, key: str) -> None:
    dims = attrs.ints(inst, key, ())
    if len(set(dims)) != len(dims):
        _fail(inst, f"{key}={{{','.join(map(str, dims))}}} repeats a dimension")


def _check_get_tuple_element(inst: Instruction) -> None:
    tup = inst.operands[0].shape
    if not tup.is_tuple:
        _fail(inst, f"get-tuple-element of the array {tup}; it takes a tuple")
    index = attrs.integer(inst, "index")
    if not 0 <= index < len(tup.elements):
        _fail(inst, f"index={index} is not an element of the {len(tup.elements)}-tuple {tup}")
    if not _same_types(tup.elements[index], inst.shape):
        _fail(inst, f"element {index} is {tup.elements[index]}, declared {inst.shape}")


def _check_tuple(inst: Instruction) -> None:
    if not inst.shape.is_tuple or len(inst.shape.elements) != len(inst.operands) or not all(
            _same_types(o.shape, s) for o, s in zip(inst.operands, inst.shape.elements,
                                                    strict=True)):
        given = "(" + ", ".join(str(o.shape) for o in inst.operands) + ")"
        _fail(inst, f"tuple of {given} declared {inst.shape}")


def _check_set_dimension_size(inst: Instruction) -> None:
    size = inst.operands[1].shape
    ok = size.element_type == "s32" and size.rank == 0
    _expect(inst, ok, f"set-dimension-size takes an integer size, s32[] (XLA), got {size}")


def _check_topk(inst: Instruction) -> None:
    """XLA (InferTopKShape): (the operand's type[..., k], s32[..., k])."""
    x, result = inst.operands[0].shape, inst.shape
    ok = (result.is_tuple and len(result.elements) == 2
          and not any(e.is_tuple for e in result.elements)
          and result.elements[0].element_type == x.element_type
          and result.elements[1].element_type == "s32")
    _expect(inst, ok, f"topk of {x.element_type} gives ({x.element_type}[...], s32[...]), "
                      f"declared {result}")


# fft_type -> (operand types, the result type for each)
_FFT_TYPES = {"FFT": {"c64": "c64", "c128": "c128"}, "IFFT": {"c64": "c64", "c128": "c128"},
              "RFFT": {"f32": "c64", "f64": "c128"}, "IRFFT": {"c64": "f32", "c128": "f64"}}


def _check_fft(inst: Instruction) -> None:
    """XLA (InferFftShape): FFT/IFFT complex to complex, RFFT real to complex, IRFFT back."""
    kind = attrs.string(inst, "fft_type", "FFT")
    given = inst.operands[0].shape.element_type
    want = _FFT_TYPES.get(kind, {}).get(given)
    _expect(inst, kind in _FFT_TYPES, f"fft_type={kind} is not one of {', '.join(_FFT_TYPES)}")
    _expect(inst, want == inst.shape.element_type,
            f"{kind} takes {' or '.join(_FFT_TYPES[kind])} values; of {given} it gives "
            f"{want or 'nothing'}, declared {inst.shape.element_type}")


def _check_reduce(inst: Instruction) -> None:
    """reduce and reduce-window: N arrays, then N scalar inits; results typed like the inits."""
    ops = inst.operands
    if len(ops) < 2 or len(ops) % 2:
        _fail(inst, f"{inst.opcode.value} takes N arrays then N init values, got "
                    f"{len(ops)} operand(s)")
    n = len(ops) // 2
    inputs, inits = ops[:n], ops[n:]
    _check_scalars(inst, inits, "init value")
    _check_variadic(inst, inputs, [i.shape.element_type for i in inits], n)
    _check_reducer_types(inst, "to_apply", [i.shape.element_type for i in inits],
                         [i.shape.element_type for i in inputs])


def _check_scatter(inst: Instruction) -> None:
    ops = inst.operands
    if len(ops) < 3 or len(ops) % 2 == 0:
        _fail(inst, f"scatter takes N arrays, the indices, then N updates, got {len(ops)} "
                    "operand(s)")
    n = (len(ops) - 1) // 2
    arrays, indices, updates = ops[:n], ops[n], ops[n + 1:]
    types = [a.shape.element_type for a in arrays]
    _expect(inst, indices.shape.element_type in INTEGRAL_TYPES,
            f"scatter indices '{indices.name}' are {indices.shape.element_type}, not integers")
    for a, u in zip(arrays, updates, strict=True):
        _expect(inst, a.shape.element_type == u.shape.element_type,
                f"updates '{u.name}' are {u.shape.element_type} for the "
                f"{a.shape.element_type} operand '{a.name}'")
    _check_variadic(inst, arrays, types, n)
    _check_reducer_types(inst, "to_apply", types, types)


def _check_select_and_scatter(inst: Instruction) -> None:
    operand, source, init = inst.operands
    _check_scalars(inst, [init], "init value")
    _expect(inst, source.shape.element_type == init.shape.element_type,
            f"source is {source.shape.element_type} but the init value is "
            f"{init.shape.element_type}")
    _expect(inst, inst.shape.element_type == operand.shape.element_type == init.shape.element_type,
            f"select-and-scatter of {operand.shape.element_type} (init "
            f"{init.shape.element_type}) declared {inst.shape.element_type}")
    _check_reducer_types(inst, "scatter", [init.shape.element_type],
                         [source.shape.element_type])
    t = operand.shape.element_type
    _check_reducer_types(inst, "select", [t], [t])


def _check_call(inst: Instruction) -> None:
    """call and fusion give their computation's root (XLA: the shapes must match); each
    argument has its parameter's element type."""
    comp = inst.called[OP_SPECS[inst.opcode].calls[0]][0]
    _expect(inst, _same_types(comp.root.shape, inst.shape),
            f"'{comp.name}' returns {comp.root.shape}, declared {inst.shape}")
    # the counts may differ here: calls.py, which runs after, names that fault
    for p, o in zip(comp.parameters, inst.operands, strict=False):
        _expect(inst, _same_types(p.shape, o.shape),
                f"'{comp.name}' parameter '{p.name}' is {p.shape}, passed {o.shape} "
                f"'{o.name}'")


def _check_map(inst: Instruction) -> None:
    comp = inst.called["to_apply"][0]
    root = comp.root.shape
    _expect(inst, root.is_tuple or root.element_type == inst.shape.element_type,
            f"mapped computation '{comp.name}' gives {root.element_type}, declared "
            f"{inst.shape.element_type}")
    # the counts may differ here: calls.py, which runs after, names that fault
    for p, o in zip(comp.parameters, inst.operands, strict=False):
        _expect(inst, p.shape.element_type == o.shape.element_type,
                f"mapped computation '{comp.name}' parameter '{p.name}' is "
                f"{p.shape.element_type}, passed {o.shape.element_type} '{o.name}'")


def _check_sort(inst: Instruction) -> None:
    results = leaf_shapes(inst.shape) if inst.shape.is_tuple else [inst.shape]
    types = [o.shape.element_type for o in inst.operands]
    _expect(inst, [r.element_type for r in results] == types,
            f"sort of ({', '.join(types)}) declared {inst.shape}")


def _check_conditional(inst: Instruction) -> None:
    """XLA's InferConditionalShape: an s32[] branch index, or a pred[] with two branches."""
    index = inst.operands[0].shape if inst.operands else None
    branches = (inst.called.get("branch_computations")
                or inst.called.get("true_computation", []) + inst.called.get(
                    "false_computation", []))
    ok = index is not None and not index.is_tuple and index.rank == 0 and (
        index.element_type == "s32" or (index.element_type == "pred" and len(branches) == 2))
    _expect(inst, ok, f"conditional's selector is {index}; it takes an s32[] branch index, "
                      f"or a pred[] with two branches ({len(branches)} given)")


def _check_variadic(inst: Instruction, arrays, types: list[str], n: int) -> None:
    results = list(inst.shape.elements) if inst.shape.is_tuple else [inst.shape]
    if len(results) != n or any(r.is_tuple for r in results):
        _fail(inst, f"{inst.opcode.value} of {n} array(s) gives {n} result(s), declared "
                    f"{inst.shape}")
    for a, t, r in zip(arrays, types, results, strict=True):
        _expect(inst, a.shape.element_type == t,
                f"operand '{a.name}' is {a.shape.element_type} but its init value is {t}")
        _expect(inst, r.element_type == t,
                f"{inst.opcode.value} with {t} init values declared {r.element_type}")


def _check_reducer_types(inst: Instruction, key: str, accumulators: list[str],
                         inputs: list[str]) -> None:
    """The reducer's parameters: accumulators typed like the inits, then the inputs'
    element types (XLA's VerifyReducerShape). Counts are checked by calls.py."""
    comp = inst.called[key][0]
    params = [p.shape for p in comp.parameters]
    want = accumulators + inputs
    if len(params) != len(want) or any(p.is_tuple for p in params):
        return  # calls.py names the count or rank fault
    got = [p.element_type for p in params]
    _expect(inst, got == want, f"{key} computation '{comp.name}' takes ({', '.join(got)}); "
                               f"{inst.opcode.value} passes ({', '.join(want)})")


def _check_scalars(inst: Instruction, values, role: str) -> None:
    for v in values:
        if v.shape.is_tuple or v.shape.rank:
            _fail(inst, f"{role} '{v.name}' is {v.shape}; {inst.opcode.value} takes a scalar")


def _same_types(a: AnyShape, b: AnyShape) -> bool:
    """Same tuple structure and element types (dimensions are the shape rules' job)."""
    if a.is_tuple or b.is_tuple:
        return (a.is_tuple and b.is_tuple and len(a.elements) == len(b.elements)
                and all(_same_types(x, y) for x, y in zip(a.elements, b.elements, strict=True)))
    return a.element_type == b.element_type


def _check_custom_call(inst: Instruction) -> None:
    """XLA's dynamic padder custom calls: PadToStatic(x) -> (x at its bound, s32[] size per
    dimension); SliceToDynamic(x, s32[] size per dimension) -> x at those sizes."""
    _expect(inst, "custom_call_target" in inst.attrs,
            "custom-call needs attribute custom_call_target= (XLA's parser requires it)")
    target = attrs.string(inst, "custom_call_target", "")
    if target in ("PadToStatic", "SliceToDynamic"):
        for i, o in enumerate(inst.operands):
            _expect(inst, not o.shape.is_tuple, f"operand {i} '{o.name}' of {target} is the "
                                                f"tuple {o.shape}; it takes arrays")
    if target == "PadToStatic":
        _expect(inst, len(inst.operands) == 1, f"PadToStatic takes one array, got "
                                               f"{len(inst.operands)} operands")
        x = inst.operands[0].shape
        want = f"({x.element_type}[...rank {x.rank}], {x.rank} x s32[])"
        result = inst.shape
        ok = (result.is_tuple and len(result.elements) == x.rank + 1
              and not result.elements[0].is_tuple
              and result.elements[0].element_type == x.element_type
              and result.elements[0].rank == x.rank
              and all(_is_s32_scalar(s) for s in result.elements[1:]))
        _expect(inst, ok, f"PadToStatic of {x} gives {want}, declared {result}")
    elif target == "SliceToDynamic":
        result = inst.shape
        _expect(inst, len(inst.operands) >= 1 and not result.is_tuple,
                f"SliceToDynamic gives an array from an array and its sizes, declared {result}")
        x = inst.operands[0].shape
        sizes = inst.operands[1:]
        _expect(inst, x.element_type == result.element_type and x.rank == result.rank,
                f"SliceToDynamic of {x} declared {result} (same element type and rank)")
        _expect(inst, len(sizes) == result.rank and all(_is_s32_scalar(s.shape) for s in sizes),
                f"SliceToDynamic to rank {result.rank} takes {result.rank} s32[] sizes after "
                f"the array, got ({', '.join(str(s.shape) for s in sizes)})")


def _is_s32_scalar(shape: AnyShape) -> bool:
    return not shape.is_tuple and shape.rank == 0 and shape.element_type == "s32"


# OpSpec.reducer -> the check of the operands and the reducer that layout implies.
_REDUCERS: dict[str, Callable[[Instruction], None]] = {
    "inits": _check_reduce,  # reduce, reduce-window
    "updates": _check_scatter,  # scatter
}

# The checks that are code: per opcode, what its OpSpec's fields do not say.
_RULES: dict[Opcode, Callable[[Instruction], None]] = {
    Opcode.CUSTOM_CALL: _check_custom_call,
    Opcode.BROADCAST: _check_broadcast,
    Opcode.GET_TUPLE_ELEMENT: _check_get_tuple_element,
    Opcode.TUPLE: _check_tuple,
    Opcode.PAD: lambda inst: _check_scalars(inst, inst.operands[1:], "padding value"),
    Opcode.TOPK: _check_topk,
    Opcode.FFT: _check_fft,
    Opcode.SET_DIMENSION_SIZE: _check_set_dimension_size,
    Opcode.SELECT_AND_SCATTER: _check_select_and_scatter,
    Opcode.MAP: _check_map,
    Opcode.SORT: _check_sort,
    Opcode.CONDITIONAL: _check_conditional,
}


def _expect(inst: Instruction, ok: bool, message: str) -> None:
    if not ok:
        raise HloVerifyError(message, inst.name)


def _fail(inst: Instruction, message: str) -> None:
    raise HloVerifyError(message, inst.name)
