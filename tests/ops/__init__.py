"""The CPU backend's opcode tables, one file per family, against NumPy by hand or XLA's outputs."""
