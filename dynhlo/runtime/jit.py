"""dynhlo.jit: compile on first call per size bucket; cache executables in memory and on disk.

The disk cache is a directory of artifacts (dynhlo.runtime.artifact), one file per
(module fingerprint, shape assertions, backend, target, options, bucket, dynhlo version,
format version), named by the sha256 of those fields. It is shared safely by any number of
processes:

- writes go to a temporary file in the same directory and are renamed into place
  (`os.replace` is atomic), so a reader sees no entry or a whole one, never a partial write;
- two processes that miss at once both compile and both write; the last rename wins and
  both files were complete, so nothing is lost but one compilation;
- an entry that fails any artifact check (truncated, flipped bytes) is recompiled and
  replaced, with a warning; the cache is an optimization and never a reason to crash;
- the directory is made 0700, and one that another user can write (or owns) is not used:
  a warning, and executables stay in memory (dynhlo.files.private_directory; the gpu
  backend's cubin cache under it follows the same rule).

Directory: `cache_dir`, else $DYNHLO_CACHE_DIR, else $XDG_CACHE_HOME/dynhlo, else
~/.cache/dynhlo. `cache_dir=False` keeps executables in memory only, and so does the gpu
backend without a CUDA device (`interpret=True`, Triton's interpreter, for tests; or a
cross-compile for a named target): its artifacts hold cubins that only load on a device. Without an explicit `target` the key says "default target"; an
entry written for another GPU is refused by the backend on load and rewritten (a warning).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import warnings
from pathlib import Path

from .. import files
from ..config import cache_root
from ..backends import get as get_backend
from ..errors import ArtifactError, DynHloError, UnsupportedError, user_stacklevel
from ..hlo.ir import HloModule
from ..options import PRECISIONS, canonical
from ..passes.bound_unbounded import bound_unbounded, unbounded_dims
from . import artifact, loader
from .arguments import check_arguments, check_assertions
from .buckets import BucketPolicy, pick_bucket
from .executable import as_module, compile
from .stored_assertions import to_data
from .stored_requirements import to_data as requirements_to_data


def default_cache_dir() -> Path:
    """$DYNHLO_CACHE_DIR, else $XDG_CACHE_HOME/dynhlo, else ~/.cache/dynhlo (config.py)."""
    return cache_root()


class JitFunction:
    """A module that compiles itself per bucket on first use; call it like an Executable.

    Attributes:
        module: the module as given (it may have `?` dimensions).
        compilations: how many programs this function compiled (disk hits compile nothing).
        disk_loads: how many executables it loaded from the disk cache.
        cache_dir: the disk cache directory, or None for memory only.

    Calls raise ArgumentError for arguments that do not fit the parameters (or are over the
    largest of the listed buckets), and whatever compiling the module raises on first use.
    """

    def __init__(self, module: HloModule, backend: str, policy: BucketPolicy,
                 cache_dir: Path | None, options: dict):
        self.module = module
        self.backend = backend
        self.options = options
        self.policy = policy
        self.cache_dir = cache_dir
        self.bucket_dims = [(p.parameter_number, d) for p, d in unbounded_dims(module)]
        self.compilations = 0
        self.disk_loads = 0
        self._fingerprint = artifact.fingerprint(module)
        # not in the module's text (the fingerprint): part of the key and of the entry check
        self._assertions = to_data(module.shape_assertions)
        self._requirements = requirements_to_data(module.shape_assertions)
        self._executables: dict = {}
        self._lock = threading.Lock()
        self._cache_checked = False

    @property
    def buckets(self) -> list:
        """The buckets held in memory, ascending (None stands for a module without `?`)."""
        return sorted(self._executables, key=lambda b: -1 if b is None else b)

    def __call__(self, *args):
        params = self.module.entry.parameters
        arrays = check_arguments(params, args)
        check_assertions(self.module, arrays)
        bucket = (pick_bucket(self.policy, params, self.bucket_dims, arrays)
                  if self.bucket_dims else None)
        return self.executable(bucket)(*arrays)

    def executable(self, bucket: int | None):
        """The executable of a bucket: from memory, else the disk cache, else compiled."""
        with self._lock:
            exe = self._executables.get(bucket)
            if exe is None:
                exe = self._executables[bucket] = self._load_or_compile(bucket)
            return exe

    def cache_key(self, bucket: int | None) -> str:
        """sha256 of everything that decides the compiled program."""
        fields = {"fingerprint": self._fingerprint, "backend": self.backend,
                  "target": self.options.get("target", ""),
                  "options": _deciding(self.options),
                  "bucket": bucket, "dynhlo": artifact.dynhlo_version(),
                  "shape_assertions": self._assertions,
                  "size_requirements": self._requirements,
                  "format": artifact.FORMAT_VERSION}
        text = json.dumps(fields, sort_keys=True, default=repr)
        return hashlib.sha256(text.encode()).hexdigest()

    def _load_or_compile(self, bucket: int | None):
        path = self._entry_path(bucket)
        exe = None if path is None else self._load_entry(path, bucket)
        if exe is not None:
            self.disk_loads += 1
            return exe
        exe = self._compile(bucket)
        if path is not None:
            self._store(path, exe)
        return exe

    def _load_entry(self, path: Path, bucket: int | None):
        """The executable in a cache entry, or None (a miss) when there is none or it is not
        this module's: entries are untrusted input, a file anyone of the user may replace."""
        data = read_regular(path)
        if data is None:
            return None
        try:
            exe = loader.deserialize(data, backend=self.backend,
                                     target=self.options.get("target"))
            self._check_entry_is_ours(exe, bucket)
            return exe
        except DynHloError as exc:  # ArtifactError, or a backend that refuses it here
            warnings.warn(f"dynhlo cache entry {path} is unusable ({exc}); recompiling "
                          "and replacing it", RuntimeWarning, stacklevel=user_stacklevel())
            return None

    def _check_entry_is_ours(self, exe, bucket: int | None) -> None:
        """ArtifactError unless `exe` was compiled from this module (at this bucket) with
        these options: a valid artifact of another module, copied or renamed into the entry's
        name, would otherwise silently compute something else."""
        module = self.module if bucket is None else bound_unbounded(self.module, bucket)
        if artifact.fingerprint(exe.module) != artifact.fingerprint(module):
            raise ArtifactError(f"it holds module '{exe.module.name}' (fingerprint "
                                f"{artifact.fingerprint(exe.module)[:12]}), not this one")
        if to_data(exe.module.shape_assertions) != self._assertions:
            raise ArtifactError("it checks other shape assertions than this module's")
        if requirements_to_data(exe.module.shape_assertions) != self._requirements:
            raise ArtifactError("it checks other size requirements than this module's")
        ours = _as_json(_deciding({"backend": self.backend, **self.options}))
        if ours is None or _as_json(_deciding(exe.options)) != ours:
            raise ArtifactError(f"it was compiled with options {exe.options!r}, not "
                                f"{dict(self.options, backend=self.backend)!r}")

    def _compile(self, bucket: int | None):
        module = self.module if bucket is None else bound_unbounded(self.module, bucket)
        exe = compile(module, self.backend, **self.options)
        self.compilations += 1
        return exe

    def _entry_path(self, bucket: int | None) -> Path | None:
        if self.cache_dir is None or not self._private_cache():
            return None
        return self.cache_dir / f"{self.cache_key(bucket)}.dynhlo"

    def _private_cache(self) -> bool:
        """Whether the disk cache is used: its directory, made 0700 on first use, must be
        one only this user can write (files.private_directory); else a warning, and
        executables stay in memory from then on."""
        if not self._cache_checked:
            self._cache_checked = True
            try:
                files.private_directory(self.cache_dir)
            except OSError as exc:
                warnings.warn(f"dynhlo cannot use cache directory {self.cache_dir} "
                              f"({exc.strerror or exc}); keeping executables in memory only",
                              RuntimeWarning, stacklevel=user_stacklevel())
                self.cache_dir = None
        return self.cache_dir is not None

    def _store(self, path: Path, exe) -> None:
        """Best effort: a cache that cannot be written warns and keeps working in memory."""
        try:
            artifact.write_atomic(path, exe.serialize())
        except (OSError, DynHloError) as exc:
            warnings.warn(f"dynhlo cannot write cache entry {path} ({exc}); keeping it in "
                          "memory only", RuntimeWarning, stacklevel=user_stacklevel())

    def __repr__(self) -> str:
        return (f"<dynhlo.jit {self.module.name} backend={self.backend} "
                f"buckets={self.buckets} compilations={self.compilations}>")


def read_regular(path: Path) -> bytes | None:
    """The bytes of `path` when it is a regular file, else None (missing, a FIFO, a device,
    a directory, a link, unreadable): files.read_regular, so a FIFO planted as an entry can
    never block a call (entries are written by rename, never links)."""
    try:
        return files.read_regular(path, follow=False)
    except OSError:
        return None


def _cuda_present() -> bool:
    try:
        import torch
    except ImportError:
        return False  # compiling says what to install
    return torch.cuda.is_available()


def _as_json(options: dict):
    """Options as JSON data (as an artifact stores them), or None when they are not JSON."""
    try:
        return json.loads(json.dumps(options, sort_keys=True))
    except (TypeError, ValueError):
        return None


def jit(module: HloModule | str, backend: str = "cpu", buckets: list[int] | None = None,
        cache_dir=None, overflow: str = "error", **options) -> JitFunction:
    """A callable that compiles `module` on first call per bucket and caches the result.

    Args:
        module: an HloModule or HLO text; `?` dimensions are compiled per bucket.
        backend: "cpu" or "gpu".
        buckets: bucket bounds for `?` dimensions; None is the power-of-two policy (sizes 0
            and 1 share bucket 1).
        overflow: for a size over the largest listed bucket, "error" (an ArgumentError) or
            "compile" (its power-of-two bucket, compiled like any other).
        cache_dir: the disk cache directory; None (the default) is $DYNHLO_CACHE_DIR, else
            $XDG_CACHE_HOME/dynhlo, else ~/.cache/dynhlo; False for memory only.
        options: backend compile options (e.g. target for the gpu backend, precision); part
            of the key.

    Raises:
        HloParseError: bad module text, UnsupportedError: an unknown backend or option, bad
            buckets, overflow, cache_dir or precision (at once);
            compile errors come on the first call.
    """
    module = as_module(module, "jit")
    get_backend(backend)      # an unknown backend or option: here, not on the first call
    options = canonical(options)   # checked; one cache entry for "HIGHEST" and "highest"
    if cache_dir is None:
        cache_dir = default_cache_dir()
    elif cache_dir is not False and (not isinstance(cache_dir, (str, os.PathLike))
                                     or not str(cache_dir)):
        # "" would be Path("") = the working directory: entries strewn among the user's files
        raise UnsupportedError(f"jit(cache_dir=...) takes a directory path, None (the default "
                               f"directory) or False (memory only), got {cache_dir!r}")
    # Interpreter runs (asked for, or a cross-compile with no device) keep executables in
    # memory: their artifacts' cubins could never load here, so writing them is wasted work.
    memory_only = cache_dir is False or (backend == "gpu" and (options.get("interpret")
                                                               or not _cuda_present()))
    directory = None if memory_only else Path(cache_dir)
    return JitFunction(module, backend, BucketPolicy(buckets, overflow), directory, options)


def _deciding(options: dict) -> dict:
    """The options that decide the program: precision None or "highest" is what no
    precision means, so the three share one cache entry."""
    return {k: v for k, v in options.items()
            if k != "precision" or v not in (None, PRECISIONS[0])}


__all__ = ["JitFunction", "default_cache_dir", "jit"]
