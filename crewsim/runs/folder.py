"""The run folder on disk: the manifest that says which run it holds, chunks written atomically
with a ``sha256sum``-style checksum beside them and verified before they are reused."""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import platform
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from crewsim import __version__
from crewsim.errors import CrewsimError
from crewsim.kernel import game_sources
from crewsim.missions.schema import Mission
from crewsim.runs.chunks import CHUNK_SCHEMA, RESULT_COLUMNS, ChunkCounts, chunk_counts
from crewsim.runs.plan import ChunkTask, RunConfig
from crewsim.runs.run_format import check_cells, older_run
from crewsim.runs.stopping import Stopping

MANIFEST = "manifest.json"


CHECKSUM_SUFFIX = ".sha256"


# what decides a run's numbers: a folder made with other values is another run's folder
IDENTITY_KEYS = (
    "crewsim_version",
    "kernel_sha256",
    "root_seed",
    "chunk_size",
    "distress",
    "players",
    "missions",
    "bot",
    "cells",
    "seeding",
)
MANIFEST_KEYS = (*IDENTITY_KEYS, "games_per_cell", "created")  # what a manifest holds today


def default_out(seed: int, root: Path = Path("runs")) -> Path:
    """``runs/<timestamp>-<seed>``, with a suffix if that folder already exists."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out, k = root / f"{stamp}-{seed}", 1
    while out.exists():
        out, k = root / f"{stamp}-{seed}-{k}", k + 1
    return out


def resume_command(out: Path) -> str:
    """The command that continues a run (its configuration is in the manifest)."""
    return f"crewsim simulate --resume {out}"


# ---------------------------------------------------------------- worker side


def atomic_write(path: Path, data: bytes) -> None:
    """Write, flush to disk, then rename: a file exists under its name only when complete."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # Ctrl-C mid-write included: leave no half file behind
        with suppress(OSError):
            tmp.unlink()
        raise


def _checksum_path(chunk: Path) -> Path:
    return chunk.with_name(chunk.name + CHECKSUM_SUFFIX)


def store_chunk(chunks: Path, done: ChunkCounts, data: bytes) -> None:
    """Chunk first, checksum second: a chunk without its checksum counts as unfinished.

    The checksum file reads like ``sha256sum`` output, so ``sha256sum -c *.sha256`` works.
    """
    path = chunks / done.task.file_name
    atomic_write(path, data)
    atomic_write(_checksum_path(path), f"{done.sha256}  {path.name}\n".encode())


UNUSED = "unused"  # in a run folder: chunks played past a cell's early stop, kept for a top-up


def set_aside(chunks: Path, tasks: Sequence[ChunkTask]) -> None:
    """Move chunks a cell does not count to ``unused/`` beside ``chunks/``: whatever reads the
    games (``chunks/*.parquet``) sees the counted ones only, and a top-up can take them back."""
    if not tasks:
        return
    spare = chunks.parent / UNUSED
    spare.mkdir(exist_ok=True)
    for task in tasks:
        path = chunks / task.file_name
        for f in (_checksum_path(path), path):  # checksum first: a chunk alone is unfinished
            with suppress(FileNotFoundError):
                os.replace(f, spare / f.name)


def take_back(chunks: Path) -> None:
    """Return the chunks ``set_aside`` kept to ``chunks/``, to be verified and reused."""
    spare = chunks.parent / UNUSED
    if not spare.is_dir():
        return
    files = sorted(spare.iterdir(), key=lambda f: f.name.endswith(CHECKSUM_SUFFIX))
    for f in files:  # chunks first, checksums second, as ``store_chunk`` writes them
        os.replace(f, chunks / f.name)
    spare.rmdir()


def verify_chunk(chunks: Path, task: ChunkTask) -> tuple[ChunkCounts | None, str | None]:
    """A stored chunk's counts if it is complete and intact; else why not (None: absent).

    Checks, in order: checksum file present, SHA-256 of the bytes, readable Parquet, the
    expected columns and their types, and the planned number of games.  Only then are its
    games counted.
    """
    path = chunks / task.file_name
    if not path.exists():
        return None, None
    try:
        data = path.read_bytes()
        recorded = _checksum_path(path).read_text().split()
    except FileNotFoundError:
        return None, "no checksum file (its write was interrupted)"
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    sha = hashlib.sha256(data).hexdigest()
    if not recorded or recorded[0] != sha:
        return None, "checksum mismatch"
    try:
        df = pl.read_parquet(io.BytesIO(data))
    except Exception as exc:  # polars raises several kinds for garbage; all mean "damaged"
        return None, f"not readable as Parquet ({type(exc).__name__})"
    if tuple(df.columns) != RESULT_COLUMNS:
        return None, f"unexpected columns {df.columns}"
    if dict(df.schema) != CHUNK_SCHEMA:
        return None, f"unexpected column types {dict(df.schema)}"
    if df.height != task.games:
        return None, f"holds {df.height} games, the plan says {task.games}"
    return chunk_counts(task, df, math.nan, sha), None


def kernel_digest() -> str:
    """SHA-256 of the sources that decide how a game is played (kernel, bots, engine, cards).

    The version number alone does not move when they are edited between releases, but the
    numbers do; a resume must not mix games of two kernels.
    """
    digest = hashlib.sha256()
    for src in game_sources():
        digest.update(src.read_bytes())
    return digest.hexdigest()


def manifest(config: RunConfig, tasks: Sequence[ChunkTask]) -> dict[str, Any]:
    """The full configuration of a run, written before any game is played."""
    import numba

    cells = config.cells()
    return {
        "crewsim_version": __version__,
        "kernel_sha256": kernel_digest(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "root_seed": config.seed,
        "games_per_cell": config.games,  # the cap of a run that may stop early
        "stopping": config.stopping.to_dict(),  # not of the identity: any prefix rule resumes
        "chunk_size": config.chunk_size,
        "chunks": len(tasks),
        "jobs": config.jobs,
        "backend": config.backend,
        "distress": config.distress,
        "players": list(config.players),
        "missions": [m.id for m in config.missions],
        "bot": {
            "name": config.bot.name,
            "kind": config.bot.kind,
            "params": dict(config.bot.params),
            "vector": config.bot.vector().tolist(),
            "file": config.bots_file,
        },
        "cells": [
            {
                "key": c.key,
                "mission": c.mission.id,
                "players": c.players,
                "mission_vector": config.mission_vector(c).tolist(),
                "mission_record": c.mission.to_dict(),
            }
            for c in cells
        ],
        "seeding": "SeedSequence(root_seed, spawn_key=(int(cell key as big-endian bytes),))"
        ".spawn(chunks)[k] -> generate_state(1, uint64)[0] & (2**63 - 1)",
        "environment": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "numba": numba.__version__,
            "polars": pl.__version__,
        },
    }


def _identity(doc: dict[str, Any]) -> dict[str, Any]:
    """The part of a manifest that decides the numbers, JSON-normalised (tuples -> lists)."""
    ident = {k: doc[k] for k in IDENTITY_KEYS}
    bot = dict(ident["bot"]) if isinstance(ident["bot"], dict) else ident["bot"]
    if isinstance(bot, dict):
        bot.pop("file", None)  # where the crew was read from does not matter, what it is does
    ident["bot"] = bot
    normalised: dict[str, Any] = json.loads(json.dumps(ident, sort_keys=True))
    return normalised


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _difference(key: str, there: Any, here: Any) -> str:
    """How a manifest field differs, in a line: for lists, what only one side has (a cut
    ``[ds-1, ds-2, ...`` would hide it in a long campaign)."""
    if isinstance(there, list) and isinstance(here, list):
        gone = [x for x in there if x not in here]
        new = [x for x in here if x not in there]
        if not gone and not new:
            return f"{key} in another order: {_short(there)} there, {_short(here)} here"
        parts = [
            f"{_short(gone)} only there" if gone else "",
            f"{_short(new)} only here" if new else "",
        ]
        return f"{key} {', '.join(p for p in parts if p)}"
    return f"{key} {_short(there)} there, {_short(here)} here"


def read_manifest(out: Path) -> dict[str, Any]:
    """An existing run folder's manifest, or one line saying why it cannot be used: not one,
    or one an older crewsim wrote (``run_format``)."""
    path = out / MANIFEST
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CrewsimError(f"{out}: not a crewsim run folder (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CrewsimError(f"{path}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise CrewsimError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(doc, dict) or "crewsim_version" not in doc:
        raise CrewsimError(f"{path}: not a crewsim run manifest")
    missing = [k for k in MANIFEST_KEYS if k not in doc]
    if missing:
        raise older_run(out, f"its manifest has no {missing[0]}")
    with malformed(path):
        check_cells(out, doc)
    return dict(doc)


@contextmanager
def malformed(path: Path) -> Iterator[None]:
    """A manifest field of the wrong shape or type, read inside: one line naming the file."""
    try:
        yield
    except CrewsimError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CrewsimError(f"{path}: malformed ({type(exc).__name__}: {exc})") from None


def check_same_configuration(out: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    """A folder made by another configuration is never mixed into: one line naming the field."""
    a, b = _identity(old), _identity(new)
    for key in IDENTITY_KEYS:
        if a[key] != b[key]:
            if key == "cells":
                what = "the mission data differ"
            elif key == "bot":
                what = "the bot crew or its parameters differ"
            elif key == "kernel_sha256":
                made = f"kernel {str(a[key])[:12]}, {str(old['created'])[:10]}"
                raise CrewsimError(
                    f"{out} was made by another simulation kernel ({made}; this one is "
                    f"{str(b[key])[:12]}): its games would not match this one's; continue it "
                    "with the crewsim that made it, or start a new run with another --out"
                )
            else:
                what = _difference(key, a[key], b[key])
            raise CrewsimError(
                f"{out} was made by another configuration ({what}); start a new run with "
                "another --out"
            )


def manifest_missions(doc: dict[str, Any], path: Path) -> tuple[Mission, ...]:
    """The run's missions as it recorded them, so a run made with ``CREWSIM_SCENARIOS`` (or
    before a scenario edit) resumes and filters the same way."""
    from crewsim.missions.loader import missions_from_records

    with malformed(path):
        records = {c["mission"]: c["mission_record"] for c in doc["cells"]}
        return missions_from_records([records[str(m)] for m in doc["missions"]], str(path))


def config_from_manifest(out: Path, **overrides: Any) -> RunConfig:
    """Rebuild a run's configuration from its folder (``--resume``); ``overrides`` win.

    Overriding what decides the numbers (seed, players, ...) is allowed here and then refused
    by ``prepare`` as "another configuration", with the field named.
    """
    from crewsim.bots import get_bot

    doc = read_manifest(out)
    missions = manifest_missions(doc, out / MANIFEST)
    with malformed(out / MANIFEST):
        bot = doc["bot"]
        bots_file = overrides.pop("bots_file", None) or bot["file"]
        config = RunConfig(
            missions=missions,
            players=tuple(int(p) for p in doc["players"]),
            games=int(doc["games_per_cell"]),
            bot=get_bot(str(bot["name"]), Path(bots_file) if bots_file else None),
            seed=int(doc["root_seed"]),
            distress=str(doc["distress"]),
            chunk_size=int(doc["chunk_size"]),
            bots_file=bots_file,
            stopping=Stopping.from_dict(doc.get("stopping")),
        )
    return replace(config, **{k: v for k, v in overrides.items() if v is not None})
