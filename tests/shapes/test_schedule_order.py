"""shapes/schedule.py: operands and size sources run first; a computation written in such an
order keeps it (the common path takes the list as it is), any other is searched."""

from __future__ import annotations

from dynhlo.hlo.text.parser import parse_hlo
from dynhlo.shapes.dynamic import infer_module
from dynhlo.shapes.schedule import schedule, tree_deps

IN_ORDER = """HloModule m
ENTRY main {
  x = f32[<=8] parameter(0)
  s = s32[] parameter(1)
  one = s32[] constant(1)
  t = s32[] subtract(s, one)
  y = f32[<=8] set-dimension-size(x, t), dimensions={0}
  z = f32[<=8] add(y, y)
  ROOT w = f32[<=8] negate(z)
}
"""

# the same instructions, users written before their operands and size sources
SHUFFLED = """HloModule m
ENTRY main {
  ROOT w = f32[<=8] negate(z)
  z = f32[<=8] add(y, y)
  y = f32[<=8] set-dimension-size(x, t), dimensions={0}
  t = s32[] subtract(s, one)
  one = s32[] constant(1)
  s = s32[] parameter(1)
  x = f32[<=8] parameter(0)
}
"""


def _check(text: str) -> list[str]:
    info = infer_module(parse_hlo(text))
    order = schedule(info)
    assert sorted(order, key=lambda i: i.name) == sorted(info.computation.instructions,
                                                         key=lambda i: i.name)
    at = {inst: k for k, inst in enumerate(order)}
    for inst in order:
        for dep in [*inst.operands, *tree_deps(info.dims[inst])]:
            assert dep is inst or at[dep] < at[inst], (dep.name, inst.name)
    return [inst.name for inst in order]


def test_a_computation_written_in_order_keeps_its_order():
    info = infer_module(parse_hlo(IN_ORDER))
    sources = {i.name: [d.name for d in tree_deps(info.dims[i])]
               for i in info.computation.instructions}
    assert sources["z"] == ["t"]   # a size read off a value: the order has size sources
    assert _check(IN_ORDER) == ["x", "s", "one", "t", "y", "z", "w"]


def test_a_computation_written_out_of_order_is_searched():
    order = _check(SHUFFLED)
    assert order.index("t") < order.index("y") < order.index("z") < order.index("w")
