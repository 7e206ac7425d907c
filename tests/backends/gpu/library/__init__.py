"""The GPU backend's library tier (torch, cuSOLVER, LAPACK calls) against the CPU backend."""
