"""XLA's HloModuleProto: the binary `.pb` and the text proto form (`hlo_module { ... }`).

Binary protos are turned into HLO text by jaxlib's xla_client (`XlaComputation(proto)
.as_hlo_text(print_large_constants=True)`, XLA's own printer: by default it writes a
constant of more than a few elements as `{...}`), then parsed by dynhlo.parse_hlo. The text form is first
read into a binary proto with protobuf and XLA's `hlo_pb2` (shipped with tensorflow).
Bounded dynamic dimensions survive both (XLA prints them `<=N`).
"""

from __future__ import annotations

from ..errors import HloParseError, UnsupportedError
from ..hlo.ir import HloModule
from ..hlo.parser import parse_hlo
from .mlir_load import INSTALL


def parse_hlo_proto(data: bytes) -> HloModule:
    """An HloModule from a serialized HloModuleProto (an HloProto's `hlo_module` too).

    Raises:
        UnsupportedError: jaxlib is missing (`pip install "dynhlo[jax]"`).
        HloParseError: the bytes are not an HloModuleProto XLA accepts.
    """
    try:
        from jaxlib import xla_client
    except ImportError as exc:
        raise UnsupportedError(f"reading an HloModuleProto needs jaxlib ({exc}); install it "
                               f"with: {INSTALL}") from None
    try:
        text = xla_client.XlaComputation(bytes(data)).as_hlo_text(print_large_constants=True)
    except Exception as exc:  # XlaRuntimeError / ValueError from the proto parser
        raise HloParseError(f"not an HloModuleProto: {str(exc).splitlines()[0][:200]}", 1, 1) \
            from None
    return parse_hlo(text)


def parse_hlo_proto_text(text: str) -> HloModule:
    """An HloModule from the text proto form (`name: ... computations { ... }`, or wrapped in
    `hlo_module { ... }` as XLA's debug dumps write an HloProto).

    Raises:
        UnsupportedError: protobuf or XLA's hlo_pb2 is missing (`pip install "dynhlo[tf]"`
            provides both), or jaxlib is missing.
        HloParseError: the text is not a valid HloModuleProto / HloProto.
    """
    text_format, hlo_pb2 = _protobuf()
    message = hlo_pb2.HloProto() if text.lstrip().startswith("hlo_module") \
        else hlo_pb2.HloModuleProto()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as exc:
        line, column = _position(str(exc))
        raise HloParseError(f"not an HloModuleProto text: {exc}", line, column) from None
    module = message.hlo_module if isinstance(message, hlo_pb2.HloProto) else message
    return parse_hlo_proto(module.SerializeToString())


def _protobuf():
    try:
        from google.protobuf import text_format
    except ImportError as exc:
        raise UnsupportedError(f"reading the text form of an HloModuleProto needs protobuf "
                               f"({exc}); pip install \"dynhlo[tf]\"") from None
    for name in ("tensorflow.compiler.xla.service.hlo_pb2", "xla.service.hlo_pb2"):
        try:
            import importlib
            return text_format, importlib.import_module(name)
        except ImportError:
            continue
    raise UnsupportedError("reading the text form of an HloModuleProto needs XLA's hlo_pb2 "
                           "(tensorflow has it): pip install \"dynhlo[tf]\"")


def _position(message: str) -> tuple[int, int]:
    import re
    m = re.match(r"\s*(\d+):(\d+)", message)
    return (int(m.group(1)), int(m.group(2))) if m else (1, 1)
