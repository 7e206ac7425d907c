"""XLA's HloModuleProto: the binary `.pb` and the text proto form (`hlo_module { ... }`).

Binary protos are turned into HLO text by jaxlib's xla_client (`XlaComputation(proto)
.as_hlo_text(print_large_constants=True)`, XLA's own printer: by default it writes a
constant of more than a few elements as `{...}`), in a child process because XLA's reader
aborts on some malformed protos, then parsed by dynhlo.parse_hlo. The text form is first
read into a binary proto with protobuf and XLA's `hlo_pb2` (shipped with tensorflow).
Bounded dynamic dimensions survive both (XLA prints them `<=N`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

from ..errors import HloParseError, UnsupportedError
from ..hlo.ir import HloModule
from ..hlo.text.parser import parse_hlo
from .mlir_load import INSTALL


def parse_hlo_proto(data: bytes) -> HloModule:
    """An HloModule from a serialized HloModuleProto (an HloProto's `hlo_module` too).

    XLA reads the proto in a child process: its reader CHECK-fails (aborts the process) on
    some malformed protos, e.g. a parameter with more replication flags than leaves, and
    untrusted bytes must never take the caller's process down.

    Raises:
        UnsupportedError: jaxlib is missing (`pip install "dynhlo[jax]"`).
        HloParseError: the bytes are not an HloModuleProto XLA accepts (XLA's reason, or
            the check XLA aborted on).
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise HloParseError(f"not an HloModuleProto: parse_hlo_proto() takes bytes, got "
                            f"{type(data).__name__}", 1, 1)
    if importlib.util.find_spec("jaxlib") is None:
        raise UnsupportedError(f"reading an HloModuleProto needs jaxlib; install it "
                               f"with: {INSTALL}")
    return parse_hlo(_hlo_text(bytes(data)))


_CHILD_SECONDS = 600   # a reader that never returns is an error, not a hang

# The child: XLA's printer of the proto, or the exception's first line on stderr (exit 1).
_CHILD = ("import json, sys; sys.path[:] = json.loads(sys.argv[1])\n"
          "from jaxlib import xla_client\n"
          "data = sys.stdin.buffer.read()\n"
          "try:\n"
          "    text = xla_client.XlaComputation(data).as_hlo_text(print_large_constants=True)\n"
          "except Exception as exc:\n"
          "    sys.stderr.write('DYNHLO-ERROR ' + (str(exc).splitlines() or [''])[0][:200])\n"
          "    sys.exit(1)\n"
          "sys.stdout.write(text)\n")


def _hlo_text(data: bytes) -> str:
    """XLA's HLO text of a serialized proto, printed by jaxlib in an isolated child (-I: no
    working directory or PYTHON* variables on its path; this process's absolute path
    entries are handed over, so it imports the same jaxlib)."""
    paths = [p for p in sys.path if p and os.path.isabs(p) and p != os.getcwd()]
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _CHILD, json.dumps(paths)],
                              input=data, capture_output=True, check=False,
                              timeout=_CHILD_SECONDS)
    except subprocess.TimeoutExpired:
        raise HloParseError(f"not an HloModuleProto: XLA's proto reader ran past "
                            f"{_CHILD_SECONDS} s", 1, 1) from None
    if done.returncode == 0:
        return done.stdout.decode("utf-8", "replace")
    stderr = done.stderr.decode("utf-8", "replace")
    said = [line for line in stderr.splitlines() if line.startswith("DYNHLO-ERROR ")]
    if said:
        raise HloParseError(f"not an HloModuleProto: {said[-1][len('DYNHLO-ERROR '):]}", 1, 1)
    check = [line.split("] ", 1)[-1] for line in stderr.splitlines() if "Check failed" in line]
    why = check[0][:200] if check else (stderr.strip().splitlines() or ["no error output"])[-1]
    raise HloParseError(f"not an HloModuleProto: XLA's proto reader aborted "
                        f"(exit {done.returncode}): {why}", 1, 1)


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
