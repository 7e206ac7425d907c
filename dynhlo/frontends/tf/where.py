"""tf2xla's Where (tf.where of one argument, tf.boolean_mask) over a dynamic size, made to
give TensorFlow's answer: its blocks rounded up to whole blocks.

tf2xla's Where computes the prefix sum of the mask in blocks of k = 4: it pads the mask to a
multiple of k, reads it as k strided slices `[i:B:k]` (the i-th element of every block),
adds them and spreads the block sums back. At a static size the pad makes every slice
ceil(n / k) long. Over a dynamic size n the pad keeps n (plus its static high padding), so
the slices have ceil((n - i) / k) elements, and XLA's elementwise rule sizes their sum as the
smallest (DynamicDimensionInference::HandleElementwiseNary): the last block's partial sums
are lost, and TensorFlow's own XLA gives other indices than eager (n = 3 of 8: [0, 0] for
[0, 2]).

The rewrite gives each vector that k strided slices `[0:B:k]` ... `[k-1:B:k]` read (the
padded mask, and at the next level of the prefix sum, the block sums of a long mask) its
size rounded up to a multiple of k: every slice then has ceil(n / k) elements, the elements
past the mask read as zeros (dynhlo's padding reads, DESIGN.md), which is what the static
lowering's pad holds there, and the rest of tf2xla's lowering (the count, the scatter of the
indices, which drops the positions past the mask) runs as at a static size.

May assume: `text` is TensorFlow's HLO text with its metadata (op_type="Where" on the
lowering's instructions), one instruction per line.
"""

from __future__ import annotations

import re

_VECTOR = re.compile(r'^(?P<indent>\s*)%(?P<name>[\w.\-]+) = (?P<shape>s32\[<=(?P<bound>\d+)\])'
                     r'(?:\{0\})? [\w\-]+\([^\n]*\bmetadata=\{[^\n]*\bop_type="Where"')
_SLICE = r'^\s*%[\w.\-]+ = \S+ slice\((?:\S+ )?%{name}\), slice=\{{\[(\d+):(\d+):(\d+)\]\}}'


def round_where_blocks(text: str) -> str:
    """`text` with every vector of a Where lowering that strided slices read in blocks
    (s32[<=B], B a multiple of the stride) read in whole blocks, as the module doc says.
    Other text is unchanged."""
    lines = text.split("\n")
    out = []
    for number, line in enumerate(lines):
        out.append(line)
        vector = _VECTOR.match(line)
        if vector is None:
            continue
        name, bound = vector["name"], int(vector["bound"])
        pattern = re.compile(_SLICE.format(name=re.escape(name)))
        readers = {at: m for at, other in enumerate(lines) if (m := pattern.match(other))}
        forms = {(int(m[2]), int(m[3])) for m in readers.values()}   # (limit, stride)
        if len(forms) != 1 or min(readers, default=number) <= number:
            continue
        limit, stride = forms.pop()
        starts = sorted(int(m[1]) for m in readers.values())
        if stride < 2 or limit != bound or bound % stride or starts != list(range(stride)):
            continue
        whole, indent, shape = f"{name}.whole_blocks", vector["indent"], vector["shape"]
        out += [f"{indent}%{whole}.size = s32[] get-dimension-size({shape} %{name}), "
                "dimensions={0}",
                f"{indent}%{whole}.less = s32[] constant({stride - 1})",
                f"{indent}%{whole}.stride = s32[] constant({stride})",
                f"{indent}%{whole}.up = s32[] add(s32[] %{whole}.size, s32[] %{whole}.less)",
                f"{indent}%{whole}.blocks = s32[] divide(s32[] %{whole}.up, s32[] "
                f"%{whole}.stride)",
                f"{indent}%{whole}.rows = s32[] multiply(s32[] %{whole}.blocks, s32[] "
                f"%{whole}.stride)",
                f"{indent}%{whole} = {shape} set-dimension-size({shape} %{name}, s32[] "
                f"%{whole}.rows), dimensions={{0}}"]
        for at in readers:
            lines[at] = re.sub(rf"%{re.escape(name)}\)", f"%{whole})", lines[at], count=1)
    return "\n".join(out)
