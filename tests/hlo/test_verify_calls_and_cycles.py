"""What a hostile (or just unlucky) user does to dynhlo: compile-time checks.

Operand and call cycles, the signatures of called computations, attributes that were
checked only at run time or never, and calls nested deeper than Python's stack.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix.
Expected values are numpy on the static computation.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.common import assert_verify_error, hlo_module


# -- cycles: operands and calls --------------------------------------------------------


def test_operands_that_form_a_cycle_are_a_verify_error():
    assert_verify_error(hlo_module("""ENTRY m {
  a = f32[4] parameter(0)
  b = f32[4] add(a, c)
  c = f32[4] add(a, b)
  ROOT d = f32[4] add(b, c)
}"""), "b", "cycle", "b <- c <- b")


def test_an_instruction_that_is_its_own_operand():
    assert_verify_error(hlo_module("""ENTRY m {
  a = f32[4] parameter(0)
  ROOT b = f32[4] add(a, b)
}"""), "b", "cycle")


def test_operands_defined_after_their_users_still_run():
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  ROOT c = f32[<=4] add(a, b)
  a = f32[<=4] parameter(0)
  b = f32[<=4] parameter(1)
}"""))
    x, y = np.float32([1, 2]), np.float32([10, 20])
    np.testing.assert_array_equal(exe(x, y), x + y)


@pytest.mark.parametrize("text, instruction", [
    ("""f {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=f
}
ENTRY m {
  a = f32[] parameter(0)
  ROOT r = f32[] call(a), to_apply=f
}""", "c"),
    ("""ENTRY m {
  a = f32[<=4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=m
}""", "r"),
    ("""g {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=h
}
h {
  p = f32[] parameter(0)
  ROOT c2 = f32[] call(p), to_apply=g
}
ENTRY m {
  a = f32[] parameter(0)
  ROOT r = f32[] call(a), to_apply=g
}""", "c"),
], ids=["self", "entry-as-reducer", "mutual"])
def test_a_computation_that_calls_itself_is_a_verify_error(text, instruction):
    assert_verify_error(hlo_module(text), instruction, "call themselves")


# -- signatures of called computations ---------------------------------------------------

NEGATE = """one {
  p = f32[] parameter(0)
  ROOT r = f32[] negate(p)
}
"""
THREE = """three {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  s = f32[] parameter(2)
  ROOT r = f32[] add(p, q)
}
"""
VECTOR = """vec {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT r = f32[4] add(p, q)
}
"""
CALLERS = {
    "reduce": """ENTRY m {
  a = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=F
}""",
    "sort": """ENTRY m {
  a = f32[<=8] parameter(0)
  ROOT r = f32[<=8] sort(a), dimensions={0}, to_apply=F
}""",
    "reduce-window": """ENTRY m {
  a = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=8] reduce-window(a, z), window={size=2 pad=1_0}, to_apply=F
}""",
    "scatter": """ENTRY m {
  a = f32[<=8] parameter(0)
  idx = s32[2,1] parameter(1)
  u = f32[2] parameter(2)
  ROOT r = f32[<=8] scatter(a, idx, u), update_window_dims={}, inserted_window_dims={0},
    scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=F
}""",
    "all-reduce": """ENTRY m {
  a = f32[<=8] parameter(0)
  ROOT r = f32[<=8] all-reduce(a), to_apply=F
}""",
    "map": """ENTRY m {
  a = f32[<=8] parameter(0)
  ROOT r = f32[<=8] map(a, a), dimensions={0}, to_apply=F
}""",
    "while": """ENTRY m {
  a = f32[] parameter(0)
  ROOT r = f32[] while(a), condition=F, body=F
}""",
}


@pytest.mark.parametrize("callee", ["one", "three", "vec"])
@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_called_computation_with_the_wrong_signature(caller, callee):
    """Before: garbage (-0. from a 1-parameter reducer), IndexError, or a while loop whose
    f32 condition was read as True forever."""
    text = {"one": NEGATE, "three": THREE, "vec": VECTOR}[callee]
    text += CALLERS[caller].replace("=F", "=" + callee).replace("\n    ", " ")
    assert_verify_error(hlo_module(text), "r")


def test_a_loop_condition_must_return_pred():
    text = NEGATE + CALLERS["while"].replace("condition=F, body=F",
                                             "condition=one, body=one")
    assert_verify_error(hlo_module(text), "r", "condition 'one' returns f32[], not pred[]")


def test_a_loop_body_must_return_what_it_takes():
    assert_verify_error(hlo_module("""cond {
  p = (s32[], f32[<=4]) parameter(0)
  ROOT t = pred[] constant(false)
}
body {
  p = (s32[], f32[<=4]) parameter(0)
  ROOT i = s32[] get-tuple-element(p), index=0
}
ENTRY m {
  a = f32[<=4] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[<=4]) tuple(z, a)
  ROOT w = (s32[], f32[<=4]) while(t), condition=cond, body=body
}"""), "w", "body 'body' returns s32[]")


def test_a_reducer_must_return_its_accumulator_type():
    assert_verify_error(hlo_module("""red {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT r = pred[] compare(p, q), direction=LT
}
ENTRY m {
  a = f32[<=8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=red
}"""), "r", "reducer 'red' returns pred")


def test_good_signatures_still_run():
    """A variadic reduce (argmax, as JAX lowers it), a sort comparator and a while loop."""
    exe = dynhlo.compile(hlo_module("""argmax {
  a = f32[] parameter(0)
  i = s32[] parameter(1)
  b = f32[] parameter(2)
  j = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GE
  v = f32[] select(gt, a, b)
  k = s32[] select(gt, i, j)
  ROOT t = (f32[], s32[]) tuple(v, k)
}
less {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT r = pred[] compare(p, q), direction=LT
}
ENTRY m {
  x = f32[<=8] parameter(0)
  io = s32[<=8] iota(), iota_dimension=0
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  am = (f32[], s32[]) reduce(x, io, ninf, zero), dimensions={0}, to_apply=argmax
  s = f32[<=8] sort(x), dimensions={0}, to_apply=less
  ROOT t = ((f32[], s32[]), f32[<=8]) tuple(am, s)
}"""))
    x = np.float32([3, 9, 1, 9, 2])
    (value, index), s = exe(x)
    assert (value, index) == (9, 1)
    np.testing.assert_array_equal(s, np.sort(x))


# -- calls nested deeper than Python's stack ----------------------------------------------


def _call_chain(depth: int) -> str:
    comps = [f"c{depth - 1} {{\n  p = f32[<=4] parameter(0)\n  ROOT r = f32[<=4] negate(p)\n}}"]
    for i in reversed(range(depth - 1)):
        comps.append(f"c{i} {{\n  p = f32[<=4] parameter(0)\n"
                     f"  ROOT r = f32[<=4] call(p), to_apply=c{i + 1}\n}}")
    return hlo_module("\n".join(comps) + "\nENTRY m {\n  a = f32[<=4] parameter(0)\n"
                      "  ROOT r = f32[<=4] call(a), to_apply=c0\n}")


def test_calls_nested_deeper_than_python_allows():
    """Before: RecursionError from deep inside inference."""
    with pytest.raises(dynhlo.UnsupportedError, match="call each other more deeply"):
        dynhlo.compile(_call_chain(3000))
    exe = dynhlo.compile(_call_chain(40))
    np.testing.assert_array_equal(exe(np.float32([1, -2])), [-1, 2])


def test_evaluation_out_of_stack_is_a_clear_error():
    import sys
    exe = dynhlo.compile(_call_chain(60))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # as if evaluation needed more frames than inference did
    try:
        with pytest.raises(dynhlo.UnsupportedError, match="call each other more deeply"):
            exe(np.float32([1, -2]))
    finally:
        sys.setrecursionlimit(limit)


# -- attributes that were checked only at run time, or never --------------------------------


@pytest.mark.parametrize("text, fragment", [
    ("""ENTRY m {
  a = f32[5] parameter(0)
  n = f32[] parameter(1)
  ROOT r = f32[<=5] set-dimension-size(a, n), dimensions={0}
}""", "integer size"),
    ("""ENTRY m {
  a = f32[<=5] parameter(0)
  ROOT r = pred[<=5] compare(a, a), direction=XX
}""", "direction=XX"),
    ("""ENTRY m {
  ROOT r = s32[5] iota(), iota_dimension=3
}""", "iota_dimension=3"),
], ids=["f32-size", "compare-direction", "iota-dimension"])
def test_bad_attributes_are_verify_errors_at_compile_time(text, fragment):
    """Before: an f32 size 2.7 silently truncated to 2; a bad compare direction or iota
    dimension compiled and failed only when run."""
    assert_verify_error(hlo_module(text), "r", fragment)


def test_rank_over_numpys_limit_is_unsupported_at_compile_time():
    """Before: a rank-70 broadcast compiled, then NumPy raised ValueError from deep inside."""
    dims = ",".join(["1"] * 70)
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.compile(hlo_module(f"""ENTRY m {{
  c = f32[] constant(1)
  ROOT b = f32[{dims}] broadcast(c), dimensions={{}}
}}"""))
    assert "'b'" in str(info.value) and "rank 70" in str(info.value)


def test_reduce_precision_of_complex_is_a_verify_error():
    """Before: a ComplexWarning, and the imaginary part silently dropped."""
    assert_verify_error(hlo_module("ENTRY m {\n  a = c64[<=8] parameter(0)\n  ROOT r = c64[<=8] "
                                   "reduce-precision(a), exponent_bits=5, mantissa_bits=2\n}"),
                        "r", "reduce-precision takes")


# -- found by mutating the corpus modules' numbers and opcodes -------------------------------


@pytest.mark.parametrize("root", [
    "f32[<=8] concatenate(a, a), dimensions={}",
    "f32[<=4] sort(a), dimensions={0,1}, to_apply=lt",
    "s32[] get-dimension-size(a), dimensions={}",
])
def test_an_op_of_one_dimension_given_none_or_two(root):
    """Before: IndexError / 'too many values to unpack' from inside inference."""
    text = hlo_module("lt {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = pred[] "
                      "compare(x, y), direction=LT\n}\nENTRY m {\n  a = f32[<=4] parameter(0)\n"
                      f"  ROOT r = {root}\n}}")
    assert_verify_error(text, "r", "takes exactly one dimension")
