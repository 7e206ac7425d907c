"""Attacks on compiled CPU artifacts holding the routines of runs of native calls, on the
results' ownership (CpuProgram.run's copies of what would alias), and on set-dimension-size
placed as copies over zeros inside while loops.

Every result is compared with the reference evaluator's bit for bit. Loads of hand-edited
files run in a fresh process where a wrong object linked could crash it.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import machine, native_routines, steps
from tests.backends.cpu.test_compiled_artifacts import (  # noqa: F401 (fresh_host: a fixture)
    MODULE, PRODUCTS, _edit_program, _program, _restored, fresh_host)

ROOT = Path(__file__).resolve().parents[3]
NAMES = b" ".join(f"dynhlo_chain_{n}".encode() for n in native_routines._NAMES)


def _bits(values) -> list:
    values = values if isinstance(values, tuple) else (values,)
    return [(v.shape, v.dtype.str, v.tobytes()) for v in values]


def _products_args(n: int, seed: int = 0) -> tuple:
    gen = np.random.default_rng(seed)
    return (gen.standard_normal((n, 16)).astype(np.float32),
            gen.standard_normal((16, 16)).astype(np.float32))


def _run_fresh(code: str, tmp_path) -> subprocess.CompletedProcess:
    """`code` in a new Python process with an empty kernel cache (a fresh host)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), DYNHLO_CACHE_DIR=str(tmp_path / "fresh"))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


_LOAD_THEN_COMPILE = """
    import numpy as np, dynhlo
    from tests.backends.cpu.test_compiled_artifacts import PRODUCTS
    try:
        dynhlo.load({path!r})
        print("LOADED")
    except dynhlo.ArtifactError as exc:
        print("REFUSED", exc)
    # another module compiled in the same process: its runs of native calls work
    gen = np.random.default_rng(0)
    x = gen.standard_normal((3, 16)).astype(np.float32)
    w = gen.standard_normal((16, 16)).astype(np.float32)
    other = PRODUCTS.replace("HloModule products", "HloModule other")
    got = dynhlo.compile(other, backend="cpu", reference=False)(x, w)
    want = dynhlo.compile(other, backend="cpu", reference=True)(x, w)
    print("EQUAL", got.tobytes() == want.tobytes())
"""


def _drop_first_kernel(program, sections):
    entry = program["kernels"].pop(0)
    sections["bucket0.objects"] = sections["bucket0.objects"][entry["length"]:]


@pytest.mark.parametrize("drop_kernel", [False, True], ids=["alone", "refused-artifact"])
def test_a_routines_object_naming_but_not_defining_them_is_refused_and_leaves_nothing(
        tmp_path, drop_kernel):
    # A kernel's object with the routines' names appended (checksums made again) passed
    # the byte check: it loaded, the first run raised a bare UnusableObject, and every
    # module compiled later in the process took that object (and failed) too; with a
    # kernel missing as well, the refused artifact still poisoned the process.
    path = tmp_path / "products.dynhlo"
    dynhlo.compile(PRODUCTS, backend="cpu", reference=False).save(path)
    last = len(_program(path)["kernels"]) - 1

    def edit(program, sections):
        _restored(last, lambda parts: parts[0] + NAMES)(program, sections)
        if drop_kernel:
            _drop_first_kernel(program, sections)

    _edit_program(path, edit)
    done = _run_fresh(_LOAD_THEN_COMPILE.format(path=str(path)), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    why = "lacks the object code of kernel" if drop_kernel else \
        "is not an object file defining that kernel"
    assert lines[0].startswith(f"REFUSED {path}: the compiled cpu program") and why in lines[0]
    assert lines[-1] == "EQUAL True"


@pytest.mark.parametrize("edit", ["removed", "first", "reversed"])
def test_the_routines_entry_removed_or_moved_loads_and_runs_as_the_reference(
        tmp_path, fresh_host, monkeypatch, edit):
    """An artifact written before the routines were stored (entry removed) compiles them;
    an entry anywhere in the list is found by its key."""
    path = tmp_path / "products.dynhlo"
    dynhlo.compile(PRODUCTS, backend="cpu", reference=False).save(path)
    monkeypatch.setattr(native_routines, "_state", {})
    monkeypatch.setattr(native_routines, "_offered", {})

    def change(program, sections):
        entries, data, parts, offset = program["kernels"], sections["bucket0.objects"], [], 0
        for entry in entries:
            parts.append(data[offset:offset + entry["length"]])
            offset += entry["length"]
        order = {"removed": list(range(len(parts) - 1)),
                 "first": [len(parts) - 1, *range(len(parts) - 1)],
                 "reversed": list(range(len(parts)))[::-1]}[edit]
        program["kernels"] = [entries[k] for k in order]
        sections["bucket0.objects"] = b"".join(parts[k] for k in order)

    _edit_program(path, change)
    fresh_host.forbidden = True   # (kernels; the routines compile where removed)
    exe = dynhlo.load(path)
    reference = dynhlo.compile(PRODUCTS, backend="cpu", reference=True)
    for n in (3, 3, 0, 1, 8):
        args = _products_args(n, n)
        assert _bits(exe(*args)) == _bits(reference(*args))
    assert native_routines._state


def test_artifacts_loaded_in_threads_on_a_fresh_host_compile_nothing(
        tmp_path, fresh_host, monkeypatch):
    paths = {}
    for name, text in (("p", PRODUCTS), ("m", MODULE), ("s", _sds_module(True, True))):
        paths[name] = tmp_path / f"{name}.dynhlo"
        dynhlo.compile(text, backend="cpu", reference=False).save(paths[name])
    monkeypatch.setattr(native_routines, "_state", {})
    monkeypatch.setattr(native_routines, "_offered", {})

    def no_compile(*args, **kwargs):
        raise AssertionError("LLVM compiled code while loading compiled artifacts")
    monkeypatch.setattr(machine, "_compile", no_compile)
    fresh_host.forbidden = True
    loaded, errors = {}, []

    def load(name):
        try:
            loaded[name] = dynhlo.load(paths[name])
        except Exception as exc:   # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=load, args=(name,)) for name in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and set(loaded) == set(paths)
    reference = dynhlo.compile(PRODUCTS, backend="cpu", reference=True)
    same = []

    def run():
        for n in (0, 1, 8, 3):
            args = _products_args(n, n)
            same.append(_bits(loaded["p"](*args)) == _bits(reference(*args)))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert same == [True] * 12
    _check_sds(loaded["s"], dynhlo.compile(_sds_module(True, True), backend="cpu",
                                           reference=True))


def test_another_identity_never_links_the_stored_routines(tmp_path, fresh_host, monkeypatch):
    """A file of another CPU with garbage as its routines' object: a warning, all compiled
    again, nothing of the file linked."""
    path = tmp_path / "products.dynhlo"
    dynhlo.compile(PRODUCTS, backend="cpu", reference=False).save(path)
    monkeypatch.setattr(native_routines, "_state", {})
    monkeypatch.setattr(native_routines, "_offered", {})
    last = len(_program(path)["kernels"]) - 1

    def other(program, sections):
        _restored(last, lambda parts: b"\xcc" * 64 + NAMES)(program, sections)
        program["compiler"]["cpu"] = "other-cpu"

    _edit_program(path, other)
    with pytest.warns(RuntimeWarning, match="compiling them again"):
        exe = dynhlo.load(path)
    reference = dynhlo.compile(PRODUCTS, backend="cpu", reference=True)
    args = _products_args(5)
    assert _bits(exe(*args)) == _bits(reference(*args))
    assert b"\xcc" * 64 not in native_routines.routines_object()[1]


# --- results' ownership ---------------------------------------------------------------

ALIASES = {
    "constant-root": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  ROOT c = f32[4] constant({1, 2, 3, 4}) }""",
    "constant-twice-and-parameter-twice": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  c = f32[4] constant({1, 2, 3, 4})
  ROOT t = (f32[4], f32[4], f32[<=8], f32[<=8]) tuple(c, c, p, p) }""",
    "views-of-a-constant": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  c = f32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}})
  s = f32[1,4] slice(c), slice={[1:2], [0:4]}
  r = f32[4] reshape(s)
  t = f32[4,2] transpose(c), dimensions={1,0}
  ROOT o = (f32[4], f32[4,2], f32[2,4]) tuple(r, t, c) }""",
    "broadcast-and-scalar-constants": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  c = f32[] constant(3)
  b = f32[<=8] broadcast(c), dimensions={}
  n = f32[] negate(c)
  ROOT o = (f32[<=8], f32[], f32[]) tuple(b, n, c) }""",
    "a-scalar-constant-root": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  ROOT c = f32[] constant(3) }""",
    "sizes-iotas-and-their-views": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  d = s32[] get-dimension-size(p), dimensions={0}
  i = s32[4,2] iota(), iota_dimension=0
  t = s32[2,4] transpose(i), dimensions={1,0}
  r = s32[8] reshape(i)
  k = s32[4,2] broadcast(d), dimensions={}
  m = pred[4,2] compare(i, k), direction=LT
  c = s32[2] constant({7, 8})
  g = s32[] reshape(d)
  ROOT o = (s32[], s32[4,2], s32[2,4], s32[8], pred[4,2], s32[2], s32[], s32[2])
    tuple(d, i, t, r, m, c, g, c) }""",
    "a-kernel-result-twice": """HloModule a
ENTRY main { p = f32[<=8] parameter(0)
  c = f32[4] constant({1, 2, 3, 4})
  n = f32[4] negate(c)
  m = f32[<=8] multiply(p, p)
  ROOT o = (f32[4], f32[4], f32[<=8], f32[<=8]) tuple(n, n, m, m) }""",
    "a-constant-through-a-while": """HloModule a
cond { s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(0)
  ROOT l = pred[] compare(i, n), direction=LT }
body { s = (s32[], f32[4]) parameter(0)
  a = s32[] get-tuple-element(s), index=0
  b = f32[4] get-tuple-element(s), index=1
  ROOT s2 = (s32[], f32[4]) tuple(a, b) }
ENTRY main { p = f32[<=8] parameter(0)
  c = f32[4] constant({1, 2, 3, 4})
  z = s32[] constant(0)
  t = (s32[], f32[4]) tuple(z, c)
  w = (s32[], f32[4]) while(t), condition=cond, body=body
  g = f32[4] get-tuple-element(w), index=1
  ROOT o = (f32[4], (s32[], f32[4])) tuple(g, w) }""",
    "a-parameter-through-a-while": """HloModule a
cond { s = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(2)
  ROOT l = pred[] compare(i, n), direction=LT }
body { s = (s32[], f32[<=8]) parameter(0)
  a = s32[] get-tuple-element(s), index=0
  o = s32[] constant(1)
  a1 = s32[] add(a, o)
  b = f32[<=8] get-tuple-element(s), index=1
  ROOT s2 = (s32[], f32[<=8]) tuple(a1, b) }
ENTRY main { p = f32[<=8] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[<=8]) tuple(z, p)
  w = (s32[], f32[<=8]) while(t), condition=cond, body=body
  g = f32[<=8] get-tuple-element(w), index=1
  ROOT o = (f32[<=8], (s32[], f32[<=8])) tuple(g, w) }""",
    "a-parameter-through-a-conditional": """HloModule a
t1 { x = f32[<=8] parameter(0)
  ROOT y = f32[<=8] copy(x) }
t2 { x = f32[<=8] parameter(0)
  ROOT y = f32[<=8] bitcast(x) }
ENTRY main { p = f32[<=8] parameter(0)
  k = pred[] constant(false)
  ROOT c = f32[<=8] conditional(k, p, p), true_computation=t1, false_computation=t2 }""",
}


def _leaves(value) -> list:
    return [x for v in value for x in _leaves(v)] if isinstance(value, tuple) else [value]


@pytest.mark.parametrize("how", ["compiled", "loaded", "reference"])
@pytest.mark.parametrize("name", sorted(ALIASES))
def test_writing_into_results_changes_no_later_result_argument_or_constant(
        tmp_path, name, how):
    text = ALIASES[name]
    exe = dynhlo.compile(text, backend="cpu", reference=how == "reference")
    if how == "loaded":
        exe.save(tmp_path / "a.dynhlo")
        exe = dynhlo.load(tmp_path / "a.dynhlo")
    reference = dynhlo.compile(text, backend="cpu", reference=True)
    x = np.arange(5, dtype=np.float32)
    kept = x.copy()
    want = _bits(tuple(_leaves(reference(x.copy()))))
    for _ in range(3):
        got = _leaves(exe(x))
        assert _bits(tuple(got)) == want
        arrays = [g for g in got if isinstance(g, np.ndarray)]
        for k, a in enumerate(arrays):
            assert not np.shares_memory(a, x)
            assert not any(np.shares_memory(a, b) for b in arrays[k + 1:])
            a[...] = 99   # every result is the caller's to write
        assert x.tobytes() == kept.tobytes()


def test_a_later_call_does_not_write_into_an_earlier_result():
    exe = dynhlo.compile(PRODUCTS, backend="cpu", reference=False)
    first = exe(*_products_args(3, 1))
    kept = first.copy()
    for n in (3, 3, 8, 0, 3):
        exe(*_products_args(n, n + 7))
    assert first.tobytes() == kept.tobytes()


# --- set-dimension-size placed in runs of native calls inside while loops ------------

def _sds_module(grow: bool, inside: bool) -> str:
    """A loop whose body resizes its state's rows by one per trip (more, or fewer) between
    a kernel and a product (a copy over zeros in a run of native calls), clamped to
    0..bound; the entry resizes the argument before the loop and the result after it."""
    resize = "  s = f32[<=8,4] set-dimension-size(k, j), dimensions={0}" if inside else \
        "  s = f32[<=8,4] copy(k)"
    return f"""HloModule sds_{'grow' if grow else 'shrink'}_{'in' if inside else 'out'}
cond {{ st = (s32[], s32[], f32[<=8,4], f32[4,4]) parameter(0)
  t = s32[] get-tuple-element(st), index=0
  lim = s32[] get-tuple-element(st), index=1
  ROOT l = pred[] compare(t, lim), direction=LT }}
body {{ st = (s32[], s32[], f32[<=8,4], f32[4,4]) parameter(0)
  t = s32[] get-tuple-element(st), index=0
  lim = s32[] get-tuple-element(st), index=1
  x = f32[<=8,4] get-tuple-element(st), index=2
  w = f32[4,4] get-tuple-element(st), index=3
  one = s32[] constant(1)
  t1 = s32[] add(t, one)
  d = s32[] get-dimension-size(x), dimensions={{0}}
  jj = s32[] {'add' if grow else 'subtract'}(d, one)
  lo = s32[] constant(0)
  hi = s32[] constant(8)
  j = s32[] clamp(lo, jj, hi)
  m = f32[<=8,4] multiply(x, x)
  k = f32[<=8,4] add(m, x)
{resize}
  e = f32[<=8,4] add(s, s)
  p = f32[<=8,4] dot(e, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  q = f32[<=8,4] tanh(p)
  ROOT o = (s32[], s32[], f32[<=8,4], f32[4,4]) tuple(t1, lim, q, w) }}
ENTRY main {{ x0 = f32[<=8,4] parameter(0)
  w = f32[4,4] parameter(1)
  lim = s32[] parameter(2)
  n = s32[] parameter(3)
  x1 = f32[<=8,4] set-dimension-size(x0, n), dimensions={{0}}
  z = s32[] constant(0)
  st = (s32[], s32[], f32[<=8,4], f32[4,4]) tuple(z, lim, x1, w)
  r = (s32[], s32[], f32[<=8,4], f32[4,4]) while(st), condition=cond, body=body
  y = f32[<=8,4] get-tuple-element(r), index=2
  m2 = s32[] get-dimension-size(y), dimensions={{0}}
  n2 = s32[] subtract(m2, lim)
  c0 = s32[] constant(0)
  c8 = s32[] constant(8)
  n3 = s32[] clamp(c0, n2, c8)
  y2 = f32[<=8,4] set-dimension-size(y, n3), dimensions={{0}}
  y3 = f32[<=8,4] multiply(y2, y2)
  ROOT out = (f32[<=8,4], f32[<=8,4]) tuple(y3, y) }}"""


# (rows of the argument, rows set before the loop, trips): sizes 0, 1 and the bound in
# and out of the loop, each layout met again after others
_SDS_CALLS = [(3, 3, 2), (3, 3, 2), (3, 3, 2), (0, 0, 3), (1, 1, 1), (8, 8, 4), (8, 0, 9),
              (0, 8, 2), (1, 0, 0), (8, 1, 8), (5, 2, 3), (3, 3, 2)]


def _check_sds(exe, reference) -> None:
    gen = np.random.default_rng(1)
    w = (gen.standard_normal((4, 4)) * 0.3).astype(np.float32)
    for rows, n, trips in _SDS_CALLS:
        x = gen.standard_normal((rows, 4)).astype(np.float32)
        args = (x, w, np.int32(trips), np.int32(n))
        assert _bits(exe(*args)) == _bits(reference(*args)), (rows, n, trips)


def _placed_calls(exe) -> int:
    """Strided-copy calls into placed arrays in every computation's runs."""
    routines = native_routines._routines()
    places = {routines["place4"], routines["place8"]}
    count = 0
    for pool in exe.program.evaluator._local.pools.values():
        for spec in pool.fast.values():
            for op in spec.ops:
                if op[0] == steps._CHAIN:
                    entries = op[8][0]
                    count += sum(1 for k in range(0, len(entries), 2) if entries[k] in places)
    return count


@pytest.mark.parametrize("grow, inside", list(itertools.product([True, False], [True, False])),
                         ids=["grow-in", "grow-out", "shrink-in", "shrink-out"])
def test_set_dimension_size_in_and_out_of_while_loops_is_the_reference(tmp_path, grow, inside):
    text = _sds_module(grow, inside)
    reference = dynhlo.compile(text, backend="cpu", reference=True)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    _check_sds(exe, reference)
    if inside:   # (the body's resize ran as copies over zeros in a run)
        assert _placed_calls(exe) >= 1
    exe.save(tmp_path / "sds.dynhlo")
    _check_sds(dynhlo.load(tmp_path / "sds.dynhlo"), reference)


def _sds_columns_module(grow: bool) -> str:
    """_sds_module's loop resizing the columns (the inner dimension) of a transposed
    kernel's value, the product reading it as its right operand."""
    return f"""HloModule sds_columns_{'grow' if grow else 'shrink'}
cond {{ st = (s32[], s32[], f32[4,<=8], f32[4,4]) parameter(0)
  t = s32[] get-tuple-element(st), index=0
  lim = s32[] get-tuple-element(st), index=1
  ROOT l = pred[] compare(t, lim), direction=LT }}
body {{ st = (s32[], s32[], f32[4,<=8], f32[4,4]) parameter(0)
  t = s32[] get-tuple-element(st), index=0
  lim = s32[] get-tuple-element(st), index=1
  x = f32[4,<=8] get-tuple-element(st), index=2
  w = f32[4,4] get-tuple-element(st), index=3
  one = s32[] constant(1)
  t1 = s32[] add(t, one)
  d = s32[] get-dimension-size(x), dimensions={{1}}
  jj = s32[] {'add' if grow else 'subtract'}(d, one)
  lo = s32[] constant(0)
  hi = s32[] constant(8)
  j = s32[] clamp(lo, jj, hi)
  m = f32[4,<=8] multiply(x, x)
  k = f32[4,<=8] add(m, x)
  kk = f32[<=8,4] transpose(k), dimensions={{1,0}}
  tr = f32[4,<=8] transpose(kk), dimensions={{1,0}}
  s = f32[4,<=8] set-dimension-size(tr, j), dimensions={{1}}
  e = f32[4,<=8] add(s, s)
  p = f32[4,<=8] dot(w, e), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  q = f32[4,<=8] tanh(p)
  ROOT o = (s32[], s32[], f32[4,<=8], f32[4,4]) tuple(t1, lim, q, w) }}
ENTRY main {{ x0 = f32[4,<=8] parameter(0)
  w = f32[4,4] parameter(1)
  lim = s32[] parameter(2)
  n = s32[] parameter(3)
  x1 = f32[4,<=8] set-dimension-size(x0, n), dimensions={{1}}
  z = s32[] constant(0)
  st = (s32[], s32[], f32[4,<=8], f32[4,4]) tuple(z, lim, x1, w)
  r = (s32[], s32[], f32[4,<=8], f32[4,4]) while(st), condition=cond, body=body
  ROOT y = f32[4,<=8] get-tuple-element(r), index=2 }}"""


@pytest.mark.parametrize("grow", [True, False], ids=["grow", "shrink"])
def test_set_dimension_size_of_columns_in_a_while_loop_is_the_reference(grow):
    text = _sds_columns_module(grow)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    reference = dynhlo.compile(text, backend="cpu", reference=True)
    gen = np.random.default_rng(2)
    w = (gen.standard_normal((4, 4)) * 0.3).astype(np.float32)
    for cols, n, trips in _SDS_CALLS:
        x = gen.standard_normal((4, cols)).astype(np.float32)
        args = (x, w, np.int32(trips), np.int32(n))
        assert _bits(exe(*args)) == _bits(reference(*args)), (cols, n, trips)
    assert _placed_calls(exe) >= 1


def _swap_with_a_kernel(program, sections):
    """The routines' object and the first kernel's exchanged, each under the other's key
    (lengths and checksums follow their objects)."""
    entries, data, parts, offset = program["kernels"], sections["bucket0.objects"], [], 0
    for entry in entries:
        parts.append(data[offset:offset + entry["length"]])
        offset += entry["length"]
    parts[0], parts[-1] = parts[-1], parts[0]
    for entry, part in ((entries[0], parts[0]), (entries[-1], parts[-1])):
        entry.update(length=len(part), sha256=hashlib.sha256(part).hexdigest())
    sections["bucket0.objects"] = b"".join(parts)


def _routines_twice(program, sections):
    entry = program["kernels"][-1]
    sections["bucket0.objects"] += sections["bucket0.objects"][-entry["length"]:]
    program["kernels"].append(dict(entry))


@pytest.mark.parametrize("edit, message", [
    (_swap_with_a_kernel, "is not an object file defining that kernel"),
    (_routines_twice, "lists a kernel twice"),
], ids=["swapped-with-a-kernel", "routines-twice"])
def test_routines_entries_swapped_or_repeated_are_refused(tmp_path, edit, message):
    path = tmp_path / "products.dynhlo"
    dynhlo.compile(PRODUCTS, backend="cpu", reference=False).save(path)
    _edit_program(path, edit)
    done = _run_fresh(_LOAD_THEN_COMPILE.format(path=str(path)), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"REFUSED {path}: ") and message in lines[0], lines
    assert lines[-1] == "EQUAL True"
