"""Programs written with flax (nnx and linen), equinox, haiku, keras 3 (JAX backend), optax,
plain JAX and HuggingFace transformers (tests/support/reallibs_programs.py), each with a variable
batch or sequence length, at sizes 1 (or the least the program takes), a middle size and the
bound, against jax.jit's (or eager PyTorch's) outputs.

The stored modules (tests/data/reallibs, written by export_reallibs.py there: jax.export's
StableHLO, or from_torch's for the HuggingFace models) run on the CPU backend without the
libraries, against the stored reference outputs. Where a library is importable, its programs
also go live through from_jax / from_torch, against jax.jit / eager PyTorch computed now.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import dynhlo

pytest.importorskip("jax")   # parse_stablehlo reads MLIR through jaxlib

from tests.support.reallibs_data import (MANIFEST, case, check_outputs, module_text,  # noqa: E402
                                         varying)
from tests.support.reallibs_programs import PROGRAMS  # noqa: E402

STORED = [(name, size) for name, entry in MANIFEST.items() for size in entry["sizes"]]


def test_every_program_is_stored_with_its_sizes():
    assert sorted(MANIFEST) == sorted(PROGRAMS)
    for name, program in PROGRAMS.items():
        entry = MANIFEST[name]
        assert (entry["dim"], entry["bound"], tuple(entry["sizes"])) == \
            (program.dim, program.bound, program.sizes)
        assert program.sizes[-1] == program.bound


@pytest.fixture(scope="module")
def stored():
    """name -> the stored module compiled for the CPU (once per name), or its refusal."""
    cache: dict = {}

    def get(name):
        if name not in cache:
            try:
                cache[name] = dynhlo.compile(dynhlo.parse_stablehlo(module_text(name)))
            except dynhlo.DynHloError as exc:
                cache[name] = exc
        if isinstance(cache[name], Exception):
            raise cache[name]
        return cache[name]
    return get


@pytest.mark.parametrize("name,size", [pytest.param(n, s, id=f"{n}-{s}")
                                       for n, s in STORED])
def test_stored_program_matches_its_reference(stored, name, size):
    exe = stored(name)
    args, expected = case(name, size)
    out = exe(*args)
    check_outputs(name, list(out) if isinstance(out, tuple) else [out], expected)


@pytest.mark.parametrize("name", list(MANIFEST))
def test_stored_program_refuses_one_past_its_bound(stored, name):
    """No bounds given: the variable size's bound is the export's own constraint, and one
    step past it is an ArgumentError naming that size."""
    exe = stored(name)
    bound = MANIFEST[name]["bound"]
    args, _ = case(name, bound)
    i = varying(name)[0]
    axis = list(args[i].shape).index(bound)
    longer = list(args)
    longer[i] = np.concatenate([args[i], np.take(args[i], [0], axis=axis)], axis=axis)
    with pytest.raises(dynhlo.ArgumentError, match=str(bound + 1)):
        exe(*longer)


# --- live: the library's program through from_jax / from_torch, where it imports ----------

def _needs(program):
    modules = [program.library] + (["torch", "torchax"] if program.kind == "torch" else [])
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{program.name} runs live with {', '.join(missing)} installed")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_live_program_through_the_frontend_matches_the_library(name):
    program = PROGRAMS[name]
    _needs(program)
    if program.kind == "jax":
        import jax
        fn, specs, arguments = program.build()
        exe = dynhlo.from_jax(fn, *specs)
        for n in program.sizes:
            args = arguments(n)
            got, want = exe(*args), jax.jit(fn)(*args)
            assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
            check_outputs(name, jax.tree_util.tree_leaves(got),
                          [np.asarray(w) for w in jax.tree_util.tree_leaves(want)])
        return
    import torch
    module, dynamic_shapes, arguments = program.build()
    exe = dynhlo.from_torch(module, *arguments(program.sizes[1]),
                            dynamic_shapes=dynamic_shapes)
    for n in program.sizes:
        args = arguments(n)
        with torch.no_grad():
            want = module(*args)
        got = exe(*args)
        assert isinstance(got, torch.Tensor)
        check_outputs(name, [got.numpy()], [want.numpy()])
