"""The compile options: every name dynhlo.compile, dynhlo.jit, the frontends and the command
take, each one's values, and the one check of them (CompileOptions.of, which
dynhlo/compiler.py runs before a backend sees them). Environment variables are
dynhlo/config.py's.

Backend options (the backends read them from a CompileOptions; a backend ignores those of
another: the CPU takes the GPU's):
    interpret     gpu: run the kernels in Triton's interpreter (True/False; None: a CUDA device)
    target        gpu: the target to compile for, e.g. "sm_90" (None: the present device's)
    fast_launch   gpu: launch cubins through the driver (True, the default) or Triton's JIT
    graph         gpu: run the module as CUDA graphs (True/False; None: the backend decides)
    distributed   collectives across an initialised torch.distributed group (default False)
    precision     "highest" (default) or "default" (TF32 where XLA on GPU allows it)
    padding_reads "zeros" (default) or "error": a read past an actual size within the bound
    reference     cpu: the NumPy evaluator (True) or compiled fused groups (False); None:
                  compiled, unless DYNHLO_CPU_COMPILED=0
Run options (the executable keeps them; no backend compiles by them):
    max_while_iterations  a positive int: a longer loop is an IterationLimitError (None: none)
    bounds, buckets       bounds for `?` dimensions (dynhlo.compile's own keywords)
`backend` may appear among them too (an artifact's recorded options carry it); the driver
takes it as its own argument, not as an option.

A bad name or value is an UnsupportedError naming the option (a misspelt option would
otherwise change nothing, silently); a value an artifact holds that dynhlo does not write is
an ArtifactError (strict_precision, check_padding_reads under the loader's words).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .errors import ArtifactError, UnsupportedError

# The names a backend's compile takes, and those dynhlo.compile itself handles.
BACKEND_OPTIONS = frozenset({"interpret", "target", "fast_launch", "graph", "distributed",
                             "precision", "padding_reads", "reference"})
RUNTIME_OPTIONS = frozenset({"max_while_iterations", "bounds", "buckets"})
KNOWN = BACKEND_OPTIONS | RUNTIME_OPTIONS | {"backend"}

# The `precision` option's values: "highest" (the default: every f32 product in IEEE f32)
# or "default" (TF32 where the module's operand_precision allows it, as XLA on GPU; see
# dynhlo/backends/gpu/precision.py). Every backend takes it; the CPU computes as before.
PRECISIONS = ("highest", "default")

# Other spellings a JAX user writes: any case, jax.lax.Precision's members (their `name`),
# and jax_default_matmul_precision's "float32" and "tensorfloat32".
_PRECISION_ALIASES = {"float32": "highest", "tensorfloat32": "default"}

# The `padding_reads` option's values: what a read past a dynamic dimension's actual size,
# within its bound, gives. XLA reads its padded buffer there (a static slice, a dynamic-slice
# window, a gather row: tf2xla's lowerings of tf.where and tf.unique read one element past
# and mask it away later); dynhlo's padding reads as zeros ("zeros", the default), or such
# a read is a DynamicSizeError naming the instruction ("error", a debugging mode).
PADDING_READS = ("zeros", "error")


def check_names(options: dict, known: frozenset = KNOWN) -> None:
    """UnsupportedError naming any option not in `known`, and listing the options."""
    unknown = sorted(set(options) - known)
    if unknown:
        raise UnsupportedError(f"unknown compile option(s) {', '.join(unknown)}; the "
                               f"options are {', '.join(sorted(KNOWN))}")


def check_precision(value) -> str:
    """The `precision` option's value ("highest" when None): "highest" or "default", in any
    case, as a jax.lax.Precision member (DEFAULT, HIGHEST) or as JAX's matmul precision
    names "float32" (highest) and "tensorfloat32" (default). UnsupportedError naming the
    option and its values for anything else (jax.lax.Precision.HIGH too: XLA runs it as
    three bf16 products on a GPU, which dynhlo does not)."""
    if value is None:
        return PRECISIONS[0]
    name = getattr(value, "name", value)   # an enum member: jax.lax.Precision.HIGHEST
    name = name.lower() if isinstance(name, str) else None
    name = _PRECISION_ALIASES.get(name, name)
    if name not in PRECISIONS:
        raise UnsupportedError(f"compile option precision={value!r} is not one of "
                               f"{', '.join(repr(p) for p in PRECISIONS)}: 'highest' computes "
                               "every f32 product in IEEE f32 (the default), 'default' lets "
                               "TF32 run where the module's operand_precision allows it, as "
                               "XLA does on GPU")
    return name


def check_padding_reads(value) -> str:
    """The `padding_reads` option's value ("zeros" when None): "zeros" or "error";
    UnsupportedError naming the option and its values for anything else."""
    if value is None:
        return PADDING_READS[0]
    if value not in PADDING_READS:
        raise UnsupportedError(f"compile option padding_reads={value!r} is not one of "
                               f"{', '.join(repr(p) for p in PADDING_READS)}: 'zeros' (the "
                               "default) reads a dynamic array's padding as zeros, 'error' "
                               "refuses a read past the actual size")
    return value


def check_while_limit(value) -> int | None:
    """The max_while_iterations option: None or a positive int; UnsupportedError else."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or value < 1):
        raise UnsupportedError(f"max_while_iterations={value!r}: give a positive number of "
                               "iterations, or None for no limit")
    return value


_SWITCH_MEANS = {
    "interpret": "None: a CUDA device, or the interpreter for a cross-compile",
    "fast_launch": "None: True, cubins launched through the driver",
    "graph": "None: the default, on a GPU for modules of many launches",
    "distributed": "None: False, each collective's one-device form",
    "reference": "None: compiled fused groups unless DYNHLO_CPU_COMPILED=0",
}


def _check_switch(name: str, value) -> None:
    """UnsupportedError unless `value` is True, False or None: graph=1 or "yes" would
    otherwise be taken as an unset option, silently."""
    if value is not None and not isinstance(value, bool):
        raise UnsupportedError(f"compile option {name}={value!r} is not True, False or None "
                               f"({_SWITCH_MEANS[name]})")


def _check_target(value) -> None:
    if value is not None and not isinstance(value, str):
        raise UnsupportedError(f"compile option target={value!r} is not a target name such "
                               "as 'sm_90' (or None: the present device's)")


@dataclass(frozen=True)
class CompileOptions:
    """Every compile option, checked (build one with CompileOptions.of). None means unset:
    the backend's default (see the module docstring for each)."""

    interpret: bool | None = None
    target: str | None = None
    fast_launch: bool | None = None
    graph: bool | None = None
    distributed: bool | None = None
    precision: str = PRECISIONS[0]
    padding_reads: str = PADDING_READS[0]
    reference: bool | None = None
    max_while_iterations: int | None = None

    @classmethod
    def of(cls, options: CompileOptions | dict | None = None, **more) -> CompileOptions:
        """`options` (a dict of compile() keywords, or a CompileOptions) and `more` checked:
        UnsupportedError naming an unknown option, or the option whose value is bad.
        `backend`, `bounds` and `buckets` are taken and dropped (the driver's argument and
        compile()'s own keywords)."""
        if isinstance(options, CompileOptions):
            options = {**options.given(), **more}
        else:
            options = {**(options or {}), **more}
        check_names(options)
        for name in _SWITCH_MEANS:
            _check_switch(name, options.get(name))
        _check_target(options.get("target"))
        return cls(interpret=options.get("interpret"), target=options.get("target"),
                   fast_launch=options.get("fast_launch"), graph=options.get("graph"),
                   distributed=options.get("distributed"),
                   precision=check_precision(options.get("precision")),
                   padding_reads=check_padding_reads(options.get("padding_reads")),
                   reference=options.get("reference"),
                   max_while_iterations=check_while_limit(options.get("max_while_iterations")))

    def given(self) -> dict:
        """The options that differ from their default, by name (what a CompileOptions adds
        to the defaults)."""
        default = CompileOptions()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def as_dict(self) -> dict:
        """Every option by name."""
        return asdict(self)


def canonical(options: dict) -> dict:
    """`options` (compile() keywords) checked (CompileOptions.of: UnsupportedError naming a
    bad one), with a given `precision` spelt as PRECISIONS spells it: what artifacts, cache
    keys and the backends see. The other options are kept as given."""
    CompileOptions.of(options)
    if options.get("precision") is None:
        return options
    return {**options, "precision": check_precision(options["precision"])}


def strict_precision(value, what: str) -> str:
    """An artifact's precision as dynhlo writes it (one of PRECISIONS; "highest" when None);
    ArtifactError naming `what` for any other spelling: a file is not a user's call."""
    if value is None:
        return PRECISIONS[0]
    if value not in PRECISIONS:
        raise ArtifactError(f"{what} precision {value!r} is not one of "
                            f"{', '.join(PRECISIONS)}; recompile the artifact")
    return value


__all__ = ["BACKEND_OPTIONS", "KNOWN", "PADDING_READS", "PRECISIONS", "RUNTIME_OPTIONS",
           "CompileOptions", "canonical", "check_names", "check_padding_reads",
           "check_precision", "check_while_limit", "strict_precision"]
