"""How the game loop's functions are compiled: cached, and without numba's reference counting.

The game loop allocates nothing, so counting references to the arrays it passes around (the
state record's fields) bought nothing and cost time (docs/speed.md).  Numba compiles a callee
under its caller's options, so a function that allocates, and every function that calls one
(the search crew's rollouts, the worlds it deals, the set-up with its Deep Sea repair, the
chunk loop), keeps ``njit(cache=True)``; an allocation here fails to compile, saying "NRT
required but not enabled".
"""

from numba import njit

# (``_nrt`` is a numba option its type stubs leave out)
compiled = njit(cache=True, _nrt=False)  # type: ignore[call-overload]
inlined = njit(cache=True, _nrt=False, forceinline=True)  # type: ignore[call-overload]


@inlined
def copy_into(dst, src):  # type: ignore[no-untyped-def]
    """``dst[:] = src``, which numba compiles with a temporary copy (an allocation) where it
    cannot rule out that the two overlap."""
    for i in range(len(dst)):
        dst[i] = src[i]
