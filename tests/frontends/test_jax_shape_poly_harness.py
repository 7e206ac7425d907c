"""JAX's shape-polymorphism harnesses through dynhlo.from_jax, against jax.jit at each size.

The harnesses (tests/support/shape_poly_harnesses.py) are rebuilt from JAX's
tests/shape_poly_test.py. Each is exported once by from_jax with every size name bounded (its
example size + 2) and the harness's constraints, then run at the example sizes, at every name's
least size and at the bounds (each assignment the constraints allow and jax.jit runs), and compared
with jax.jit.

Counts (jax 0.10.2, CPU backend, 2026-12-06): of the 867 harnesses, jax.export refuses 14; of
the other 853, dynhlo matches jax.jit on all 853 at every size, refuses none (REFUSED below
would list them) and differs on none. (Before the size algebra took each size's least value,
open intervals and sizes of two bounds: 672 matched and 181 were refused, 127 of them
`x[start:stop:step]` with a step computed from a size; before StableHLO's dynamic_top_k,
ApproxTopK, dynamic_pad and dynamic_rng_bit_generator ran, 823 matched and 30 were
refused.) Those counts are of the full indexing grid (DYNHLO_SHAPE_POLY_FULL=1); by default
the suite runs 64 of its 448 (tests/support/shape_poly_harnesses.py says which). `python
tests/frontends/test_jax_shape_poly_harness.py [name regex]` prints the counts and every non-match.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, run as a script
from tests.support import shape_poly_harnesses as table  # noqa: E402

import dynhlo  # noqa: E402
from dynhlo.frontends.jax import from_jax  # noqa: E402

# harness name -> the refusal dynhlo gives (a DynHloError naming the op), for a harness that
# dynhlo cannot run; every other harness that jax.export accepts must match jax.jit at every
# size. None remains: the last ones (dynamic_top_k, ApproxTopK, dynamic_pad with amounts from
# the sizes, unsafe_rbg's dynamic_rng_bit_generator, a variadic dynamic_reduce_window, a
# stride computed from a size) now run (tests/ops/test_dynamic_shape.py).
REFUSED: dict[str, str] = {}


def _values(spec, shape, rng, example):
    if isinstance(spec, table.R):
        dtype = np.dtype(spec.dtype)
        if dtype == np.bool_:
            return rng.random(shape) < 0.5
        if dtype == np.uint32:
            return rng.integers(0, 2 ** 32, shape, dtype=np.uint64).astype(np.uint32)
        if dtype.kind in "iu":
            return rng.integers(-8, 9, shape).astype(dtype)
        if dtype.kind == "c":
            return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
        return rng.standard_normal(shape).astype(dtype)
    # a fixed array: its values repeated to the shape (indices stay JAX's own)
    return np.resize(np.asarray(example), shape).astype(np.asarray(example).dtype)


def _example(spec):
    return np.zeros(spec.shape, spec.dtype) if isinstance(spec, table.R) else np.asarray(spec)


def _dims(structs):
    return [d for s in structs for d in s.shape if not isinstance(d, int)]


def _solve(structs, examples) -> dict:
    """The example value of each size name: from the dims that read one name only."""
    env: dict = {}
    for s, ex in zip(structs, examples, strict=True):
        for d, size in zip(s.shape, np.shape(ex), strict=True):
            if isinstance(d, int) or len(d._get_vars()) != 1:
                continue
            (name,) = d._get_vars()
            if name not in env:
                env[name] = next(v for v in range(1, size + 1) if d._evaluate({name: v}) == size)
    return env


def _holds(constraint: str, env: dict) -> bool:
    expr = constraint.replace("^", "**")
    names = {"mod": lambda a, b: a % b, "floordiv": lambda a, b: a // b, "max": max,
             "min": min, **env}
    return bool(eval(expr, {"__builtins__": {}}, names))  # noqa: S307 - the table's own text


def _assignments(example: dict, ranges: dict, constraints) -> list[dict]:
    """The example sizes, every name at its least and every name at its bound, those the
    constraints allow, each once."""
    out = [example, {n: lo for n, (lo, _) in ranges.items()},
           {n: hi for n, (_, hi) in ranges.items()}]
    ok = [env for env in out if all(_holds(c, env) for c in constraints)]
    return [dict(t) for t in dict.fromkeys(tuple(sorted(e.items())) for e in ok)]


def _arguments(harness, structs, env, rng):
    examples = [_example(a) for a in harness.args]
    out = []
    for spec, s, ex in zip(harness.args, structs, examples, strict=True):
        shape = tuple(d if isinstance(d, int) else d._evaluate(env) for d in s.shape)
        out.append(_values(spec, shape, rng, ex))
    return out


def _signed(x, pivot_of, axis: str):
    """x's vectors (columns, or rows) each divided by the phase of its entry where pivot_of's
    vector is largest: one sign for vectors defined up to one."""
    if axis == "rows":
        return np.swapaxes(_signed(np.swapaxes(x, -1, -2), np.swapaxes(pivot_of, -1, -2),
                                   "cols"), -1, -2)
    at = np.argmax(np.abs(pivot_of), axis=-2)[..., None, :]
    entry = np.take_along_axis(x, at, axis=-2)
    return x / np.where(entry == 0, 1, entry / np.maximum(np.abs(entry), 1e-30))


def _close(got, want, tol, vectors=None):
    got_leaves, want_leaves = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    for k, axis in (vectors or {}).items():
        w = np.asarray(want_leaves[k])
        got_leaves[k] = _signed(np.asarray(got_leaves[k]), w, axis).astype(w.dtype)
        want_leaves[k] = _signed(w, w, axis).astype(w.dtype)
    if len(got_leaves) != len(want_leaves):
        return f"{len(got_leaves)} results, jax.jit has {len(want_leaves)}"
    for k, (g, w) in enumerate(zip(got_leaves, want_leaves, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"result {k}: {g.dtype}{list(g.shape)}, jax.jit {w.dtype}{list(w.shape)}"
        if w.dtype.kind in "fc":
            wide = np.complex128 if w.dtype.kind == "c" else np.float64
            if not np.allclose(g.astype(wide), w.astype(wide), rtol=tol, atol=tol,
                               equal_nan=True):
                err = np.nanmax(np.abs(g.astype(wide) - w.astype(wide)))
                return f"result {k}: max error {err:.3g}"
        elif not np.array_equal(g, w):
            return f"result {k}: {int((g != w).sum())} elements differ"
    return None


def run(harness) -> tuple[str, str]:
    """("export", why) when jax.export refuses the harness; else ("match", sizes),
    ("refuses", the DynHloError) or ("differs", where)."""
    saved = {k: getattr(jax.config, k) for k in harness.flags}
    try:
        for k, v in harness.flags.items():
            jax.config.update(k, v)
        return _run(harness)
    finally:
        for k, v in saved.items():
            jax.config.update(k, v)


def _run(harness):
    examples = [_example(a) for a in harness.args]
    try:
        structs = jax.export.symbolic_args_specs(examples, harness.poly)
    except Exception as exc:  # noqa: BLE001 - JAX's own refusals are not dynhlo's
        return "export", f"{type(exc).__name__}: {exc}"
    example = _solve(structs, examples)
    bounds = {n: v + 2 for n, v in example.items()}
    fn = jax.jit(harness.fn)
    try:
        jax.export.export(fn)(*jax.export.symbolic_args_specs(
            examples, harness.poly, constraints=harness.constraints))
    except Exception as exc:  # noqa: BLE001
        return "export", f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    try:
        exe = from_jax(harness.fn, *structs, bounds=bounds, constraints=harness.constraints)
    except dynhlo.DynHloError as exc:
        return "refuses", f"{type(exc).__name__}: {exc}"
    rng = np.random.default_rng(0)
    tol = max(harness.tol or 0, 2e-5)
    ran = []
    for env in _assignments(example, exe.sizes.ranges, harness.constraints):
        args = _arguments(harness, structs, env, rng)
        try:
            want = fn(*args)
        except Exception:  # noqa: BLE001 - not a size jax.jit runs at
            continue
        try:
            got = exe(*args)
        except dynhlo.DynHloError as exc:
            if _jax_refuses(exe, args):
                continue
            return "refuses", f"at {env}: {type(exc).__name__}: {exc}"
        why = _close(got, want, tol, harness.vectors)
        if why:
            return "differs", f"at {env}: {why}"
        ran.append(env)
    return "match", f"sizes {ran}"


def _jax_refuses(exe, args) -> bool:
    """Whether JAX's exported function refuses these arguments too (its shape assertions)."""
    try:
        exe.exported.call(*args)
    except Exception:  # noqa: BLE001
        return True
    return False


@pytest.mark.parametrize("harness", table.HARNESSES, ids=lambda h: h.name)
def test_harness(harness):
    outcome, detail = run(harness)
    if outcome == "export":
        pytest.skip(f"jax.export refuses it: {detail[:200]}")
    if harness.name in REFUSED:
        assert outcome == "refuses", detail
        assert re.search(REFUSED[harness.name], detail), detail
        return
    assert outcome == "match", detail


def main(pattern: str = ""):
    counts: dict = {}
    for harness in [h for h in table.HARNESSES if re.search(pattern, h.name)]:
        try:
            outcome, detail = run(harness)
        except Exception as exc:  # noqa: BLE001 - a crash is counted and shown
            outcome, detail = "crash", f"{type(exc).__name__}: {exc}"
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome != "match" and outcome != "export":
            print(f"{outcome:8} {harness.name}: {detail[:300]}".replace("\n", " "), flush=True)
    print(counts)


if __name__ == "__main__":
    main(*sys.argv[1:])
