"""Which reader a module file needs: HLO text, StableHLO (.mlir text, .mlirbc bytecode or a
portable artifact), or an HloModuleProto (.pb binary, .pbtxt / `hlo_module {` text)."""

from __future__ import annotations

from ..hlo.ir import HloModule
from .proto import parse_hlo_proto, parse_hlo_proto_text
from .stablehlo import parse_stablehlo

STABLEHLO_SUFFIXES = (".mlir", ".mlirbc", ".stablehlo")
PROTO_SUFFIXES = (".pb", ".hlo.pb", ".binpb")
PROTO_TEXT_SUFFIXES = (".pbtxt", ".txtpb", ".textproto")


def kind_of(path: str, data: bytes) -> str:
    """"stablehlo", "proto", "proto_text" or "hlo", from the suffix, else the first bytes."""
    name = path.lower()
    head = data.lstrip()[:64]
    if name.endswith(STABLEHLO_SUFFIXES) or data.startswith(b"ML\xefR") \
            or head.startswith((b"module", b"#loc", b"func.func")):
        return "stablehlo"
    if name.endswith(PROTO_TEXT_SUFFIXES) or head.startswith((b"hlo_module", b"name:")):
        return "proto_text"
    if name.endswith(PROTO_SUFFIXES):
        return "proto"
    return "hlo"


def load_module_file(path: str, data: bytes, bounds: dict | None = None) -> HloModule | None:
    """The module of a StableHLO or HloModuleProto file; None for HLO text (the caller's
    parser reports its errors with the file's line and column). `bounds` are
    parse_stablehlo's, for a StableHLO file."""
    kind = kind_of(path, data)
    if kind == "stablehlo":
        return parse_stablehlo(data, bounds)
    if kind == "proto":
        return parse_hlo_proto(data)
    if kind == "proto_text":
        return parse_hlo_proto_text(data.decode("utf-8", "replace"))
    return None
