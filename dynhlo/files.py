"""Files dynhlo stores and reads back: regular files only, atomic writes, private caches.

One set of rules for every file dynhlo reads or writes on the user's behalf (artifacts,
the JIT cache's entries, the GPU backend's cubin cache), kept here at the bottom of the
package so the runtime and the backends share them. Errors are OSError subclasses with a
message that says what is wrong; each caller says what the file was (an artifact: an
ArtifactError; a cache entry: a miss).

- read_regular: a FIFO would block a read forever and a device such as /dev/zero never
  ends (it filled memory until MemoryError): the file is opened without blocking and
  checked on the open descriptor, so a file swapped for another kind after a check is
  still caught; a cache's entries are never links (they are written by rename), and a
  read is bounded where the caller knows how big a file can be.
- write_atomic: a temporary file in the same directory, then os.replace (Triton's own
  cache writes so): readers see the old file or the whole new one, never a partial write.
- private_directory: a cache directory is made 0700, and one that another user can write
  is refused: its entries are code (cubins) and programs, and a file planted there would
  run or compute in the user's name.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from .config import cache_root


class NotRegularFileError(OSError):
    """A path that is not a regular file to read (a FIFO, a device, a link where none may
    be), or one larger than its reader allows."""


class UnsafeDirectoryError(OSError):
    """A cache directory that another user can write, or that another user owns."""


def read_regular(path, limit: int | None = None, follow: bool = True) -> bytes:
    """The bytes of the regular file at `path`.

    `limit`: the most bytes the caller accepts (None: any); `follow=False` refuses a
    symbolic link (cache entries are never links).

    Raises:
        IsADirectoryError: `path` is a directory.
        NotRegularFileError: a FIFO, a device, a link with follow=False, or over `limit`.
        OSError: missing or unreadable.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow and exc.errno == errno.ELOOP:
            raise NotRegularFileError(errno.ELOOP, "it is a symbolic link") from None
        raise
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "it is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(errno.EINVAL,
                                      "it is not a regular file (a pipe or a device)")
        if limit is not None and info.st_size > limit:
            raise NotRegularFileError(errno.EFBIG, f"it is over {limit} bytes")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read() if limit is None else f.read(limit + 1)
        if limit is not None and len(data) > limit:   # it grew after the fstat
            raise NotRegularFileError(errno.EFBIG, f"it is over {limit} bytes")
        return data
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same directory (one per
    writer: two processes or threads writing one path never share it) and os.replace.

    Raises OSError; the temporary file is removed."""
    path = Path(path)
    tmp = str(path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    # mode 0o666 lets the umask decide, as for any file the user writes
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def private_directory(path) -> Path:
    """`path` as a cache directory only this user can write: made (with any missing
    parents) mode 0700 when missing.

    Raises:
        UnsafeDirectoryError: it exists and another user owns it or may write it (group or
            others' write bit); the message says how to make it private.
        OSError: it cannot be made, or is not a directory.
    """
    path = Path(path)
    missing = []
    for level in (path, *path.parents):
        if level.exists():
            break
        missing.append(level)
    for level in reversed(missing):
        try:
            level.mkdir(mode=0o700)
        except FileExistsError:   # another process made it first: checked below
            pass
    info = path.stat()
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "it is not a directory")
    uid = getattr(os, "getuid", None)
    if uid is not None and info.st_uid != uid():
        raise UnsafeDirectoryError(errno.EPERM, f"it belongs to user {info.st_uid}, not "
                                   "this one; use a directory of your own")
    if uid is not None and info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafeDirectoryError(errno.EPERM, "other users can write it, mode "
                                   f"{stat.S_IMODE(info.st_mode):o}; make it private with "
                                   f"`chmod 700 {path}`")
    return path


def cache_directory(name: str) -> Path:
    """`name` under dynhlo's cache directory ($DYNHLO_CACHE_DIR, else
    $XDG_CACHE_HOME/dynhlo, else ~/.cache/dynhlo), made private (private_directory)."""
    return private_directory(cache_root() / name)
