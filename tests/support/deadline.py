"""deadline(seconds, what): a test block that runs too long fails instead of hanging the run.

SIGALRM, so the main thread of a Unix process only (pytest and its xdist workers run tests
there). The previous handler and alarm are restored on the way out.
"""

from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def deadline(seconds: int, what: str):
    """AssertionError naming `what` when the block runs longer than `seconds`."""
    def hung(signum, frame):
        raise AssertionError(f"{what} did not finish in {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
