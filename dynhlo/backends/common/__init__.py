"""What both backends share: the memory check before a run (memory.py), the while-loop
iteration limit (limits.py), the GPU solver custom calls read as their LAPACK forms
(gpu_solver.py), and collectives across processes through torch.distributed
(distributed.py). Imports the layers below the backends only, never a backend."""
