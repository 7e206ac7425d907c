"""The `dynhlo` command (also `python -m dynhlo`).

    dynhlo run MODULE.hlo|ARTIFACT [ARGS...] run on the CPU (or --backend gpu), print the result
    dynhlo inspect MODULE.hlo|ARTIFACT       the dynamic size of every instruction
    dynhlo compile MODULE.hlo -o M.dynhlo    compile ahead of time into an artifact file
    dynhlo bound A.hlo B.hlo --bound N       one module <=N from HLO dumped at two sizes

MODULE may also be StableHLO (.mlir text, .mlirbc bytecode) or an HloModuleProto (.pb, or the
.pbtxt text form); dynhlo.frontends.files picks the reader (these need jax installed).

Each subcommand is one entry of SUBCOMMANDS: a function that adds its arguments to its
argparse parser and a function that does the work and returns the exit status. Adding a
command (`compile`, `bench`) is one more entry. Reading the command's files (modules,
artifacts, arguments) and writing its results is files.py's job.

Exit status: 0 on success, 1 for an error (any DynHloError, a file that cannot be read), 2 for
a usage error (argparse), 130 on Ctrl-C. An error is one line on stderr, `dynhlo: error: ...`;
bad input never shows a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import re
import sys
import time
import warnings
from pathlib import Path
from typing import Callable, NamedTuple

from . import bench
from .files import (CliError, check_output_path, check_results_replaceable, first_line,
                    flatten, forget_reads, format_result, is_artifact, is_literal,
                    load_executable, module_and_options, read_argument, read_bytes,
                    save_outputs)
from .. import config
from ..errors import DynHloError, HloVerifyError

PROG = "dynhlo"
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

_NEGATIVE_NUMBER = re.compile(r"^-(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|nan)$")


class _IntermixedParser(argparse.ArgumentParser):
    """A subcommand parser that takes options among positionals (`run M.hlo --backend gpu X`).

    argparse's subparsers call parse_known_args; this routes it through the intermixed
    parser, which itself calls parse_known_args (hence the re-entry guard).
    """

    _mixing = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # argparse takes only -3 and -2.5 for negative numbers, so a scalar ARG of -1e5 or
        # -inf was an "unrecognized argument"; these are the numbers an HLO literal spells
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def parse_known_args(self, args=None, namespace=None):
        if self._mixing:
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


class Subcommand(NamedTuple):
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# -- subcommands --------------------------------------------------------------------------


def _add_module_argument(parser: argparse.ArgumentParser, artifact: bool = False) -> None:
    # every command reads the same module files (frontends/files.py): say so in each --help
    files = ("HLO text file (short or dump form), StableHLO (.mlir, .mlirbc) or "
             "HloModuleProto (.pb, .pbtxt)")
    if artifact:
        parser.add_argument("module", metavar="MODULE.hlo|ARTIFACT",
                            help=f"{files}, or an artifact written by `dynhlo compile`; - "
                                 "reads standard input")
        return
    parser.add_argument("module", metavar="MODULE.hlo",
                        help=f"{files}; - reads standard input")


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    _add_module_argument(parser, artifact=True)
    # default=[]: argparse marks a '*' positional without a default as required, so a
    # missing module was reported as "required: MODULE.hlo|ARTIFACT, ARG" (a module without
    # parameters takes no ARG at all)
    parser.add_argument("args", nargs="*", metavar="ARG", default=[],
                        help='one per entry parameter, in parameter order (none for a module '
                             'without parameters): a .npy file, HLO literal text such as '
                             '"f32[2,2] {{1,2},{3,4}}" or "s32[] 3", at its actual (unpadded) '
                             'shape, or a bare number (3) for a scalar')
    parser.add_argument("-o", "--output", metavar="OUT.npz",
                        help="also save the outputs to OUT.npz under keys out0, out1, ... "
                             "(it replaces only an earlier run's OUT.npz)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="do not print the result (use with -o)")
    parser.add_argument("--backend", choices=("cpu", "gpu"), default=None,
                        help="where to run (default: cpu; an artifact runs on the backend "
                             "it was compiled for)")
    _add_reference_argument(parser)
    _add_gpu_run_arguments(parser)
    _add_bound_argument(parser)
    parser.add_argument("--nproc", type=_count, default=None, metavar="N",
                        help="run a partitioned module on N local processes, one per device "
                             "(torch.distributed: gloo on cpu, NCCL on gpu); each gets its "
                             "shard of each argument by the parameter's sharding=")
    parser.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                        help="with --nproc: end the run with an error after SECONDS "
                             "(default 120); 0 or none: no deadline (Ctrl-C ends every "
                             "process)")


def _add_bound_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bound", action="append", default=[], metavar="NAME:DIM=BOUND",
                        help="bound an unbounded (?) dimension, e.g. x:0=1024 (NAME: the "
                             "parameter's name, with or without its .N suffix, or its "
                             "number); for a StableHLO file also n=1024 (a JAX dimension "
                             "variable)")


def _add_reference_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reference", action="store_true",
                        help="cpu backend: run on the NumPy reference evaluator, one lowering "
                             "per instruction (the semantics the compiled path is tested "
                             "against), instead of fused groups compiled to machine code")


_INTERPRET_HELP = ("gpu backend: run the kernels in Triton's interpreter on the CPU (slow; "
                   "for machines without a GPU)")
# An artifact holds cubins for a GPU target: compiled with --interpret it still loads only on
# a CUDA device, so compile's help must not promise the interpreter at run time.
_COMPILE_INTERPRET_HELP = ("gpu backend without a GPU here: compile anyway (kernels are "
                           "cubins for --target, default sm_90); the artifact runs on such a "
                           "GPU, not in the interpreter (to run a module here: dynhlo run "
                           "MODULE.hlo --backend gpu --interpret)")


def _add_gpu_run_arguments(parser: argparse.ArgumentParser,
                           interpret_help: str = _INTERPRET_HELP) -> None:
    from ..options import PADDING_READS, PRECISIONS
    parser.add_argument("--interpret", action="store_true", help=interpret_help)
    parser.add_argument("--max-while-iterations", type=_count, default=None, metavar="N",
                        help="end a while loop that runs more than N iterations with an "
                             "error (default: no limit)")
    parser.add_argument("--precision", choices=PRECISIONS, default=None, type=_precision_word,
                        help="f32 products on the gpu: highest (default) computes every one "
                             "in IEEE f32; default lets TF32 run where the module's "
                             "operand_precision allows it, as XLA does on GPU (the cpu "
                             "backend computes as before); any case, and JAX's float32 "
                             "(highest) and tensorfloat32 (default) too")
    parser.add_argument("--padding-reads", choices=PADDING_READS, default=None,
                        help="a read past a dynamic array's actual size within its bound "
                             "(XLA reads its padded buffer there): zeros (default) reads "
                             "zeros; error refuses it, naming the instruction (to debug)")


def _count(text: str) -> int:
    """A count option's value (--nproc, --max-while-iterations): a whole number >= 1; else
    argparse's usage error naming the option (exit 2). compile()'s own message for 0 speaks
    of the API ("or None for no limit"), which the command line has no spelling for."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}': give a whole number >= 1")
    return value


def _seconds(text: str) -> float:
    """--timeout's value: seconds >= 0 (a fraction too); `none` is 0, no deadline."""
    if text.strip().lower() == "none":
        return 0.0
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of seconds: '{text}'") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"'{text}': give a finite number of seconds >= 0 (0 or "
                                         "none: no deadline)")
    return value


def _precision_word(text: str) -> str:
    """--precision's value as compile() reads it (any case; JAX's "float32" and
    "tensorfloat32"); an unknown word is left for argparse's choices to refuse."""
    from ..options import check_precision
    from ..errors import UnsupportedError
    try:
        return check_precision(text)
    except UnsupportedError:
        return text


def run_options(ns: argparse.Namespace) -> dict:
    """compile() keywords from `--reference`, `--interpret`, `--max-while-iterations`,
    `--precision` and `--padding-reads`."""
    options: dict = {}
    if getattr(ns, "reference", False):
        if (ns.backend or "cpu") != "cpu":
            raise CliError("--reference is the cpu backend's NumPy evaluator (drop --backend "
                           f"{ns.backend})")
        options["reference"] = True
    if ns.interpret:
        if (ns.backend or "cpu") != "gpu":
            raise CliError("--interpret is for the gpu backend (add --backend gpu)")
        options["interpret"] = True
    if ns.max_while_iterations is not None:
        options["max_while_iterations"] = ns.max_while_iterations
    if ns.precision is not None:
        options["precision"] = ns.precision
    if ns.padding_reads is not None:
        options["padding_reads"] = ns.padding_reads
    return options


def cmd_run(ns: argparse.Namespace) -> int:
    """`dynhlo run`: compile, run once, print each output as `SHAPE LITERAL`."""
    if ns.output:  # before running: refuse at once, not after a long run
        check_output_path(ns.output, [ns.module] + [a for a in ns.args
                                                     if not is_literal(a)])
        check_results_replaceable(ns.output)
    if ns.nproc is not None:
        result = _run_distributed(ns)
    elif ns.timeout is not None:
        raise CliError("--timeout is the deadline of a run on several processes (add "
                       "--nproc N)")
    else:
        exe = load_executable(ns.module, ns.backend, call_options(ns))
        args = [read_argument(i, a) for i, a in enumerate(ns.args)]
        # the call checks the arguments: dynhlo's own message first (parameter, dimension,
        # size, bound), then a jax.export module's own shape checks (n >= 1), in JAX's words
        result = exe(*args)
    outputs = flatten(result)
    if ns.output:
        save_outputs(ns.output, outputs)
    if not ns.quiet:
        sys.stdout.write(format_result(result) + "\n")
    return 0


def _run_distributed(ns: argparse.Namespace):
    """`dynhlo run --nproc N`: the module on N processes, the result assembled here."""
    from ..runtime.launch import DEFAULT_TIMEOUT, run_distributed
    module, options = module_and_options(ns.module, call_options(ns))
    args = [read_argument(i, a) for i, a in enumerate(ns.args)]
    timeout = DEFAULT_TIMEOUT if ns.timeout is None else ns.timeout
    return run_distributed(module, args, ns.nproc, backend=ns.backend or "cpu",
                           timeout=timeout, **options)


def _add_inspect_arguments(parser: argparse.ArgumentParser) -> None:
    _add_module_argument(parser, artifact=True)
    parser.add_argument("--backend", choices=["cpu", "gpu"], default=None,
                        help="also show how the backend runs the module (gpu: its CUDA "
                             "graph, or the instruction that keeps it off the graph; cpu: "
                             "its evaluator)")
    _add_reference_argument(parser)
    parser.add_argument("--interpret", action="store_true",
                        help="gpu backend without a GPU: plan it for Triton's interpreter")
    _add_bound_argument(parser)


def cmd_inspect(ns: argparse.Namespace) -> int:
    """`dynhlo inspect`: the module's instructions with their inferred dynamic sizes."""
    from ..inspect import inspect_module
    if ns.interpret and ns.backend != "gpu":  # as run says: silently ignored, it misled
        raise CliError("--interpret is for the gpu backend (add --backend gpu)")
    if ns.reference and ns.backend != "cpu":
        raise CliError("--reference shows the cpu backend's NumPy evaluator (add --backend "
                       "cpu)")
    if is_artifact(ns.module):
        sys.stdout.write(inspect_artifact(ns.module))
        return 0
    module, rest = module_and_options(ns.module, _bound_options(ns))
    if rest:  # HLO text: its `?` dims are part of what inspect shows
        raise CliError("--bound on inspect is for a StableHLO file (a jax.export module's "
                       "sizes); an HLO module's ? dimensions are shown as they are")
    from ..hlo.baked_sizes import warn_baked_sizes
    from ..runtime.module_text import read_from_text
    read_from_text(module)   # the size checks its text carried, as compile reads them
    warn_baked_sizes(module)
    sys.stdout.write(inspect_module(module))
    if ns.backend is not None:
        from ..backends import get
        from ..runtime.executable import compile as compile_module
        # without torch or triton it is the backend's UnsupportedError that says what to
        # install (importing the GPU's modules here was an internal ModuleNotFoundError)
        exe = compile_module(module, backend=ns.backend,
                             **({"interpret": True} if ns.interpret else {}),
                             **({"reference": True} if ns.reference else {}))
        sys.stdout.write("\n" + get(ns.backend).describe(exe.program))
    return 0


def inspect_artifact(path: str) -> str:
    """An artifact's header (versions, backend, target, options, buckets, sections), then
    the report of the module it holds (as given, before bucketing)."""
    from ..inspect import inspect_module
    from ..runtime.artifact import describe, read_artifact
    from ..runtime.loader import stored_module
    from ..errors import ArtifactError
    try:
        artifact = read_artifact(read_bytes(path))
        module = stored_module(artifact)   # its large constants read from the file
    except ArtifactError as exc:
        raise ArtifactError(f"{path}: {exc}") from None
    return describe(artifact) + "\n" + inspect_module(module)


def _add_compile_arguments(parser: argparse.ArgumentParser) -> None:
    _add_module_argument(parser)
    parser.add_argument("-o", "--output", required=True, metavar="ARTIFACT",
                        help="the artifact file to write (e.g. MODULE.dynhlo)")
    parser.add_argument("--backend", choices=("cpu", "gpu"), default="cpu",
                        help="the backend to compile for (default: cpu)")
    _add_reference_argument(parser)
    parser.add_argument("--target", help="the GPU target, e.g. sm_90 (gpu backend only)")
    _add_gpu_run_arguments(parser, _COMPILE_INTERPRET_HELP)
    _add_bound_argument(parser)
    parser.add_argument("--buckets", metavar="B1,B2,...",
                        help="one program per bucket for the unbounded dimensions left, e.g. "
                             "128,1024; a call runs the smallest bucket that fits")


def cmd_compile(ns: argparse.Namespace) -> int:
    """`dynhlo compile`: compile ahead of time and write one artifact file."""
    from ..runtime.executable import compile as compile_module
    options = compile_options(ns)
    check_output_path(ns.output, [ns.module], "module.dynhlo")
    from ..runtime.artifact import check_replaceable
    check_replaceable(Path(ns.output))  # before compiling: refuse at once, not minutes later
    if is_artifact(ns.module):
        raise CliError(f"{ns.module}: is already a compiled artifact; `dynhlo compile` takes "
                       "HLO text (`dynhlo run` and `dynhlo inspect` read artifacts)")
    module, options = module_and_options(ns.module, options)
    buckets = options.get("buckets")
    _progress(f"compiling {module.name} for {ns.backend}"
              + (f" ({len(set(buckets))} buckets)" if buckets else "") + " ...")
    exe = compile_module(module, backend=ns.backend, **options)
    _progress(f"writing {ns.output} ...")
    with _kernel_progress():
        exe.save(ns.output)
    buckets = list(getattr(exe, "executables", {})) or "one program"
    sys.stdout.write(f"wrote {ns.output}: backend {exe.backend}, target {exe.target}, "
                     f"buckets {buckets}\n")
    return 0


class _ProgressHandler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        _progress(record.getMessage())


@contextlib.contextmanager
def _kernel_progress():
    """The GPU kernel compiler's progress lines (dynhlo.gpu.compile) as _progress lines."""
    logger = logging.getLogger("dynhlo.gpu.compile")
    handler, level = _ProgressHandler(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _progress(message: str) -> None:
    """A progress line for people watching a terminal; never mixed into piped output."""
    if sys.stderr.isatty():
        print(message, file=sys.stderr, flush=True)


def compile_options(ns: argparse.Namespace) -> dict:
    """compile() keywords from `--target`, `--bound` and `--buckets`."""
    options: dict = {}
    if ns.target is not None:
        if not ns.target.strip():  # an empty `--target "$ARCH"` must not mean the default
            raise CliError("--target is empty; give a GPU target such as sm_90, or leave the "
                           "option out for this machine's GPU")
        if ns.backend != "gpu":
            raise CliError(f"--target {ns.target} is for the gpu backend; the cpu backend has "
                           "one target")
        options["target"] = ns.target
    if ns.bound:
        options["bounds"] = parse_bounds(ns.bound)
    if ns.buckets is not None:
        options["buckets"] = _int_list("--buckets", ns.buckets)
    return {**options, **run_options(ns)}


def call_options(ns: argparse.Namespace) -> dict:
    """The compile keywords of a command that runs the module (run, bench): run_options and
    --bound's bounds."""
    return {**run_options(ns), **_bound_options(ns)}


def _bound_options(ns: argparse.Namespace) -> dict:
    """{"bounds": ...} from --bound, or nothing."""
    return {"bounds": parse_bounds(ns.bound)} if ns.bound else {}


def parse_bounds(specs: list[str]) -> dict:
    """`["x:0=1024"]` -> {"x": {0: 1024}}; a NAME of digits is a parameter number;
    `["n=1024"]` -> {"n": 1024} (a JAX dimension variable, for StableHLO files)."""
    bounds: dict = {}
    for spec in specs:
        variable = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=([0-9]{1,18})", spec.strip())
        if variable is not None:
            bounds[variable[1]] = int(variable[2])
            continue
        # ASCII digits, at most 18: int() refuses '²' (a digit to isdigit) and 4301 digits
        match = re.fullmatch(r"(.+):([0-9]{1,18})=([0-9]{1,18})", spec.strip())
        if match is None:
            raise CliError(f"--bound {spec!r}: expected NAME:DIM=BOUND, e.g. x:0=1024 (or "
                           "n=1024 for a StableHLO file's dimension variable n)")
        name = int(match[1]) if re.fullmatch(r"[0-9]{1,18}", match[1]) else match[1]
        bounds.setdefault(name, {})[int(match[2])] = int(match[3])
    return bounds


def _add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    _add_module_argument(parser, artifact=True)
    parser.add_argument("--backend", choices=("cpu", "gpu"), default=None,
                        help="where to run (default: cpu; an artifact runs on its own)")
    _add_reference_argument(parser)
    _add_gpu_run_arguments(parser)
    _add_bound_argument(parser)
    parser.add_argument("--sizes", metavar="N1,N2,...",
                        help="the sizes of the dynamic dimensions to run (default: 1, B/16, "
                             "B/4 and B for the largest bound B)")
    parser.add_argument("--seed", type=int, default=0, help="of the random arguments")


def cmd_bench(ns: argparse.Namespace) -> int:
    """`dynhlo bench`: compile or load once, then one row per size (bench.py)."""
    # before compiling (minutes on a GPU); an empty --sizes "$SIZES" is not the default
    sizes = _int_list("--sizes", ns.sizes) if ns.sizes is not None else None
    if sizes is not None and (not sizes or min(sizes) < 0):
        raise CliError(f"--sizes {ns.sizes!r}: give sizes >= 0, e.g. 1,128,1024")
    start = time.perf_counter()
    exe = load_executable(ns.module, ns.backend, call_options(ns))
    print(f"{exe.backend}: compiled or loaded in {time.perf_counter() - start:.3f} s")
    bench.run(exe, sizes, ns.seed)
    return 0


def _int_list(flag: str, text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise CliError(f"{flag} {text!r}: expected sizes separated by commas, e.g. 128,1024"
                       ) from None


def _add_bound_dumps_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dumps", nargs=2, metavar="DUMP.hlo",
                        help="one program's HLO text dumped at two sizes (jax.jit(f).lower("
                             "...).as_text(dialect=\"hlo\"), XLA's --xla_dump_to, tf2xla)")
    parser.add_argument("--bound", required=True, type=_bound_size, metavar="N",
                        help="the largest size the module takes (at least the sizes dumped)")
    parser.add_argument("-o", "--output", metavar="OUT.hlo",
                        help="write the module here (default: standard output)")


def _bound_size(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number") from None


def cmd_bound(ns: argparse.Namespace) -> int:
    """`dynhlo bound`: two dumps at two sizes -> one module `<=N` (dynhlo.bound_from_dumps);
    a size baked in is refused as `DUMP:LINE:COLUMN: ...`."""
    from ..frontends.dumps import bound_from_dumps
    if ns.output:
        check_output_path(ns.output, ns.dumps, "module.hlo")
    texts = []
    for path in ns.dumps:
        try:
            texts.append(read_bytes(path).decode("utf-8"))
        except UnicodeDecodeError:
            raise CliError(f"{path}: not HLO text (not UTF-8)") from None
    try:
        module = bound_from_dumps(*texts, bound=ns.bound)
    except DynHloError as exc:
        dump = getattr(exc, "dump", None)
        if dump is None:
            raise
        raise CliError(f"{ns.dumps[dump]}:{first_line(exc)}") from None
    text = module.to_text()
    if ns.output:
        from ..files import write_atomic
        try:
            write_atomic(Path(ns.output), text.encode("utf-8"))
        except OSError as exc:
            raise CliError(f"-o {ns.output}: cannot write: {exc.strerror or exc}") from None
        sys.stderr.write(f"wrote {ns.output}: {module.name}, entry "
                         f"{', '.join(str(p.shape) for p in module.entry.parameters)}\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


SUBCOMMANDS: dict[str, Subcommand] = {
    "run": Subcommand("run a module on arrays and print (or save) the result",
                      _add_run_arguments, cmd_run),
    "compile": Subcommand("compile a module ahead of time into an artifact file that run and "
                          "dynhlo.load use without compiling", _add_compile_arguments,
                          cmd_compile),
    "inspect": Subcommand("print every instruction with its dynamic dimensions and where "
                          "each size comes from", _add_inspect_arguments, cmd_inspect),
    "bound": Subcommand("make one module with bounded sizes (<=N) from a program's HLO "
                        "dumped at two sizes; refuses a size baked in, naming its line",
                        _add_bound_dumps_arguments, cmd_bound),
    "bench": Subcommand("time a module's calls at several sizes of its dynamic dimensions, "
                        "compiled once", _add_bench_arguments, cmd_bench),
}


# -- entry point --------------------------------------------------------------------------


_EPILOG = """examples:
  dynhlo run m.hlo "f32[3,5] {{1,2,3,4,5},{6,7,8,9,10},{11,12,13,14,15}}"
  dynhlo run m.hlo x.npy 3 -o out.npz       a .npy file, a bare number, save the outputs
  dynhlo inspect m.hlo                      the dynamic size of every instruction
  dynhlo compile m.hlo -o m.dynhlo          ahead of time; `dynhlo run m.dynhlo ...`
  dynhlo bench m.hlo --sizes 1,64,1024      time per call at each size, one compile
  dynhlo run model.mlir x.npy               StableHLO (.mlir/.mlirbc) or HloModuleProto (.pb)
  dynhlo bound a64.hlo a48.hlo --bound 1024 -o m.hlo   one module <=1024 from two dumps


Programs keep their sizes symbolic through dynhlo.from_jax, from_torch and from_tf (or a
jax.export module, .mlir, with --bound n=N). HLO dumps (XLA's --xla_dump_to, jax.jit(f)
.lower(...).as_text(dialect="hlo")) fix every size: dump at two sizes and run `dynhlo
bound`, which marks the dimensions that move <=N and refuses a size baked in by line. A
dump marked <=N by hand keeps the sizes it was lowered at (a mean divides by the bound at
every size); where dynhlo sees such a size, a warning says so.
`dynhlo COMMAND --help` describes each command."""


def build_parser() -> argparse.ArgumentParser:
    from ..version import __version__
    parser = argparse.ArgumentParser(
        prog=PROG, description="Compile and run XLA HLO modules with bounded dynamic shapes "
        "(f32[<=128,64]) on the CPU or an NVIDIA GPU.", epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_IntermixedParser)
    for name, command in SUBCOMMANDS.items():
        child = sub.add_parser(name, help=command.help, description=command.help)
        command.add_arguments(child)
        child.set_defaults(handler=command.run, subparser=child)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]); returns the exit status."""
    parser = build_parser()
    forget_reads()
    ns = None
    try:
        ns = _parse(parser, argv)
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return ns.handler(ns)
    except DynHloError as exc:
        return _fail(_with_path(exc, getattr(ns, "module", None)))
    except KeyboardInterrupt:
        return _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:  # `dynhlo run ... | head`: the reader left; not an error
        # Point stdout at /dev/null so the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except RecursionError:
        return _fail("the module is nested too deeply to evaluate")
    except MemoryError:
        return _fail("out of memory")
    except Exception as exc:  # noqa: BLE001 - a bug in dynhlo: one line, traceback on request
        if config.traceback():
            raise
        return _fail(f"internal error: {type(exc).__name__}: {first_line(exc)} (a bug in "
                     "dynhlo; set DYNHLO_TRACEBACK=1 to see where)")


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The command line, an unknown option reported by the subcommand it was given to
    (`dynhlo run: error: unrecognized arguments: --bogus` under run's usage; the top-level
    parser's own report showed `usage: dynhlo COMMAND ...`). Exits 2 on a usage error."""
    ns, extra = parser.parse_known_args(argv)
    if extra:
        ns.subparser.error(f"unrecognized arguments: {' '.join(extra)}")
    return ns


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """dynhlo's warnings (a size baked into a module) as one line on stderr."""
    print(f"{PROG}: warning: {message}", file=sys.stderr)


def _fail(message: str, status: int = EXIT_ERROR) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return status


def _with_path(exc: DynHloError, path: str | None) -> str:
    """The error's line; an HloVerifyError located in the module's text reads
    `PATH:LINE:COLUMN: ...`, as a parse error does (was `LINE:COLUMN: ...`: which file?)."""
    message = first_line(exc)
    if isinstance(exc, HloVerifyError) and exc.line is not None and path \
            and not is_artifact(path):
        return f"{path}:{message}"
    return message


if __name__ == "__main__":
    sys.exit(main())
