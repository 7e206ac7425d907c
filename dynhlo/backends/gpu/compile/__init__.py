"""The kernel -> cubin service, below the runners: generated kernel source to a @triton.jit
function (source.py), compile specs, cache keys, the one disk cache of cubins and the
compilers that fill it: parallel child processes or this process (cubins.py), and the child
itself (worker.py).

This package's initializer imports nothing: the compiler child (worker.py) imports its
modules without running dynhlo's package initializers.
"""
