"""What a hostile (or just unlucky) user does to dynhlo, and what must come out.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix: a
traceback from deep inside (KeyError, IndexError, RecursionError), a loop condition that is
not a pred run as a truth value, results that alias the caller's arrays or the module's
constants, `-o` overwriting the input. Expected values are numpy on the static computation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dynhlo


def module(body: str) -> str:
    return "HloModule t\n" + body


def assert_verify_error(text: str, instruction: str, *fragments: str) -> None:
    with pytest.raises(dynhlo.HloVerifyError) as info:
        dynhlo.compile(text)
    assert info.value.instruction == instruction
    for fragment in fragments:
        assert fragment in str(info.value)


# -- cycles: operands and calls --------------------------------------------------------


def test_operands_that_form_a_cycle_are_a_verify_error():
    assert_verify_error(module("""ENTRY m {
  a = f32[4] parameter(0)
  b = f32[4] add(a, c)
  c = f32[4] add(a, b)
  ROOT d = f32[4] add(b, c)
}"""), "b", "cycle", "b <- c <- b")


def test_an_instruction_that_is_its_own_operand():
    assert_verify_error(module("""ENTRY m {
  a = f32[4] parameter(0)
  ROOT b = f32[4] add(a, b)
}"""), "b", "cycle")


def test_operands_defined_after_their_users_still_run():
    exe = dynhlo.compile(module("""ENTRY m {
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
    assert_verify_error(module(text), instruction, "call themselves")


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
    assert_verify_error(module(text), "r")


def test_a_loop_condition_must_return_pred():
    text = NEGATE + CALLERS["while"].replace("condition=F, body=F",
                                             "condition=one, body=one")
    assert_verify_error(module(text), "r", "condition 'one' returns f32[], not pred[]")


def test_a_loop_body_must_return_what_it_takes():
    assert_verify_error(module("""cond {
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
    assert_verify_error(module("""red {
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
    exe = dynhlo.compile(module("""argmax {
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


# -- results own their memory; arguments are never written ----------------------------------


@pytest.mark.parametrize("root", [
    "ROOT b = f32[<=4,3] parameter(0)",
    "ROOT b = f32[3,<=4] transpose(a), dimensions={1,0}",
    "ROOT b = f32[<=4,3] reshape(a)",
    "ROOT b = f32[<=4,3] bitcast(a)",
], ids=["parameter", "transpose", "reshape", "bitcast"])
def test_writing_a_result_never_changes_the_argument(root):
    """Before: `ROOT a = parameter(0)` returned the caller's own array, a transpose a view of
    it; writing into the result changed the caller's data."""
    text = "ENTRY m {\n  a = f32[<=4,3] parameter(0)\n  " + root + "\n}"
    if root.startswith("ROOT b = f32[<=4,3] parameter"):
        text = "ENTRY m {\n  " + root + "\n}"
    exe = dynhlo.compile(module(text))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = exe(x)
    y[...] = -1
    np.testing.assert_array_equal(x, np.arange(6, dtype=np.float32).reshape(2, 3))


def test_writing_a_result_never_changes_the_next_call():
    """Before: a constant root was the module's own literal; writing into the result changed
    every later call's answer."""
    exe = dynhlo.compile(module("""ENTRY m {
  a = f32[<=3] parameter(0)
  c = f32[3] constant({1, 2, 3})
  r = f32[3] reshape(c)
  ROOT t = (f32[<=3], f32[3], f32[3]) tuple(a, c, r)
}"""))
    first = exe(np.float32([5]))
    for value in first:
        value[...] = 100
    again = exe(np.float32([5]))
    np.testing.assert_array_equal(again[0], [5])
    np.testing.assert_array_equal(again[1], [1, 2, 3])
    np.testing.assert_array_equal(again[2], [1, 2, 3])


def test_results_do_not_share_memory_with_each_other():
    exe = dynhlo.compile(module("""ENTRY m {
  a = f32[<=4] parameter(0)
  n = f32[<=4] negate(a)
  r = f32[<=4] reshape(n)
  ROOT t = (f32[<=4], f32[<=4], f32[<=4]) tuple(n, n, r)
}"""))
    p, q, r = exe(np.float32([1, 2]))
    p[...] = 7
    np.testing.assert_array_equal(q, [-1, -2])
    np.testing.assert_array_equal(r, [-1, -2])


@pytest.mark.parametrize("layout", ["fortran", "strided", "read-only"])
def test_unusual_argument_arrays_are_read_not_written(layout):
    exe = dynhlo.compile(module("""ENTRY m {
  a = f32[<=6,4] parameter(0)
  u = f32[1,4] parameter(1)
  i = s32[] parameter(2)
  z = s32[] constant(0)
  ROOT d = f32[<=6,4] dynamic-update-slice(a, u, i, z)
}"""))
    base = np.arange(40, dtype=np.float32).reshape(10, 4)
    x = {"fortran": np.asfortranarray(base[:3]), "strided": base[::3],
         "read-only": base[:5].copy()}[layout]
    x.flags.writeable = layout != "read-only"
    before = x.copy()
    want = before.copy()
    want[1] = 9
    np.testing.assert_array_equal(exe(x, np.full((1, 4), 9, np.float32), np.int32(1)), want)
    np.testing.assert_array_equal(x, before)


# -- the command line never overwrites its own inputs ---------------------------------------

SEED = Path(__file__).resolve().parents[1] / "examples" / "seed.hlo"
ROW = "f32[1,5] {{1,2,3,4,5}}"


def _main(*argv: str) -> int:
    from dynhlo.cli import main
    return main([str(a) for a in argv])


def test_run_refuses_to_write_over_its_module(tmp_path, capsys):
    """Before: `dynhlo run m.hlo ... -o m.hlo` replaced the module with the npz."""
    path = tmp_path / "m.hlo"
    path.write_text(SEED.read_text())
    assert _main("run", path, ROW, "-o", tmp_path / "." / "m.hlo") == 1
    assert "is the input file" in capsys.readouterr().err
    assert path.read_text() == SEED.read_text()


def test_run_refuses_to_write_over_an_argument(tmp_path, capsys):
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.save(tmp_path / "x.npy", x)
    assert _main("run", SEED, tmp_path / "x.npy", "-o", tmp_path / "x.npy") == 1
    assert "is the input file" in capsys.readouterr().err
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), x)


def test_compile_refuses_to_write_over_its_module(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text(SEED.read_text())
    assert _main("compile", path, "-o", path) == 1
    assert "is the input file" in capsys.readouterr().err
    assert path.read_text() == SEED.read_text()


def test_run_output_that_is_a_directory(tmp_path, capsys):
    (tmp_path / "d").mkdir()
    assert _main("run", SEED, ROW, "-o", tmp_path / "d") == 1
    assert "is a directory" in capsys.readouterr().err


def test_run_output_overwrites_another_existing_file(tmp_path, capsys):
    out = tmp_path / "old.npz"
    out.write_bytes(b"old contents")
    assert _main("run", SEED, ROW, "-o", out, "-q") == 0
    np.testing.assert_array_equal(np.load(out)["out0"], [[1, 2, 3, 4, 5]])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.npz"]  # no temporary left


# -- text as editors and XLA write it ------------------------------------------------------

DUMP = """HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[<=8,4]{1,0:T(8,128)}, f32[4]{0})->(f32[<=8,4]{1,0}, f32[]{:T(256)})}

%region_0.2 (Arg_0.3: f32[], Arg_1.4: f32[]) -> f32[] {
  %Arg_0.3 = f32[] parameter(0), metadata={op_name="jit(f)/reduce_sum"}
  %Arg_1.4 = f32[] parameter(1)
  ROOT %add.5 = f32[] add(f32[] %Arg_0.3, f32[] %Arg_1.4), metadata={op_name="jit(f)/jit(main)/reduce_sum[axes=(0, 1)]" source_file="/tmp/x.py" source_line=5}
}

ENTRY %main.10 (Arg_1.2: f32[4], Arg_0.1: f32[<=8,4]) -> (f32[<=8,4], f32[]) {
  %Arg_1.2 = f32[4]{0} parameter(1), sharding={replicated}
  %Arg_0.1 = f32[<=8,4]{1,0:T(8,128)} parameter(0), metadata={op_name="x"}
  %broadcast.6 = f32[<=8,4]{1,0} broadcast(f32[4]{0} %Arg_1.2), dimensions={1}
  %multiply.7 = f32[<=8,4]{1,0} multiply(f32[<=8,4]{1,0:T(8,128)} %Arg_0.1, f32[<=8,4]{1,0} %broadcast.6), backend_config={"operation_queue_id":"0","wait_on_operation_queues":[]}
  %constant.8 = f32[] constant(0)
  %reduce.9 = f32[] reduce(f32[<=8,4]{1,0} %multiply.7, f32[] %constant.8), dimensions={0,1}, to_apply=%region_0.2
  ROOT %tuple.10 = (f32[<=8,4]{1,0}, f32[]) tuple(f32[<=8,4]{1,0} %multiply.7, /*index=1*/f32[] %reduce.9)
}
"""


@pytest.mark.parametrize("edit", ["as-is", "crlf", "tabs", "bom", "bom-bytes"])
def test_dump_form_as_editors_save_it(edit):
    """XLA's dump form (parameters out of order, tiled layouts, typed operands, metadata,
    /*index=N*/) with Windows line ends, tabs, or a byte order mark. Before: a BOM was a
    parse error at 1:1."""
    text = {"as-is": DUMP, "crlf": DUMP.replace("\n", "\r\n"), "tabs": DUMP.replace("  ", "\t"),
            "bom": "\ufeff" + DUMP, "bom-bytes": ("\ufeff" + DUMP).encode("utf-8")}[edit]
    exe = dynhlo.compile(dynhlo.parse_hlo(text))
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    w = np.float32([1, 2, 3, 4])
    y, total = exe(x, w)
    np.testing.assert_array_equal(y, x * w)
    assert total == (x * w).sum()


def test_cli_reads_a_module_saved_with_a_bom(tmp_path, capsys):
    path = tmp_path / "seed.hlo"
    path.write_text("\ufeff" + SEED.read_text(), encoding="utf-8")
    assert _main("run", path, ROW) == 0
    assert capsys.readouterr().out.strip() == "f32[1,5] { {1, 2, 3, 4, 5} }"


# -- huge bounds: work and memory follow the actual size --------------------------------------


def _peak_bytes(fn) -> int:
    import tracemalloc
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_broadcast_declared_at_the_bound_is_not_materialized():
    """XLA's params-only form: the broadcast of a constant is declared static at the bound
    and meets the actual size in the multiply. Before: it was allocated at the bound
    (256 MB here; 238 GiB at f32[<=1000000000,64])."""
    bound = 1_000_000
    exe = dynhlo.compile(module(f"""add {{
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT r = f32[] add(p, q)
}}
ENTRY m {{
  a = f32[<={bound},64] parameter(0)
  c = f32[] constant(2)
  b = f32[{bound},64] broadcast(c), dimensions={{}}
  r = f32[{bound},64] multiply(a, b)
  io = f32[{bound},64] iota(), iota_dimension=1
  s = f32[{bound},64] add(r, io)
  z = f32[] constant(0)
  ROOT t = f32[64] reduce(s, z), dimensions={{0}}, to_apply=add
}}"""))
    x = np.arange(3 * 64, dtype=np.float32).reshape(3, 64)
    out = []
    peak = _peak_bytes(lambda: out.append(exe(x)))
    np.testing.assert_allclose(out[0], (2 * x + np.arange(64, dtype=np.float32)).sum(axis=0))
    assert peak < 16 << 20, f"{peak} bytes for a 3x64 input"


# -- Python numbers as arguments (JAX's weak types) --------------------------------------------

SIZED = (Path(__file__).resolve().parents[1] / "examples" / "seed_set_dimension_size.hlo")


def test_python_numbers_take_the_parameters_type():
    """Before: `exe(x, 3)` for an s32[] parameter was 'expects s32, got s64', and a Python
    list could never be f32."""
    exe = dynhlo.compile(SIZED.read_text())
    rows = [[float(5 * r + c) for c in range(5)] for r in range(5)]
    out = exe(rows, 3)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.float32(rows)[:3])
    np.testing.assert_array_equal(exe([[1, 2, 3, 4, 5]], 1), np.float32([[1, 2, 3, 4, 5]]))


@pytest.mark.parametrize("value, parameter, fragment", [
    (2**40, 1, "does not fit in s32"),
    (1.5, 1, "expects s32"),
    (True, 1, "expects s32"),
    ([[1e300] * 5], 0, "does not fit in f32"),
    (np.float64(1.0), 0, "expects f32"),   # NumPy values keep their exact dtype
    ([np.ones(5)], 0, "expects f32"),
])
def test_python_numbers_that_do_not_fit(value, parameter, fragment):
    exe = dynhlo.compile(SIZED.read_text())
    args = [np.zeros((5, 5), np.float32), np.int32(3)]
    args[parameter] = value
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(*args)
    assert info.value.parameter == parameter and fragment in str(info.value)


# -- dynamic size inference: sizes that refer to each other ------------------------------------


def test_a_reshape_round_trip_meeting_its_source():
    """reshape(reshape(x)) meets x: the merged size x.0*3 split back is x.0 again. Before:
    unify made x.0's size the formula computed from x.0 (RecursionError at compile time)."""
    exe = dynhlo.compile(module("""ENTRY m {
  x = f32[<=6,3] parameter(0)
  flat = f32[<=18] reshape(x)
  back = f32[<=6,3] reshape(flat)
  ROOT r = f32[<=6,3] add(back, x)
}"""))
    for n in (0, 1, 4, 6):
        x = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        np.testing.assert_array_equal(exe(x), 2 * x)


# -- random elementwise chains over a dynamic dimension, against numpy ----------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

ROWS, COLS = 6, 3
_UNARY = {"negate": np.negative, "abs": np.abs, "tanh": np.tanh, "sine": np.sin,
          "floor": np.floor, "sign": np.sign}
_BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "maximum": np.maximum, "minimum": np.minimum}
_REDUCE = {"add": (np.add, "0"), "maximum": (np.maximum, "-inf"),
           "minimum": (np.minimum, "inf")}


class _Chain:
    """A random module `x f32[<=6,3], y f32[3], z f32[<=6] -> f32[<=6,3]` and its numpy
    reference. `static=True` declares intermediates at the bound (XLA's params-only form)."""

    def __init__(self, seed: int, static: bool):
        import random
        self.rng = random.Random(seed)
        self.dim0 = str(ROWS) if static else f"<={ROWS}"
        self.full = f"f32[{self.dim0},{COLS}]"
        self.lines = [f"  x = f32[<={ROWS},{COLS}] parameter(0)", f"  y = f32[{COLS}] "
                      "parameter(1)", f"  z = f32[<={ROWS}] parameter(2)"]
        self.count = 0
        cur, ref = "x", (lambda x, y, z: x)
        for _ in range(self.rng.randint(1, 8)):
            cur, ref = getattr(self, "_" + self.rng.choice(
                ["unary", "binary", "binary", "select", "reduce1", "reduce0", "reshape",
                 "transpose", "reverse", "sort", "cumsum", "window", "dot"]))(cur, ref)
        self.lines.append(f"  ROOT root = {self.full} copy({cur})")
        reducers = "".join(f"{r}_f {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                           f"  ROOT r = f32[] {r}(a, b)\n}}\n" for r in _REDUCE)
        reducers += ("less_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                     "  ROOT r = pred[] compare(a, b), direction=LT\n}\n")
        self.text = f"HloModule rand\n{reducers}ENTRY main {{\n" + "\n".join(self.lines) + "\n}"
        self.reference = ref

    def _name(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def _emit(self, shape: str, expr: str) -> str:
        name = self._name()
        self.lines.append(f"  {name} = {shape} {expr}")
        return name

    def _unary(self, cur, ref):
        op = self.rng.choice(sorted(_UNARY))
        return self._emit(self.full, f"{op}({cur})"), lambda x, y, z: _UNARY[op](ref(x, y, z))

    def _operand(self, cur, ref):
        """Another [<=6,3] operand: x, the chain itself, or something broadcast or sizeless."""
        kind = self.rng.choice(["x", "self", "y", "z", "const", "iota0", "iota1"])
        if kind == "x":
            return "x", lambda x, y, z: x
        if kind == "self":
            return cur, ref
        if kind == "y":
            return (self._emit(self.full, "broadcast(y), dimensions={1}"),
                    lambda x, y, z: np.broadcast_to(y, (len(x), COLS)))
        if kind == "z":
            return (self._emit(self.full, "broadcast(z), dimensions={0}"),
                    lambda x, y, z: np.broadcast_to(z[:, None], (len(x), COLS)))
        if kind == "const":
            c = self.rng.choice([-2.0, 0.5, 3.0])
            scalar = self._emit("f32[]", f"constant({c})")
            return (self._emit(self.full, f"broadcast({scalar}), dimensions={{}}"),
                    lambda x, y, z: np.full((len(x), COLS), c, np.float32))
        d = int(kind[-1])
        return (self._emit(self.full, f"iota(), iota_dimension={d}"),
                lambda x, y, z: np.indices((len(x), COLS))[d].astype(np.float32))

    def _binary(self, cur, ref):
        other, oref = self._operand(cur, ref)
        op = self.rng.choice(sorted(_BINARY))
        return (self._emit(self.full, f"{op}({cur}, {other})"),
                lambda x, y, z: _BINARY[op](ref(x, y, z), oref(x, y, z)))

    def _select(self, cur, ref):
        other, oref = self._operand(cur, ref)
        pred = self._emit(f"pred[{self.dim0},{COLS}]", f"compare({cur}, {other}), direction=LT")
        return (self._emit(self.full, f"select({pred}, {cur}, {other})"),
                lambda x, y, z: np.where(ref(x, y, z) < oref(x, y, z), ref(x, y, z),
                                         oref(x, y, z)))

    def _reduce1(self, cur, ref):  # over the static dim, broadcast back
        op = self.rng.choice(sorted(_REDUCE))
        fn, init = _REDUCE[op]
        zero = self._emit("f32[]", f"constant({init})")
        row = self._emit(f"f32[{self.dim0}]",
                         f"reduce({cur}, {zero}), dimensions={{1}}, to_apply={op}_f")
        return (self._emit(self.full, f"broadcast({row}), dimensions={{0}}"),
                lambda x, y, z: np.broadcast_to(
                    fn.reduce(ref(x, y, z), axis=1, initial=float(init))[:, None],
                    (len(x), COLS)))

    def _reduce0(self, cur, ref):  # over the dynamic dim (padding must not leak), then + x
        op = self.rng.choice(sorted(_REDUCE))
        fn, init = _REDUCE[op]
        zero = self._emit("f32[]", f"constant({init})")
        col = self._emit(f"f32[{COLS}]",
                         f"reduce({cur}, {zero}), dimensions={{0}}, to_apply={op}_f")
        wide = self._emit(self.full, f"broadcast({col}), dimensions={{1}}")
        return (self._emit(self.full, f"add({wide}, x)"),
                lambda x, y, z: fn.reduce(ref(x, y, z), axis=0, initial=float(init)) + x)

    def _reshape(self, cur, ref):
        flat_dim = str(ROWS * COLS) if self.dim0 == str(ROWS) else f"<={ROWS * COLS}"
        flat = self._emit(f"f32[{flat_dim}]", f"reshape({cur})")
        return self._emit(self.full, f"reshape({flat})"), ref

    def _reverse(self, cur, ref):
        return (self._emit(self.full, f"reverse({cur}), dimensions={{0}}"),
                lambda x, y, z: ref(x, y, z)[::-1])

    def _sort(self, cur, ref):  # along the dynamic dim: padding must not sort in
        return (self._emit(self.full, f"sort({cur}), dimensions={{0}}, to_apply=less_f"),
                lambda x, y, z: np.sort(ref(x, y, z), axis=0))

    def _cumsum(self, cur, ref):  # jnp.cumsum's reduce-window over the dynamic dim
        zero = self._emit("f32[]", "constant(0)")
        return (self._emit(self.full, f"reduce-window({cur}, {zero}), window={{size={ROWS}x1 "
                                      f"pad={ROWS - 1}_0x0_0}}, to_apply=add_f"),
                lambda x, y, z: np.cumsum(ref(x, y, z), axis=0))

    def _window(self, cur, ref):  # max of each row and the one after it (the last: itself)
        ninf = self._emit("f32[]", "constant(-inf)")
        return (self._emit(self.full, f"reduce-window({cur}, {ninf}), window={{size=2x1 "
                                      "pad=0_1x0_0}, to_apply=maximum_f"),
                lambda x, y, z: np.maximum(ref(x, y, z), np.concatenate(
                    [ref(x, y, z)[1:], np.full((min(1, len(x)), COLS), -np.inf)])))

    def _dot(self, cur, ref):  # cur @ (cur^T cur) / 8: contracts the dynamic dim once
        gram = self._emit(f"f32[{COLS},{COLS}]", f"dot({cur}, {cur}), lhs_contracting_dims={{0}}, "
                                                 "rhs_contracting_dims={0}")
        prod = self._emit(self.full, f"dot({cur}, {gram}), lhs_contracting_dims={{1}}, "
                                     "rhs_contracting_dims={0}")
        eighth = self._emit("f32[]", "constant(0.125)")
        scale = self._emit(self.full, f"broadcast({eighth}), dimensions={{}}")
        return (self._emit(self.full, f"multiply({prod}, {scale})"),
                lambda x, y, z: (lambda v: v @ (v.T @ v) * np.float32(0.125))(ref(x, y, z)))

    def _transpose(self, cur, ref):
        t = self._emit(f"f32[{COLS},{self.dim0}]{{0,1}}", f"transpose({cur}), dimensions={{1,0}}")
        return self._emit(self.full, f"transpose({t}), dimensions={{1,0}}"), ref


@settings(max_examples=150, deadline=None, print_blob=True)
@given(seed=st.integers(0, 2**32 - 1), static=st.booleans(), rows=st.integers(0, ROWS))
def test_random_chains_equal_numpy_at_the_actual_size(seed, static, rows):
    """A failure prints `seed`: `_Chain(seed, static).text` is the module."""
    chain = _Chain(seed, static)
    data = np.random.default_rng(seed)
    x = data.standard_normal((rows, COLS)).astype(np.float32)
    y = data.standard_normal(COLS).astype(np.float32)
    z = data.standard_normal(rows).astype(np.float32)
    with np.errstate(all="ignore"):
        want = chain.reference(x, y, z).astype(np.float32)
    got = dynhlo.compile(chain.text)(x, y, z)
    assert got.shape == want.shape, chain.text
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=chain.text)


def test_inspect_names_a_cycle(tmp_path, capsys):
    """Before: `dynhlo inspect` on operands that form a cycle was an internal KeyError."""
    path = tmp_path / "cycle.hlo"
    path.write_text(module("""ENTRY m {
  a = f32[4] parameter(0)
  b = f32[4] add(a, c)
  c = f32[4] add(a, b)
  ROOT d = f32[4] add(b, c)
}"""))
    assert _main("inspect", path) == 1
    err = capsys.readouterr().err
    assert "instruction 'b'" in err and "cycle" in err and "internal" not in err


def _call_chain(depth: int) -> str:
    comps = [f"c{depth - 1} {{\n  p = f32[<=4] parameter(0)\n  ROOT r = f32[<=4] negate(p)\n}}"]
    for i in reversed(range(depth - 1)):
        comps.append(f"c{i} {{\n  p = f32[<=4] parameter(0)\n"
                     f"  ROOT r = f32[<=4] call(p), to_apply=c{i + 1}\n}}")
    return module("\n".join(comps) + "\nENTRY m {\n  a = f32[<=4] parameter(0)\n"
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
    assert_verify_error(module(text), "r", fragment)


def test_a_token_parameter_takes_none():
    """JAX's ordered effects give ENTRY a token[] parameter. Before: no value passed the
    argument check ('expects token, got f64; convert with .astype('float64')')."""
    exe = dynhlo.compile(module("""ENTRY m {
  tok = token[] parameter(0)
  a = f32[<=4] parameter(1)
  after = token[] after-all(tok)
  n = f32[<=4] negate(a)
  ROOT r = (token[], f32[<=4]) tuple(after, n)
}"""))
    _, out = exe(None, np.float32([1, 2]))
    np.testing.assert_array_equal(out, [-1, -2])
    with pytest.raises(dynhlo.ArgumentError, match="token") as info:
        exe(3.0, np.float32([1, 2]))
    assert (info.value.parameter, info.value.name) == (0, "tok")


def test_cli_bare_number_for_a_scalar_parameter(tmp_path, capsys):
    """Before: `dynhlo run m.hlo X 3` was 'argument 1 (3): no such file'."""
    sized = Path(__file__).resolve().parents[1] / "examples" / "seed_set_dimension_size.hlo"
    rows = "f32[2,5] {{1,2,3,4,5},{6,7,8,9,10}}"
    assert _main("run", sized, rows, "1") == 0
    assert capsys.readouterr().out.strip() == "f32[1,5] { {1, 2, 3, 4, 5} }"
    assert _main("run", sized, rows, "2.5") == 1
    assert "expects s32" in capsys.readouterr().err


def test_big_endian_arrays_are_their_element_type():
    """Before: a '>f4' array (np.load of a .npy written big-endian) was 'expects f32, got
    >f4'."""
    exe = dynhlo.compile(SEED.read_text())
    x = np.arange(10, dtype=">f4").reshape(2, 5)
    y = exe(x)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, np.arange(10, dtype=np.float32).reshape(2, 5))


def test_inspect_shows_operands_like_hlo_text(capsys):
    """An XLA user follows data flow by operands. Before: only the opcode was shown."""
    models = Path(__file__).resolve().parents[1].parent / "shared" / "models"
    assert _main("inspect", models / "softmax_rows" / "module.hlo") == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ") and not line.startswith("  columns")}
    assert "reduce(x.1, constant.5)" in lines["reduce_max.7"]
    assert "constant(-inf)" in lines["constant.5"]
    assert "divide(exp.1, div.6)" in lines["ROOT"]
    assert lines["ROOT"].rstrip().endswith("[x.1.0,37]")


def test_rank_over_numpys_limit_is_unsupported_at_compile_time():
    """Before: a rank-70 broadcast compiled, then NumPy raised ValueError from deep inside."""
    dims = ",".join(["1"] * 70)
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.compile(module(f"""ENTRY m {{
  c = f32[] constant(1)
  ROOT b = f32[{dims}] broadcast(c), dimensions={{}}
}}"""))
    assert "'b'" in str(info.value) and "rank 70" in str(info.value)


# -- sizes from values that disagree with the size they meet ------------------------------------


@pytest.mark.parametrize("text, args", [
    ("""ENTRY m {
  a = f32[<=4] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=4] set-dimension-size(a, n), dimensions={0}
  ROOT r = f32[<=4] add(s, a)
}""", (np.float32([1, 2]), np.int32(3))),
    ("""ENTRY m {
  a = f32[<=8] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=8] custom-call(a, n), custom_call_target="SliceToDynamic"
  ROOT r = f32[<=8] add(s, a)
}""", (np.arange(6, dtype=np.float32), np.int32(2))),
    ("""ENTRY m {
  a = f32[<=8] parameter(0)
  n = s32[] parameter(1)
  k = s32[] parameter(2)
  b = f32[<=4,<=4] parameter(3)
  s = f32[<=4,<=4] dynamic-reshape(a, n, k)
  ROOT r = f32[<=4,<=4] add(s, b)
}""", (np.arange(6, dtype=np.float32), np.int32(3), np.int32(2), np.ones((2, 3), np.float32))),
], ids=["set-dimension-size", "SliceToDynamic", "dynamic-reshape"])
def test_a_size_from_a_value_that_disagrees_with_the_size_it_meets(text, args):
    """n=3 rows meeting a 2-row argument in an add. Before: inference kept the argument's
    size, the op ignored its own size operand, and the add silently ran at 2 rows."""
    exe = dynhlo.compile(module(text))
    with pytest.raises(dynhlo.DynamicSizeError, match="sizes that meet in one op must agree"):
        exe(*args)


def test_sizes_from_values_that_agree_still_run():
    exe = dynhlo.compile(module("""ENTRY m {
  a = f32[<=4] parameter(0)
  n = s32[] parameter(1)
  s = f32[<=4] set-dimension-size(a, n), dimensions={0}
  ROOT r = f32[<=4] add(s, a)
}"""))
    np.testing.assert_array_equal(exe(np.float32([1, 2]), np.int32(2)), [2, 4])


@pytest.mark.parametrize("op, want", [
    ("subtract", [False, True, True, False]),   # a - b on 0/1, nonzero is true: a xor b
    ("negate", [True, True, False, False]),
    ("sign", [True, True, False, False]),
])
def test_arithmetic_on_pred(op, want):
    """Before: NumPy refused boolean subtract, negative and sign (TypeError from inside)."""
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    if op == "subtract":
        body = "b = pred[<=8] parameter(1)\n  ROOT r = pred[<=8] subtract(a, b)"
        args = (a, b)
    else:
        body = f"ROOT r = pred[<=8] {op}(a)"
        args = (a,)
    exe = dynhlo.compile(module(f"ENTRY m {{\n  a = pred[<=8] parameter(0)\n  {body}\n}}"))
    np.testing.assert_array_equal(exe(*args), want)


# -- sub-byte integers (s4/u4: ml_dtypes, held in a byte by NumPy) --------------------------


def _elementwise(op: str, element_type: str, *arrays):
    params = "\n".join(f"  p{i} = {element_type}[<=8] parameter({i})" for i in range(len(arrays)))
    names = ", ".join(f"p{i}" for i in range(len(arrays)))
    exe = dynhlo.compile(module(f"ENTRY m {{\n{params}\n  ROOT r = {element_type}[<=8] "
                                f"{op}({names})\n}}"))
    return exe(*arrays).astype(int).tolist()


@pytest.mark.parametrize("op, element_type, args, want", [
    ("and", "s4", ([-8, 7, -1, 5], [7, 3, -1, 6]), [0, 3, -1, 4]),
    ("or", "u4", ([8, 1], [7, 2]), [15, 3]),
    ("xor", "s4", ([-1, 5], [7, 3]), [-8, 6]),
    ("not", "s4", ([0, -1, 5],), [-1, 0, -6]),
    ("not", "u4", ([0, 15, 5],), [15, 0, 10]),
    ("shift-right-logical", "s4", ([-8, -1], [1, 3]), [4, 1]),   # 0b1000 >> 1 = 0b0100
    ("count-leading-zeros", "s4", ([0, 1, -1, 4],), [4, 3, 0, 1]),
    ("popcnt", "s4", ([0, -1, 5],), [0, 4, 2]),
    ("add", "s4", ([7, -8, 3], [1, -1, 2]), [-8, 7, 5]),         # wraps in 4 bits
    ("divide", "s4", ([7, -8, 3], [2, -1, 0]), [3, -8, -1]),     # XLA: x / 0 = -1
    ("remainder", "s4", ([7, -7, 3], [2, 2, 0]), [1, -1, 3]),    # XLA: x % 0 = x
    ("subtract", "u4", ([0, 5], [1, 3]), [15, 2]),
])
def test_sub_byte_integers(op, element_type, args, want):
    """Before: and/or/xor/not were TypeErrors (ml_dtypes has no bitwise ufuncs); shifts,
    clz and popcnt counted 8 bits; arithmetic ran in f32 (x / 0 was not -1)."""
    import ml_dtypes
    dtype = {"s4": ml_dtypes.int4, "u4": ml_dtypes.uint4}[element_type]
    assert _elementwise(op, element_type, *[np.array(a, dtype) for a in args]) == want


@pytest.mark.parametrize("op, element_type", [
    ("and", "f32"), ("or", "bf16"), ("not", "f32"), ("shift-left", "f32"),
    ("popcnt", "c64"), ("floor", "c64"), ("erf", "c64"), ("round-nearest-even", "c128"),
    ("logistic", "pred"), ("exponential", "s32"), ("sqrt", "s32"),
])
def test_elementwise_op_on_a_type_xla_rejects(op, element_type):
    """Before: a TypeError from NumPy at run time, or (exp of an s32) silently truncated."""
    text = module(f"ENTRY m {{\n  a = {element_type}[<=8] parameter(0)\n  b = {element_type}[<=8] "
                  f"parameter(1)\n  ROOT r = {element_type}[<=8] "
                  f"{op}(a{', b' if op in ('and', 'or', 'shift-left') else ''})\n}}")
    assert_verify_error(text, "r", f"{op} takes")


def test_complex_cube_root_and_unsupported_complex_ops():
    exe = dynhlo.compile(module("ENTRY m {\n  a = c64[<=4] parameter(0)\n"
                                "  ROOT r = c64[<=4] cbrt(a)\n}"))
    x = np.complex64([8, -8, 1j])
    np.testing.assert_allclose(exe(x) ** 3, x, atol=1e-5)
    for op in ("atan2", "remainder"):
        with pytest.raises(dynhlo.UnsupportedError, match=f"{op} of complex"):
            dynhlo.compile(module(f"ENTRY m {{\n  a = c64[<=4] parameter(0)\n"
                                  f"  ROOT r = c64[<=4] {op}(a, a)\n}}"))


@pytest.mark.parametrize("source, target, values, want", [
    ("f32", "s64", [np.inf, -np.inf, 1e30, 3.5, np.nan, -2.5],
     [2**63 - 1, -2**63, 2**63 - 1, 3, 0, -2]),               # before: INT64_MIN for inf
    ("f32", "u64", [np.inf, -1, 2**63], [2**64 - 1, 0, 2**63]),
    ("f32", "u4", [20, -3, 2.7, np.nan], [15, 0, 2, 0]),
    ("s4", "u4", [-1, 7, -8], [15, 7, 8]),                     # before: TypeError (no cast)
    ("u4", "s2", [3, 2, 15], [-1, -2, -1]),
    ("f8e8m0fnu", "f8e4m3fn", [1, 2, 0.5], [1, 2, 0.5]),
])
def test_convert_saturates_and_crosses_ml_dtypes(source, target, values, want):
    from dynhlo.hlo.types import to_numpy_dtype
    x = np.array(values, np.float64).astype(to_numpy_dtype(source))
    exe = dynhlo.compile(module(f"ENTRY m {{\n  a = {source}[<=8] parameter(0)\n"
                                f"  ROOT r = {target}[<=8] convert(a)\n}}"))
    got = exe(x)
    got = got.tolist() if got.dtype.kind in "iu" else got.astype(np.float64).tolist()
    assert got == want


def test_reduce_precision_of_complex_is_a_verify_error():
    """Before: a ComplexWarning, and the imaginary part silently dropped."""
    assert_verify_error(module("ENTRY m {\n  a = c64[<=8] parameter(0)\n  ROOT r = c64[<=8] "
                               "reduce-precision(a), exponent_bits=5, mantissa_bits=2\n}"),
                        "r", "reduce-precision takes")


# -- unbounded (?) dims straight on the CPU -------------------------------------------------


@pytest.mark.parametrize("declared, shape, want", [
    ("a = f32[?,64] parameter(0)\n  ROOT r = f32[?] reshape(a)", (3, 64), (192,)),
    ("a = f32[?,?] parameter(0)\n  ROOT r = f32[?] reshape(a)", (3, 5), (15,)),
    ("a = f32[?] parameter(0)\n  ROOT r = f32[?,4] reshape(a)", (12,), (3, 4)),
    ("a = f32[?,4] parameter(0)\n  ROOT r = f32[?,2,2] reshape(a)", (0, 4), (0, 2, 2)),
])
def test_reshape_of_unbounded_dims(declared, shape, want):
    """Before: 'element counts differ' (bound products of -1 never matched)."""
    exe = dynhlo.compile(module(f"ENTRY m {{\n  {declared}\n}}"))
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    np.testing.assert_array_equal(exe(x), x.reshape(want))


def test_reshape_of_unbounded_dims_that_does_not_divide():
    exe = dynhlo.compile(module("ENTRY m {\n  a = f32[?] parameter(0)\n"
                                "  ROOT r = f32[?,4] reshape(a)\n}"))
    with pytest.raises(dynhlo.DynamicSizeError, match="does not divide"):
        exe(np.ones(10, np.float32))
    with pytest.raises(dynhlo.UnsupportedError, match="exactly one `\\?`"):
        dynhlo.compile(module("ENTRY m {\n  a = f32[?] parameter(0)\n"
                              "  ROOT r = f32[?,?] reshape(a)\n}"))


def test_reverse_cumsum_over_a_huge_bound_follows_the_actual_size():
    """jnp.cumsum(x, reverse=True) lowers to a window of the bound's size padded after.
    Before: one tap per window offset, 10**9 of them (minutes, then MemoryError)."""
    bound = 1_000_000_000
    exe = dynhlo.compile(module(f"""add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}}
ENTRY m {{
  x = f32[<={bound}] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<={bound}] reduce-window(x, z), window={{size={bound} pad=0_{bound - 1}}},
    to_apply=add
}}""".replace(",\n    to_apply", ", to_apply")))
    out = []
    peak = _peak_bytes(lambda: out.append(exe(np.float32([3, 1, 2]))))
    np.testing.assert_array_equal(out[0], [6, 3, 2])
    assert peak < 16 << 20


def test_cli_reads_a_module_from_a_pipe(tmp_path):
    """`dynhlo run <(...)`, `... | dynhlo run -` and /dev/stdin. Before: the artifact check
    consumed the pipe's first bytes, so the module read back empty ('got end of text')."""
    import subprocess
    import sys
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[1]), "PATH": "/usr/bin:/bin"}
    for name in ("-", "/dev/stdin"):
        proc = subprocess.run([sys.executable, "-m", "dynhlo", "run", name, ROW],
                              input=SEED.read_text(), capture_output=True, text=True,
                              env=env, timeout=120)
        assert (proc.returncode, proc.stdout.strip()) == (0, "f32[1,5] { {1, 2, 3, 4, 5} }"), \
            proc.stderr


def test_a_scalar_result_is_a_numpy_array():
    """Before: a constant root came back as np.int32 (a NumPy scalar), not an array, unlike
    every other result ('NumPy out'): `out[...] = 0` failed on it."""
    exe = dynhlo.compile(module("ENTRY m {\n  c = s32[] constant(3)\n  d = f32[] constant(2)\n"
                                "  ROOT t = (s32[], f32[]) tuple(c, d)\n}"))
    for out, want in zip(exe(), (3, 2.0)):
        assert isinstance(out, np.ndarray) and out.shape == () and out == want
    one = dynhlo.compile(module("ENTRY m {\n  ROOT c = s32[] constant(3)\n}"))()
    assert isinstance(one, np.ndarray)
    one[...] = 5
    assert dynhlo.compile(module("ENTRY m {\n  ROOT c = s32[] constant(3)\n}"))() == 3


@pytest.mark.parametrize("value", [None, 123, Path("examples/seed.hlo")], ids=["none", "int", "path"])
def test_parse_hlo_of_something_that_is_not_text(value):
    """Before: AttributeError from inside the parser."""
    with pytest.raises(dynhlo.DynHloError, match="takes HLO text"):
        dynhlo.parse_hlo(value)


def test_top_level_help_shows_examples(capsys):
    """A new user's first command; before: a list of subcommands with no example."""
    with pytest.raises(SystemExit):
        _main("--help")
    out = capsys.readouterr().out
    assert "examples:" in out and "dynhlo run m.hlo" in out and "as_text(dialect=" in out


# -- found by mutating the corpus modules' numbers and opcodes -------------------------------


@pytest.mark.parametrize("root", [
    "f32[<=8] concatenate(a, a), dimensions={}",
    "f32[<=4] sort(a), dimensions={0,1}, to_apply=lt",
    "s32[] get-dimension-size(a), dimensions={}",
])
def test_an_op_of_one_dimension_given_none_or_two(root):
    """Before: IndexError / 'too many values to unpack' from inside inference."""
    text = module("lt {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = pred[] "
                  "compare(x, y), direction=LT\n}\nENTRY m {\n  a = f32[<=4] parameter(0)\n"
                  f"  ROOT r = {root}\n}}")
    assert_verify_error(text, "r", "takes exactly one dimension")


def test_ieee_results_raise_no_numpy_warnings():
    """inf - inf in a cumsum and inf * 0 in a dot are NaNs, as in XLA. Before: NumPy's
    RuntimeWarnings ('invalid value encountered in accumulate / matmul') reached the user."""
    import warnings
    exe = dynhlo.compile(module("""add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY m {
  x = f32[<=4] parameter(0)
  y = f32[<=4] parameter(1)
  z = f32[] constant(0)
  c = f32[<=4] reduce-window(x, z), window={size=4 pad=3_0}, to_apply=add
  d = f32[] dot(x, y), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT t = (f32[<=4], f32[]) tuple(c, d)
}"""))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c, d = exe(np.float32([np.inf, -np.inf, 1]), np.float32([0, 1, 1]))
    np.testing.assert_array_equal(c, [np.inf, np.nan, np.nan])
    assert np.isnan(d)


# -- size 0 for every corpus model: the static computation at size 0 -------------------------

MODELS = Path(__file__).resolve().parents[1].parent / "shared" / "models"


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
    for out, spec in zip(outputs, case["outputs"]):
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
    exe = dynhlo.compile(module(f"""ENTRY m {{
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


def test_two_sizes_meeting_directly_are_still_an_error():
    exe = dynhlo.compile(module("""ENTRY m {
  a = f32[<=4] parameter(0)
  b = f32[<=4] parameter(1)
  k = f32[] constant(2)
  c = f32[<=4] broadcast(k), dimensions={}
  x = f32[<=4] multiply(a, c)
  ROOT y = f32[<=4] add(x, b)
}"""))
    with pytest.raises(dynhlo.DynamicSizeError, match="must agree"):
        exe(np.float32([1, 2]), np.float32([1, 2, 3]))
