"""A module's size checks kept in its HLO text, so that a module printed to a file and run
from it (`dynhlo run M.hlo`, `dynhlo.compile(text)`) checks what the executable it came from
checks: jax.export's shape assertions and from_tf's least sizes (`module.shape_assertions`).

They are written in the module's header as one of its frontend attributes, which XLA's HLO
parser reads and keeps (`HloModule m, frontend_attributes={dynhlo_size_checks="..."}`), as
the JSON that artifacts store (stored_assertions, stored_requirements), escaped as an HLO
string. `keep_in_text` writes them into `module.attrs`, which print_module prints as written;
`read_from_text` reads them back strictly when a module is compiled: stored checks are
untrusted data, checked as an artifact's are, and a malformed one is an HloVerifyError.
"""

from __future__ import annotations

import json
import re

from ..errors import ArtifactError, HloVerifyError
from ..hlo.ir import HloModule
from .stored_assertions import from_data, to_data
from .stored_requirements import from_data as requirements_from_data
from .stored_requirements import to_data as requirements_to_data

KEY = "dynhlo_size_checks"
_ATTRIBUTE = "frontend_attributes"
_VALUE = re.compile(KEY + r'="((?:[^"\\]|\\.)*)"')


def keep_in_text(module: HloModule) -> None:
    """Write `module.shape_assertions` into its header's frontend attributes (replacing
    ones written before), so that its text carries them; nothing where it has none."""
    old = module.attrs.get(_ATTRIBUTE, "{}")
    old = _VALUE.sub("", old).replace("{,", "{").replace(",}", "}").replace(",,", ",")
    if not module.shape_assertions:
        if old != "{}":
            module.attrs[_ATTRIBUTE] = old
        else:
            module.attrs.pop(_ATTRIBUTE, None)
        return
    data = json.dumps({"shape_assertions": to_data(module.shape_assertions),
                       "size_requirements": requirements_to_data(module.shape_assertions)},
                      separators=(",", ":"))
    escaped = data.replace("\\", "\\\\").replace('"', '\\"')
    entry = f'{KEY}="{escaped}"'
    module.attrs[_ATTRIBUTE] = "{" + entry + ("," + old[1:] if old != "{}" else "}")


def without_checks(text: str) -> str:
    """Printed module `text` with the size checks keep_in_text wrote taken out of its header
    (an artifact stores them in its own header: they are not kept twice)."""
    head, newline, rest = text.partition("\n")
    if KEY not in head:
        return text
    head = _VALUE.sub("", head).replace("{,", "{").replace(",}", "}").replace(",,", ",")
    return head.replace(f", {_ATTRIBUTE}={{}}", "") + newline + rest


def read_from_text(module: HloModule) -> None:
    """Set `module.shape_assertions` from its header's frontend attributes where it has none
    and its text wrote them (keep_in_text).

    Raises:
        HloVerifyError: the stored checks are not what keep_in_text writes, or name a
            parameter dimension the module does not have.
    """
    if module.shape_assertions:
        return
    m = _VALUE.search(module.attrs.get(_ATTRIBUTE, ""))
    if m is None:
        return
    text = re.sub(r"\\(.)", r"\1", m.group(1))
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or set(data) != {"shape_assertions",
                                                       "size_requirements"}:
            raise ArtifactError("not an object of shape_assertions and size_requirements")
        module.shape_assertions = from_data(data["shape_assertions"], module) + \
            requirements_from_data(data["size_requirements"], module)
    except (ValueError, RecursionError, ArtifactError) as exc:
        why = str(exc).removeprefix("malformed artifact header: ").removesuffix(
            "; recompile the artifact")
        raise HloVerifyError(f"module attribute {_ATTRIBUTE} {KEY}: malformed size checks: "
                             f"{why[:300]}") from None


__all__ = ["KEY", "keep_in_text", "read_from_text", "without_checks"]
