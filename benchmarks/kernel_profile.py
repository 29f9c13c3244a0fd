"""`make profile`: where the kernel's time goes, by policy function and source line.

The kernel is a few numba functions (the game loop, the set-up, the trick loop, the endgame
search...) with every helper inlined, so ``perf`` alone sees anonymous blobs.  This tool plays
games under ``perf record`` (a software clock: it needs no hardware counters), gives perf a map
of every jitted function of crewsim that was loaded, and reads the inline chains of each
sampled instruction from the compiled objects' debug information with ``objdump``.  A function
counts the samples of its own code and of the helpers inlined into it, not of the jitted
functions it calls (those are rows of their own).  The kernel
is compiled for it with ``NUMBA_DEBUGINFO=1`` into its own cache (the first run compiles for a
few minutes); LLVM still optimises it fully, with line tables added (pn-10 ran at 95,000
games/s with them, within this machine's noise of the plain build).

Shares of samples, unlike games/s, barely move when the machine is busy: compare two versions
of the policy by the share (or samples per game) of one function, not by wall time.

Run ``python -m benchmarks.kernel_profile --help``.  Needs Linux ``perf`` and binutils.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

WRAPPERS = ("cfunc.", "_ZN7cpython")  # numba's Python-call wrappers around jitted functions
K = TypeVar("K")  # a sampled address: an offset, or (function, offset)
_ADDRESS = re.compile(r"^\s+([0-9a-f]+):\t")
_FUNCTION = re.compile(r"^(\S+)\(\):$")
_CALLER = re.compile(r"\((\S+)\)")


@dataclass(frozen=True)
class Symbol:
    """A compiled function: where it was loaded, its size, and where it sits in its object."""

    address: int
    size: int
    name: str
    obj: str
    offset: int


@dataclass(frozen=True)
class Profile:
    """Samples in the game loop, inclusive per function and per source line of any frame."""

    samples: int
    total: int
    games: int
    by_function: Counter[str]
    by_line: Counter[str]
    self_line: Counter[str]


def demangle(name: str) -> str:
    """``_ZN7crewsim4bots4want9fill_wantB4v179...`` -> ``want.fill_want`` (module and name)."""
    name = name.partition("@")[0]  # (the copy's number in the perf map)
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        size = int(name[i:j])
        parts.append(name[j : j + size])
        i = j + size
    return ".".join(parts[-2:]) if parts else name


def inline_frames(disassembly: str, base: int) -> dict[int, tuple[tuple[str, str], ...]]:
    """Each instruction's inline chain, innermost first, as (function, file:line) pairs.

    ``objdump -d -l --inlines`` writes a ``name():`` line when the innermost function changes
    and a ``file:line`` line when its line does, then one ``inlined by file:line (caller)`` per
    enclosing frame; the instructions below share that chain.
    """
    frames: dict[int, tuple[tuple[str, str], ...]] = {}
    inner, chain, callers_done = "?", [("?", "?")], False
    for line in disassembly.splitlines():
        if m := _ADDRESS.match(line):
            frames[int(m.group(1), 16) - base] = tuple(chain)
            callers_done = True  # "inlined by" lines after this start a new list of callers
        elif m := _FUNCTION.match(line):
            inner = demangle(m.group(1))
        elif line.startswith("/"):
            chain, callers_done = [(inner, line.split(" ")[0])], False
        elif line.startswith("inlined by "):
            if callers_done:
                chain, callers_done = chain[:1], False
            caller = _CALLER.search(line)
            chain.append((demangle(caller.group(1)) if caller else "?", line.split(" ")[2]))
    return frames


def attribute(
    offsets: Mapping[K, int],
    frames: Mapping[K, tuple[tuple[str, str], ...]],
    total: int,
    games: int,
    root: str = "",
) -> Profile:
    """Sum samples per function and per line; a function or line counts once per sample even
    when it appears in the chain twice (a helper inlined into a helper it also calls)."""
    by_function: Counter[str] = Counter()
    by_line: Counter[str] = Counter()
    self_line: Counter[str] = Counter()
    for offset, n in offsets.items():
        chain = frames.get(offset, (("?", "?"),))
        for f in {f for f, _ in chain}:
            by_function[f] += n
        for loc in {_short(loc, root) for _, loc in chain}:
            by_line[loc] += n
        self_line[_short(chain[0][1], root)] += n
    return Profile(sum(offsets.values()), total, games, by_function, by_line, self_line)


def _short(location: str, root: str) -> str:
    return location[len(root) :] if root and location.startswith(root) else location


# ---------------------------------------------------------------- the child: plays under perf


def _keep_objects() -> dict[str, bytes]:
    """numba drops a cached library's object code once loaded; keep a copy by library name."""
    from numba.core import codegen

    kept: dict[str, bytes] = {}
    original = codegen.CPUCodeLibrary._set_compiled_object

    def keep(self: codegen.CPUCodeLibrary, value: bytes) -> None:
        kept[self.name] = value
        original(self, value)

    codegen.CPUCodeLibrary._set_compiled_object = keep  # type: ignore[method-assign,assignment]
    return kept


def _symbols(dispatcher: object, kept: Mapping[str, bytes], out: Path) -> list[Symbol]:
    """Every function numba loaded for ``dispatcher``, with its object file written to ``out``."""
    symbols = []
    for result in dispatcher.overloads.values():  # type: ignore[attr-defined]
        library = result.library
        obj = out / f"{library.name.replace('/', '_')[:100]}.o"
        obj.write_bytes(kept.get(library.name) or library._get_compiled_object())
        listing = subprocess.run(
            ["nm", "-S", "--defined-only", str(obj)], capture_output=True, text=True, check=True
        ).stdout
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[2] in "tTwW" and not parts[3].startswith(WRAPPERS):
                address = library.get_pointer_to_function(parts[3])
                if address:
                    symbols.append(
                        Symbol(address, int(parts[1], 16), parts[3], str(obj), int(parts[0], 16))
                    )
    return symbols


def _kernel_symbols(kept: Mapping[str, bytes], out: Path) -> list[Symbol]:
    """The functions of every jitted function of crewsim that was loaded: the game loop calls
    the trick loop, the set-up and the endgame search as functions of their own (each in its
    own compiled library), not inlined."""
    from numba.core.registry import CPUDispatcher

    seen: dict[int, Symbol] = {}  # by address: compiled in this process, every library
    for name, module in list(sys.modules.items()):  # holds its own copy of its callees
        if not name.startswith("crewsim."):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, CPUDispatcher) and value.overloads:
                for sym in _symbols(value, kept, out):
                    seen.setdefault(sym.address, sym)
    # perf names a sample by the map's name: one name per copy, so it finds the right object
    return [replace(s, name=f"{s.name}@{k}") for k, s in enumerate(seen.values())]


def child(mission: str, bot: str, seconds: float, out: Path) -> None:
    """Load the kernel, publish its code to perf (``/tmp/perf-PID.map``), play for a while."""
    kept = _keep_objects()
    from benchmarks.bench import _vectors
    from crewsim.engine.run import run_chunk

    mp, bp = _vectors(bot, mission)
    run_chunk(mp, bp, 100, 1)  # compiles or loads the kernel
    symbols = _kernel_symbols(kept, out)
    Path(f"/tmp/perf-{os.getpid()}.map").write_text(
        "".join(f"{s.address:x} {s.size:x} {s.name}\n" for s in symbols)
    )
    start, seed, chunk = time.perf_counter(), 1, 20_000
    while time.perf_counter() - start < seconds:
        run_chunk(mp, bp, chunk, seed)
        seed += 1
    (out / "run.json").write_text(
        json.dumps({"games": (seed - 1) * chunk, "symbols": [s.__dict__ for s in symbols]})
    )


# ---------------------------------------------------------------- the parent: perf and objdump


def read_profile(out: Path, root: str) -> Profile:
    """Resolve the samples perf took in the kernel's functions to inline chains."""
    run = json.loads((out / "run.json").read_text())
    symbols = {s["name"]: Symbol(**s) for s in run["symbols"]}
    script = subprocess.run(
        ["perf", "script", "-i", str(out / "perf.data"), "-F", "ip,sym,symoff"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    offsets: Counter[tuple[str, int]] = Counter()
    total = 0
    for line in script.splitlines():
        total += 1
        name, _, offset = line.split(maxsplit=1)[-1].rpartition("+0x")
        if name in symbols:
            offsets[name, int(offset, 16)] += 1
    frames: dict[tuple[str, int], tuple[tuple[str, str], ...]] = {}
    for name in {n for n, _ in offsets}:
        sym = symbols[name]
        disassembly = subprocess.run(
            [
                "objdump",
                "-d",
                "-l",
                "--inlines",
                "--no-show-raw-insn",
                f"--start-address={sym.offset}",
                f"--stop-address={sym.offset + sym.size}",
                sym.obj,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for at, chain in inline_frames(disassembly, sym.offset).items():
            frames[name, at] = chain
    return attribute(offsets, frames, total, run["games"], root)


def report(profile: Profile, top: int) -> str:
    """Three tables: inclusive per function, inclusive per line of any frame, self per line."""
    per_game = 1e6 / profile.games if profile.games else 0.0
    lines = [
        f"{profile.samples:,} samples in the kernel of {profile.total:,} "
        f"({profile.games:,} games; samples per million games in the last column)"
    ]
    for title, counts in (
        ("inclusive, by function", profile.by_function),
        ("inclusive, by source line of any inlined frame", profile.by_line),
        ("self, by innermost source line", profile.self_line),
    ):
        lines += ["", f"== {title}"]
        for key, n in counts.most_common(top):
            share = 100 * n / max(profile.samples, 1)
            lines.append(f"{share:6.1f} %  {n * per_game:9.0f}  {key}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.kernel_profile", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--mission", default="pn-10", help="mission id (default pn-10)")
    parser.add_argument("--bot", default="heuristic", help="crew (default heuristic)")
    parser.add_argument("--seconds", type=float, default=20.0, help="play time (default 20)")
    parser.add_argument("--top", type=int, default=30, help="rows per table (default 30)")
    parser.add_argument("--out", type=Path, help="keep perf.data and objects here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.mission, args.bot, args.seconds, args.out)
        return 0
    missing = [tool for tool in ("perf", "objdump", "nm") if shutil.which(tool) is None]
    if missing:
        print(
            f"kernel_profile: {', '.join(missing)} not found (Linux perf and binutils needed)",
            file=sys.stderr,
        )
        return 2
    from crewsim.kernel import _cache_base

    out = args.out or Path(tempfile.mkdtemp(prefix="crewsim-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "NUMBA_DEBUGINFO": "1",
        "NUMBA_CACHE_DIR": str(_cache_base() / "debuginfo"),
    }
    command = [
        "perf",
        "record",
        "-q",
        "-e",
        "cpu-clock",
        "-o",
        str(out / "perf.data"),
        "--",
        sys.executable,
        "-W",
        "ignore",
        "-m",
        "benchmarks.kernel_profile",
        "--child",
        "--mission",
        args.mission,
        "--bot",
        args.bot,
        "--seconds",
        str(args.seconds),
        "--out",
        str(out),
    ]
    print(
        f"profiling {args.mission} for {args.seconds:g} s (the first run compiles the kernel "
        "with line tables for a few minutes)",
        file=sys.stderr,
    )
    proc = subprocess.run(command, env=env, check=False)
    if proc.returncode != 0:
        print(f"kernel_profile: perf record failed ({proc.returncode})", file=sys.stderr)
        return 2
    root = str(Path(__file__).resolve().parent.parent) + "/"
    print(report(read_profile(out, root), args.top))
    print(f"\nperf data and objects kept in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
