"""What a hostile (or just unlucky) user does to dynhlo: dynamic sizes.

Sizes that refer to each other, sizes from values that disagree with the size they meet,
unbounded (?) dims, size 0 for every corpus model, sizeless producers shared by two sizes.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix.
Expected values are numpy on the static computation.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.common import MODELS, hlo_module


# -- dynamic size inference: sizes that refer to each other ------------------------------------


def test_a_reshape_round_trip_meeting_its_source():
    """reshape(reshape(x)) meets x: the merged size x.0*3 split back is x.0 again. Before:
    unify made x.0's size the formula computed from x.0 (RecursionError at compile time)."""
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  x = f32[<=6,3] parameter(0)
  flat = f32[<=18] reshape(x)
  back = f32[<=6,3] reshape(flat)
  ROOT r = f32[<=6,3] add(back, x)
}"""))
    for n in (0, 1, 4, 6):
        x = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        np.testing.assert_array_equal(exe(x), 2 * x)


# -- sizes from values that disagree with the size they meet ------------------------------------


@pytest.mark.parametrize("text, args, expected", [
    ("""ENTRY m {
  a = f32[<=4] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=4] set-dimension-size(a, n), dimensions={0}
  ROOT r = f32[<=4] add(s, a)
}""", (np.float32([1, 2]), np.int32(3)), [2, 4]),
    ("""ENTRY m {
  a = f32[<=8] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=8] custom-call(a, n), custom_call_target="SliceToDynamic"
  ROOT r = f32[<=8] add(s, a)
}""", (np.arange(6, dtype=np.float32), np.int32(2)), [0, 2]),
    ("""ENTRY m {
  a = f32[<=8] parameter(0)
  n = s32[] parameter(1)
  k = s32[] parameter(2)
  b = f32[<=4,<=4] parameter(3)
  s = f32[<=4,<=4] dynamic-reshape(a, n, k)
  ROOT r = f32[<=4,<=4] add(s, b)
}""", (np.arange(6, dtype=np.float32), np.int32(3), np.int32(2), np.ones((2, 3), np.float32)),
     [[1, 2], [3, 4]]),
], ids=["set-dimension-size", "SliceToDynamic", "dynamic-reshape"])
def test_a_size_from_a_value_that_disagrees_with_the_size_it_meets(text, args, expected):
    """A size from a value meeting another size in an add: XLA's rule (HandleElementwiseNary,
    no shape check by default) gives the add the smaller size; each operand keeps its own
    size up to there (set-dimension-size past the end reads zeros: s = [1, 2, 0])."""
    exe = dynhlo.compile(hlo_module(text))
    np.testing.assert_array_equal(exe(*args), expected)


def test_sizes_from_values_that_agree_still_run():
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  a = f32[<=4] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=4] set-dimension-size(a, n), dimensions={0}
  ROOT r = f32[<=4] add(s, a)
}"""))
    np.testing.assert_array_equal(exe(np.float32([1, 2]), np.int32(2)), [2, 4])


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_sizes_that_must_be_one_are_checked_at_run_time(backend):
    """A dot's contracted dimensions, two arguments' sizes: nothing proves them equal at
    compile time, so each call checks them (XLA's kRuntime shape check), naming where they
    meet, instead of a refused module or a product over the wrong elements."""
    options = {"backend": "cpu"}
    if backend == "gpu":
        from tests.support.gpucheck import GPU
        options = GPU
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  a = f32[2,<=4] parameter(0)
  b = f32[<=4,3] parameter(1)
  ROOT r = f32[2,3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}"""), **options)
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((3, 3), np.float32)
    np.testing.assert_array_equal(np.asarray(exe(a, b)), a @ b)
    with pytest.raises(dynhlo.DynamicSizeError, match="meet in 'r'"):
        exe(a, b[:2])


# -- unbounded (?) dims straight on the CPU -------------------------------------------------


@pytest.mark.parametrize("declared, shape, want", [
    ("a = f32[?,64] parameter(0)\n  ROOT r = f32[?] reshape(a)", (3, 64), (192,)),
    ("a = f32[?,?] parameter(0)\n  ROOT r = f32[?] reshape(a)", (3, 5), (15,)),
    ("a = f32[?] parameter(0)\n  ROOT r = f32[?,4] reshape(a)", (12,), (3, 4)),
    ("a = f32[?,4] parameter(0)\n  ROOT r = f32[?,2,2] reshape(a)", (0, 4), (0, 2, 2)),
])
def test_reshape_of_unbounded_dims(declared, shape, want):
    """Before: 'element counts differ' (bound products of -1 never matched)."""
    exe = dynhlo.compile(hlo_module(f"ENTRY m {{\n  {declared}\n}}"))
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    np.testing.assert_array_equal(exe(x), x.reshape(want))


def test_reshape_of_unbounded_dims_that_does_not_divide():
    exe = dynhlo.compile(hlo_module("ENTRY m {\n  a = f32[?] parameter(0)\n"
                                    "  ROOT r = f32[?,4] reshape(a)\n}"))
    with pytest.raises(dynhlo.DynamicSizeError, match="does not divide"):
        exe(np.ones(10, np.float32))
    with pytest.raises(dynhlo.UnsupportedError, match="exactly one `\\?`"):
        dynhlo.compile(hlo_module("ENTRY m {\n  a = f32[?] parameter(0)\n"
                                  "  ROOT r = f32[?,?] reshape(a)\n}"))


# -- size 0 for every corpus model: the static computation at size 0 -------------------------



@pytest.mark.parametrize("variant", ["module", "module_params_only"])
@pytest.mark.parametrize("model", sorted(p.name for p in MODELS.iterdir() if p.is_dir())
                         if MODELS.is_dir() else [])
def test_corpus_model_at_size_zero(model, variant):
    """JAX starts dimension variables at 1; the corpus lists sizes >= 1. At 0: a softmax over
    0 rows is an empty array, a sum over 0 tokens is zeros, attention over 0 keys is empty."""
    import json
    from dynhlo.hlo.types import to_numpy_dtype
    case = json.loads((MODELS / model / "cases.json").read_text())
    exe = dynhlo.compile((MODELS / model / f"{variant}.hlo").read_text())
    data = np.random.default_rng(0)
    args = [data.standard_normal([0 if isinstance(s, str) else s for s in p["bounded_shape"]])
            .astype(to_numpy_dtype(p["dtype"])) for p in case["params"]]
    outputs = exe(*args)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for out, spec in zip(outputs, case["outputs"], strict=True):
        want = [0 if isinstance(s, str) else s for s in spec["bounded_shape"]]
        assert list(out.shape) == want
        assert not np.isnan(out).any()
        if out.size:  # a reduction over the 0 dynamic elements: its init value
            np.testing.assert_array_equal(out, np.zeros_like(out))


@pytest.mark.parametrize("sizeless", ["k = f32[] constant(2)\n  c = f32[<=4] broadcast(k), "
                                      "dimensions={}", "c = f32[<=4] iota(), iota_dimension=0"])
def test_one_sizeless_broadcast_shared_by_two_sizes(sizeless):
    """XLA's CSE leaves one broadcast of a constant used at two sizes. Before: the broadcast
    took the first size it met and tied the second to it (a false DynamicSizeError), though
    the params-only form of the same module ran."""
    exe = dynhlo.compile(hlo_module(f"""ENTRY m {{
  a = f32[<=4] parameter(0)
  b = f32[<=4] parameter(1)
  {sizeless}
  x = f32[<=4] multiply(a, c)
  y = f32[<=4] multiply(b, c)
  ROOT t = (f32[<=4], f32[<=4]) tuple(x, y)
}}"""))
    c = np.float32([2, 2, 2, 2]) if "broadcast" in sizeless else np.float32([0, 1, 2, 3])
    a, b = np.float32([1, 2]), np.float32([1, 2, 3])
    x, y = exe(a, b)
    np.testing.assert_array_equal(x, a * c[:2])
    np.testing.assert_array_equal(y, b * c[:3])
    x, y = exe(a, a)  # equal sizes: the same answer as before
    np.testing.assert_array_equal(y, a * c[:2])


def test_two_sizes_meeting_directly_take_the_smaller_as_xla_does():
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  a = f32[<=4] parameter(0)
  b = f32[<=4] parameter(1)
  k = f32[] constant(2)
  c = f32[<=4] broadcast(k), dimensions={}
  x = f32[<=4] multiply(a, c)
  ROOT y = f32[<=4] add(x, b)
}"""))
    np.testing.assert_array_equal(exe(np.float32([1, 2]), np.float32([1, 2, 3])), [3, 6])
    np.testing.assert_array_equal(exe(np.float32([5]), np.float32([1, 2, 3])), [11, 12, 13])


@pytest.mark.parametrize("size", [6, -1])
@pytest.mark.parametrize("op, shape, dim, bound", [
    ("a_sized = f32[4,<=5] set-dimension-size(a, n), dimensions={1}", "f32[4,<=5]", 1, 5),
    ("a_sized = f32[<=5,4] dynamic-reshape(a, n, four)", "f32[<=5,4]", 0, 5),
], ids=["set-dimension-size", "dynamic-reshape"])
def test_a_size_from_a_value_outside_the_bound_names_the_dimension(size, op, shape, dim, bound):
    """Before: "instruction 'a_sized': dynamic size 6 from 'n' is outside [0, 5]", with no
    dimension and no shape to say which bound."""
    exe = dynhlo.compile(hlo_module(f"""ENTRY m {{
  a = f32[4,5] parameter(0)
  n = s32[] parameter(1)
  four = s32[] constant(4)
  {op}
  ROOT b = {shape} negate(a_sized)
}}"""))
    np.testing.assert_array_equal(exe(np.ones((4, 5), np.float32), 5), -np.ones((4, 5)).reshape(
        [4, 5] if dim else [5, 4]))
    with pytest.raises(dynhlo.DynamicSizeError) as info:
        exe(np.ones((4, 5), np.float32), size)
    opcode = op.split()[3].split("(")[0]
    assert (f"instruction 'a_sized' ({opcode}) dimension {dim}: dynamic size {size} from 'n' "
            f"is outside [0, {bound}] (the bound of {shape})") in str(info.value)


def test_a_size_error_names_the_instruction_of_its_own_module():
    """Equal sizes are one object within a module; two modules of the same parameters share
    none, so an error names the instruction of the module that raised it."""
    exes = [dynhlo.compile(hlo_module(f"""ENTRY m {{
  x = f32[<=12] parameter(0)
  ROOT {name} = f32[<=4,3] reshape(x)
}}""")) for name in ("first", "second")]
    with pytest.raises(dynhlo.DynamicSizeError, match="'second'.*does not divide"):
        exes[1](np.ones(10, np.float32))


# -- one size reached along two paths: the fast paths of same_size and meet ---------------------


@pytest.mark.parametrize("static_like", [False, True])
def test_two_dims_of_one_root_are_one_size_and_meet_at_the_root(static_like):
    """Two Syms made one (the second's parent is the first) are one size, and meet gives the
    root, as unify does for them, without the general rule (a loop-carried one too)."""
    from dynhlo.shapes import algebra
    from dynhlo.shapes.sizes import Sym, meet, same_size, size_key, unify
    a = Sym(8, static_like=static_like)
    b = Sym(8, static_like=static_like)
    c = Sym(8)
    b.parent = a
    assert same_size(a, b) and same_size(b, a)
    assert size_key(a) is size_key(b)
    assert meet(a, b) is a is meet(b, a) is unify(a, b)
    assert not same_size(a, c) and size_key(a) is not size_key(c)
    # two roots of one expression are one size still (the general rule, by size_key)
    n = Sym(8)
    e1 = Sym(8, algebra.source("sym", (n,), 0, 8))
    e2 = Sym(8, algebra.source("sym", (n,), 0, 8))
    assert e1.root() is not e2.root() and same_size(e1, e2)
