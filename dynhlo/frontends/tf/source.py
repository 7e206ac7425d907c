"""Which line of the user's Python wrote an instruction of TensorFlow's HLO: TensorFlow's
metadata names the op (`op_name="add"`) and, as its source, TensorFlow's own operator
overload (`ops.py`); the op's traceback in the traced graph has the user's frame.

user_sources rewrites each instruction's `source_file`/`source_line` to the innermost frame
of its op's traceback outside TensorFlow, Keras and dynhlo (ops of nested functions, a
loop's body, keep TensorFlow's: only the function's own graph is looked up). python_place
quotes that line where two lowerings first differ in structure: a Python branch on a
static size (`if x.shape[0] > 2`) shows there, at the sizes it folded differently.
"""

from __future__ import annotations

import linecache
import os
import re

_OUTSIDE = tuple(os.sep + p + os.sep for p in ("tensorflow", "keras", "tf_keras", "dynhlo"))
_SOURCE = re.compile(r'(\bop_name="(?P<op>(?:[^"\\]|\\.)*)"[^\n]*?) source_file="'
                     r'(?:[^"\\]|\\.)*" source_line=\d+')
_PLACE = re.compile(r'\bop_name="(?P<op>(?:[^"\\]|\\.)*)"[^\n]*? source_file="'
                    r'(?P<file>(?:[^"\\]|\\.)*)" source_line=(?P<line>\d+)')


def user_frames(graph) -> dict[str, tuple[str, int]]:
    """Op name -> (file, line) of the innermost frame of its traceback outside TensorFlow,
    Keras and dynhlo, for the ops of `graph` that have one."""
    out = {}
    for op in graph.get_operations():
        frames = [f for f in op.traceback if not any(p in f.filename for p in _OUTSIDE)]
        if frames:
            out[op.name] = (frames[-1].filename, frames[-1].lineno)
    return out


def user_sources(text: str, frames: dict) -> str:
    """`text` with the source of each instruction whose op is in `frames` (user_frames)
    the user's frame."""
    def place(m):
        found = frames.get(m["op"])
        if found is None:
            return m.group(0)
        file = found[0].replace("\\", "\\\\").replace('"', '\\"')
        return f'{m.group(1)} source_file="{file}" source_line={found[1]}'
    return _SOURCE.sub(place, text)


def python_place(raw: str, other: str, changed: tuple[bool, int] | None) -> str:
    """`; TensorFlow's op '<op>' from <file>:<line>: <code>` for the line `changed` of `raw`
    (True) or `other` (False), the first where the texts differ in structure
    (lowering_diff.first_changed over them without metadata: the same lines), or "" where
    that line names no source."""
    if changed is None:
        return ""
    lines = (raw if changed[0] else other).split("\n")
    m = _PLACE.search(lines[changed[1]]) if changed[1] < len(lines) else None
    if m is None:
        return ""
    code = linecache.getline(m["file"], int(m["line"])).strip()
    return (f"; TensorFlow's op '{m['op']}' from {m['file']}:{m['line']}"
            + (f": {code[:200]}" if code else "") + " (a branch on the size, in Python or "
            "tf.cond, is folded at each static size TensorFlow lowers at: no one program "
            "has it)")
