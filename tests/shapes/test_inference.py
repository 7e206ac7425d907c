"""Dynamic dimension inference on hand-written modules.

For each module: which dims are dynamic and what their size expressions are (inference), and
that those sizes evaluate to the right numbers at run time (SizeEnv on argument shapes, and
the executable's results, checked against NumPy by hand at the actual sizes).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.inspect import invocations
from dynhlo.shapes.dynamic import infer_module, is_dynamic_tree, tree_text
from dynhlo.shapes.sizes import SizeEnv, Sym
from tests.support.common import MODELS


def _infer(text: str):
    module = dynhlo.parse_hlo(text)
    info = infer_module(module)
    by_name = {inst.name: inst for inst in module.entry.instructions}
    return module, info, by_name


def _dims(text: str) -> dict[str, str]:
    """instruction name -> inferred dims text, for the entry computation."""
    _, info, by_name = _infer(text)
    return {name: tree_text(info.dims[inst]) for name, inst in by_name.items()}


def _sizes(text: str, name: str, *arg_shapes) -> tuple:
    """The run-time sizes of instruction `name` when the arguments have `arg_shapes`."""
    _, info, by_name = _infer(text)
    return SizeEnv(list(arg_shapes)).sizes(info.dims[by_name[name]])


SEED = """HloModule seed
ENTRY main {
  a = f32[<=5,5]{1,0} parameter(0)
  ROOT b = f32[<=5,5]{0,1} copy(a)
}
"""


def test_parameter_dims_follow_the_argument():
    assert _dims(SEED) == {"a": "[a.0,5]", "b": "[a.0,5]"}
    assert _sizes(SEED, "b", (3, 5)) == (3, 5)
    assert _sizes(SEED, "b", (0, 5)) == (0, 5)


CONSTANT_MEETS = """HloModule constant_meets
ENTRY main {
  x = f32[<=8]{0} parameter(0)
  c = f32[] constant(1.5)
  b = f32[<=8]{0} broadcast(c), dimensions={}
  i = s32[<=8]{0} iota(), iota_dimension=0
  f = f32[<=8]{0} convert(i)
  s = f32[<=8]{0} add(x, b)
  ROOT t = f32[<=8]{0} multiply(s, f)
}
"""


def test_broadcast_of_a_constant_takes_the_size_it_meets():
    dims = _dims(CONSTANT_MEETS)
    # b and i have no source of size of their own: they take x's from the ops they meet.
    assert dims["b"] == dims["i"] == dims["t"] == "[x.0]"
    assert _sizes(CONSTANT_MEETS, "b", (3,)) == (3,)
    x = np.array([1, 2, 3], np.float32)
    out = dynhlo.compile(CONSTANT_MEETS)(x)
    np.testing.assert_array_equal(out, (x + 1.5) * np.arange(3))


UNMET_BROADCAST = """HloModule unmet
ENTRY main {
  c = f32[] constant(2)
  ROOT b = f32[<=6]{0} broadcast(c), dimensions={}
}
"""


def test_a_sizeless_dim_that_meets_nothing_runs_at_its_bound():
    dims = _dims(UNMET_BROADCAST)
    assert dims["b"] == "[<=6]"
    np.testing.assert_array_equal(dynhlo.compile(UNMET_BROADCAST)(), np.full(6, 2, np.float32))


PARAMS_ONLY = """HloModule params_only
add_f32 {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT s = f32[] add(p, q)
}
ENTRY main {
  x = f32[<=8,4]{1,0} parameter(0)
  n = f32[8,4]{1,0} negate(x)
  c = f32[] constant(10)
  cb = f32[8,4]{1,0} broadcast(c), dimensions={}
  y = f32[8,4]{1,0} add(n, cb)
  z = f32[] constant(0)
  rows = f32[8]{0} reduce(y, z), dimensions={1}, to_apply=add_f32
  cols = f32[4]{0} reduce(y, z), dimensions={0}, to_apply=add_f32
  ROOT out = (f32[8]{0}, f32[4]{0}) tuple(rows, cols)
}
"""


def test_static_declared_intermediates_become_dynamic():
    dims = _dims(PARAMS_ONLY)
    assert dims["n"] == dims["y"] == "[x.0,4]"
    assert dims["rows"] == "[x.0]"
    assert dims["cols"] == "[4]"  # the dynamic dim was reduced away
    assert dims["cb"] == "[8,4]"  # a static broadcast stays at its declared size
    assert dims["out"] == "([x.0], [4])"
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    rows, cols = dynhlo.compile(PARAMS_ONLY)(x)
    y = 10 - x  # padding rows (which would add 10 each) must not reach `cols`
    np.testing.assert_array_equal(rows, y.sum(axis=1))
    np.testing.assert_array_equal(cols, y.sum(axis=0))


@pytest.mark.parametrize("model", sorted(p.name for p in MODELS.iterdir() if p.is_dir())
                         if MODELS.is_dir() else [])
def test_params_only_infers_what_the_marked_module_declares(model):
    """In the corpus, inference on module_params_only.hlo finds every dim module.hlo marks.

    The only instructions allowed to differ are broadcasts of static operands: the marked
    module declares them `<=` (sizeless producers), the params-only one at the full bound.
    """
    def dynamic_names(variant, declared):
        module = dynhlo.parse_hlo((MODELS / model / variant).read_text())
        out = {}
        for _, info in invocations(infer_module(module)):
            for inst, tree in info.dims.items():
                if (not inst.shape.is_static) if declared else is_dynamic_tree(tree):
                    out[(info.computation.name, inst.name)] = inst
        return out

    marked = dynamic_names("module.hlo", declared=True)
    inferred = dynamic_names("module_params_only.hlo", declared=False)
    assert set(inferred) <= set(marked)
    for key in set(marked) - set(inferred):
        assert marked[key].opcode.value == "broadcast", key
    assert len(inferred) >= len(marked) // 2


RESHAPES = """HloModule reshapes
ENTRY main {
  x = f32[<=4,3]{1,0} parameter(0)
  merged = f32[<=12]{0} reshape(x)
  split = f32[<=6,2]{1,0} reshape(merged)
  y = f32[2,<=5,3]{2,1,0} parameter(1)
  inner = f32[2,<=15]{1,0} reshape(y)
  ROOT out = (f32[<=6,2]{1,0}, f32[2,<=15]{1,0}) tuple(split, inner)
}
"""


def test_reshape_merging_and_splitting_a_dynamic_dim():
    dims = _dims(RESHAPES)
    assert dims["merged"] == "[x.0*3]"
    assert dims["split"] == "[x.0*3/2,2]"
    assert dims["inner"] == "[2,y.1*3]"
    assert _sizes(RESHAPES, "merged", (4, 3), (2, 1, 3)) == (12,)
    assert _sizes(RESHAPES, "split", (2, 3), (2, 1, 3)) == (3, 2)
    assert _sizes(RESHAPES, "inner", (2, 3), (2, 4, 3)) == (2, 12)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    split, inner = dynhlo.compile(RESHAPES)(x, y)
    np.testing.assert_array_equal(split, x.reshape(3, 2))  # row-major at the actual sizes
    np.testing.assert_array_equal(inner, y.reshape(2, 12))


CONCAT = """HloModule concat
ENTRY main {
  x = f32[<=4,2]{1,0} parameter(0)
  y = f32[<=3,2]{1,0} parameter(1)
  ROOT c = f32[<=7,2]{1,0} concatenate(x, y), dimensions={0}
}
"""


@pytest.mark.parametrize("n,m", [(2, 3), (0, 1), (4, 0), (4, 3)])
def test_concatenate_along_a_dynamic_dim(n, m):
    assert _dims(CONCAT)["c"] == "[x.0+y.0,2]"
    assert _sizes(CONCAT, "c", (n, 2), (m, 2)) == (n + m, 2)
    x = np.arange(2 * n, dtype=np.float32).reshape(n, 2)
    y = -np.arange(2 * m, dtype=np.float32).reshape(m, 2) - 1
    np.testing.assert_array_equal(dynhlo.compile(CONCAT)(x, y), np.concatenate([x, y]))


SLICE_PAD = """HloModule slice_pad
ENTRY main {
  x = f32[<=6]{0} parameter(0)
  s = f32[3]{0} slice(x), slice={[1:4]}
  z = f32[] constant(0)
  ROOT p = f32[<=9]{0} pad(x, z), padding=1_2
}
"""


def test_slice_and_pad_of_a_dynamic_dim():
    dims = _dims(SLICE_PAD)
    _, info, by_name = _infer(SLICE_PAD)
    assert is_dynamic_tree(info.dims[by_name["s"]])  # declared static, sliced from x.0
    assert dims["p"] == "[x.0+3]"   # XLA's pad size max(0, lo + hi + n), n >= 0
    for n, want_s in ((6, 3), (3, 2), (1, 0), (0, 0)):
        assert _sizes(SLICE_PAD, "s", (n,)) == (want_s,)
        assert _sizes(SLICE_PAD, "p", (n,)) == (n + 3,)
    x = np.array([5, 6], np.float32)
    np.testing.assert_array_equal(dynhlo.compile(SLICE_PAD)(x), [0, 5, 6, 0, 0])


SET_GET = """HloModule set_get
ENTRY main {
  x = f32[<=5,2]{1,0} parameter(0)
  n = s32[] parameter(1)
  s = f32[<=5,2]{1,0} set-dimension-size(x, n), dimensions={0}
  g = s32[] get-dimension-size(s), dimensions={0}
  h = s32[] get-dimension-size(x), dimensions={0}
  ROOT t = (f32[<=5,2]{1,0}, s32[], s32[]) tuple(s, g, h)
}
"""


def test_set_and_get_dimension_size():
    dims = _dims(SET_GET)
    assert dims["s"] == "[value(n),2]"
    assert dims["g"] == "[]"
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    s, g, h = dynhlo.compile(SET_GET)(x[:4], np.int32(2))
    np.testing.assert_array_equal(s, x[:2])
    assert (int(g), int(h)) == (2, 4)


DOT_AND_TRANSPOSE = """HloModule dot_transpose
ENTRY main {
  a = f32[2,<=5]{1,0} parameter(0)
  b = f32[<=5,3]{1,0} parameter(1)
  d = f32[2,3]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[3,<=5]{0,1} transpose(b), dimensions={1,0}
  ROOT out = (f32[2,3]{1,0}, f32[3,<=5]{0,1}) tuple(d, t)
}
"""


def test_dot_contracting_a_dynamic_dim_and_transpose():
    dims = _dims(DOT_AND_TRANSPOSE)
    assert dims["b"] == "[a.1,3]"  # the contraction makes the two sizes one
    assert dims["d"] == "[2,3]"
    assert dims["t"] == "[3,a.1]"
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(9, dtype=np.float32).reshape(3, 3) - 4
    d, t = dynhlo.compile(DOT_AND_TRANSPOSE)(a, b)
    np.testing.assert_allclose(d, a @ b, rtol=1e-6)
    np.testing.assert_array_equal(t, b.T)


CALLED_TWICE = """HloModule called_twice
double {
  p = f32[<=4]{0} parameter(0)
  ROOT d = f32[<=4]{0} add(p, p)
}
ENTRY main {
  x = f32[<=4]{0} parameter(0)
  y = f32[<=4]{0} parameter(1)
  cx = f32[<=4]{0} call(x), to_apply=double
  cy = f32[<=4]{0} call(y), to_apply=double
  ROOT t = (f32[<=4]{0}, f32[<=4]{0}) tuple(cx, cy)
}
"""


def test_a_computation_called_with_two_sizes_keeps_both():
    _, info, by_name = _infer(CALLED_TWICE)
    cx, cy = by_name["cx"], by_name["cy"]
    callee_x, callee_y = info.callee(cx), info.callee(cy)
    assert callee_x is not callee_y
    root_x, root_y = callee_x.computation.root, callee_y.computation.root
    assert tree_text(callee_x.dims[root_x]) == "[x.0]"
    assert tree_text(callee_y.dims[root_y]) == "[y.0]"
    rx, ry = dynhlo.compile(CALLED_TWICE)(np.ones(1, np.float32), np.ones(3, np.float32))
    assert rx.shape == (1,) and ry.shape == (3,)
    np.testing.assert_array_equal(ry, [2, 2, 2])


def test_static_modules_have_no_dynamic_dims():
    text = ("HloModule s\nENTRY e {\n  a = f32[2,3] parameter(0)\n"
            "  ROOT t = f32[3,2] transpose(a), dimensions={1,0}\n}\n")
    _, info, _ = _infer(text)
    assert not any(is_dynamic_tree(t) for t in info.dims.values())
    assert all(not isinstance(d, Sym) for t in info.dims.values() for d in t)
