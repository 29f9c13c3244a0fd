"""The numba fast path: whole chunks of games with int64 bitmask hands and no Python objects."""
