"""A kernel group's analysis reused for a group of the same structure (kernel_forms), as an
artifact's stored plan is checked: every group must get exactly what its own analysis gives
(key, leaves, loads, members, IR), groups of one structure share one analysis, and a group
differing in one constant, attribute, declared shape or size must not take another's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import kernels
from dynhlo.backends.cpu.compiled.kernel_forms import Forms, generate_in
from dynhlo.backends.plan.fusion import build_group
from dynhlo.shapes.schedule import schedule


def _layer(k: int, x: str, shape: str, const: str = "2", direction: str = "GT") -> str:
    """One row group: (x*x + c) minus its row sum, kept where it compares `direction` to
    the row sum; `shape` is x's, rows the leading dim."""
    rows = shape.split(",")[0] + "]"
    return f"""
  a{k} = {shape} multiply({x}, {x})
  c{k} = f32[] constant({const})
  cb{k} = {shape} broadcast(c{k}), dimensions={{}}
  s{k} = {shape} add(a{k}, cb{k})
  z{k} = f32[] constant(0)
  m{k} = {rows} reduce(s{k}, z{k}), dimensions={{1}}, to_apply=add
  mb{k} = {shape} broadcast(m{k}), dimensions={{0}}
  d{k} = {shape} subtract(s{k}, mb{k})
  p{k} = pred{shape[3:]} compare(d{k}, mb{k}), direction={direction}
  ROOT_{k} = {shape} select(p{k}, d{k}, mb{k})"""


X, Z = "f32[<=16,8]", "f32[<=16,4]"
LAYERS = [("x", X, "2", "GT"), ("x", X, "2", "GT"), ("x", X, "3", "GT"),
          ("x", X, "2", "LT"), ("y", X, "2", "GT"), ("z", Z, "2", "GT"),
          ("x", X, "2", "GT")]
MODULE = """
HloModule layers
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=16,8] parameter(0)
  y = f32[<=16,8] parameter(1)
  z = f32[<=16,4] parameter(2)""" + "".join(
    _layer(k, *layer) for k, layer in enumerate(LAYERS)).replace("ROOT_", "o") + """
  ROOT out = (""" + ", ".join(s for _, s, _, _ in LAYERS) + \
    ") tuple(" + ", ".join(f"o{k}" for k in range(len(LAYERS))) + """)
}
"""


def _groups():
    exe = dynhlo.compile(MODULE, backend="cpu", reference=False)
    plan = exe.program.evaluator.plan
    info = plan.info
    position = {inst: k for k, inst in enumerate(schedule(info))}
    groups = [build_group(info, position, root, plan.fused, set())
              for root in plan.kernels]
    return info, position, {g.root.name: g for g in groups}


def _same(a, b) -> None:
    assert a.key == b.key and a.leaves == b.leaves and a.members == b.members
    assert a._writer.loads == b._writer.loads and a._writer.root_kept == b._writer.root_kept
    assert a.ir() == b.ir()


def test_groups_of_one_structure_share_an_analysis_and_variants_do_not():
    info, position, groups = _groups()
    assert sorted(groups) == [f"o{k}" for k in range(len(LAYERS))]   # one kernel a layer
    forms = Forms()
    made = {name: generate_in(forms, groups[name], info, position)
            for name in sorted(groups)}
    for name, source in made.items():   # each what its own analysis gives
        _same(source, kernels.generate(groups[name], info, position))
    # o1 and o6 take o0's analysis; the constant (o2), the direction (o3), another size
    # (o4: y's rows), another declared shape (o5) each make a form of their own
    assert forms.hits == 2 and len(forms.done) == 5
    sig = {name: forms.signature(g, info, sorted(g.members, key=position.__getitem__))
           for name, g in groups.items()}
    assert sig["o0"] == sig["o1"] == sig["o6"]
    assert len({sig[f"o{k}"] for k in (0, 2, 3, 4, 5)}) == 5
    # the shared analysis names the group's own instructions, not o0's
    assert [leaf.name for leaf in made["o1"].leaves] == ["x"]
    assert [leaf.name for leaf in made["o4"].leaves] == ["y"]
    assert made["o1"].group.root.name == "o1"
    assert {m.name for m in made["o1"].members} == {
        f"{p}1" for p in ("a", "c", "cb", "s", "z", "m", "mb", "d", "p", "o")}
    assert made["o2"].key != made["o0"].key and made["o3"].key != made["o0"].key


def test_a_group_that_is_not_one_kernel_is_analysed_itself():
    # the same structure but a reduction over the leading dim: the analysis fails, nothing
    # is kept, and the next group of that structure fails with its own name
    info, position, groups = _groups()
    forms = Forms()
    for name in ("o0", "o1"):
        g = groups[name]
        bad = dataclasses.replace(g, reduced=(0,))
        with pytest.raises(kernels.FusionError, match="trailing"):
            generate_in(forms, bad, info, position)
    assert forms.hits == 0 and not forms.done


def test_a_saved_program_of_repeated_layers_loads_and_runs_as_the_reference(tmp_path):
    path = tmp_path / "layers.dynhlo"
    dynhlo.compile(MODULE, backend="cpu", reference=False).save(path)
    loaded = dynhlo.load(path)
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((11, 8), dtype=np.float32),
            rng.standard_normal((5, 8), dtype=np.float32),
            rng.standard_normal((11, 4), dtype=np.float32)]
    got = loaded(*args)
    want = dynhlo.compile(MODULE, backend="cpu", reference=True)(*args)
    for g, w in zip(got, want, strict=True):
        # row sums: the kernel's order may differ from NumPy's pairwise one in the last bits
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-5)
