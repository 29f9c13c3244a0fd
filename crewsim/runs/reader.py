"""A finished run folder, read back for reporting: manifest, summary, failures, optional ceiling.

Reports never re-simulate: everything they show comes from the files `crewsim simulate` wrote,
so a report can be rebuilt (or re-styled) from a run made earlier at no cost, and its stamp
(version, seed, date, bot, n) is the run's own, not the reporting machine's.  A folder an older
crewsim wrote is refused in one line (``run_format``), never converted.  The summary's failure
columns are computed from failures.parquet as it is read (``stats.with_failures``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

import polars as pl

from crewsim.cards import Game
from crewsim.errors import CrewsimError
from crewsim.runs.run_format import check_games, check_summary, with_stopped
from crewsim.runs.stats import CEILING_COLUMNS, ceiling_columns, with_failures
from crewsim.runs.stopping import Stopping

_REQUIRED = ("manifest.json", "summary.parquet", "failures.parquet")
_SUMMARY_COLUMNS = ("mission", "players", "games", "successes", "success_rate")
_FAILURE_COLUMNS = ("mission", "players", "kind", "detail", "trick", "count")
_CHUNK_INDEX = re.compile(r"-(\d+)\.parquet$")  # a chunk file's place in its cell's plan


@dataclass(frozen=True)
class MissionInfo:
    """What a report needs to know about a mission beyond its numbers."""

    id: str
    game: str  # "planet-nine" | "deep-sea"
    number: int  # logbook number: the campaign order
    description: str
    printed_difficulty: dict[int, int] = field(default_factory=dict)  # players -> printed value


@dataclass(frozen=True)
class Run:
    """One run folder, loaded: the single source every table and chart is drawn from."""

    path: Path
    manifest: dict[str, Any]
    summary: pl.DataFrame
    failures: pl.DataFrame
    missions: dict[str, MissionInfo]

    @property
    def seed(self) -> int:
        return int(self.manifest["root_seed"])

    @property
    def bot(self) -> str:
        return str(self.manifest["bot"]["name"])

    @property
    def games_per_cell(self) -> int:
        return int(self.manifest["games_per_cell"])

    @property
    def stopping(self) -> Stopping:
        """What could stop a cell before the cap (``--precision``, ``--separate``)."""
        return Stopping.from_dict(self.manifest.get("stopping"))

    @property
    def games_each(self) -> str:
        """Games per cell as a caption says them: ``20,000``, or ``up to 20,000`` when cells
        could stop early (each cell's own count is in the summary)."""
        cap = f"{self.games_per_cell:,}"
        return f"up to {cap}" if self.stopping.active else cap

    @property
    def version(self) -> str:
        return str(self.manifest["crewsim_version"])

    @property
    def created(self) -> str:
        """The run's date (UTC, from the manifest), ``YYYY-MM-DD``."""
        raw = str(self.manifest["created"])
        try:
            return datetime.fromisoformat(raw).date().isoformat()
        except ValueError:
            return raw

    @property
    def distress(self) -> str:
        return str(self.manifest["distress"])

    @property
    def players(self) -> list[int]:
        return sorted({int(p) for p in self.summary["players"].to_list()})

    def missions_of(self, game: str) -> list[str]:
        """The run's missions of one box: each box is its own campaign."""
        return [m for m, info in self.missions.items() if info.game == game]

    @property
    def games(self) -> list[str]:
        """Which boxes the run's missions come from, in first-seen order."""
        seen: list[str] = []
        for m in self.summary["mission"].unique(maintain_order=True).to_list():
            g = self.missions[m].game if m in self.missions else "?"
            if g not in seen:
                seen.append(g)
        return seen

    @property
    def total_games(self) -> int:
        return int(self.summary["games"].sum())

    def caption(self) -> str:
        """The line every chart carries, so a chart cut out of the report still says its source."""
        return (
            f"{self.games_each} games per mission and player count · bot {self.bot} · "
            f"seed {self.seed} · distress {self.distress} · crewsim {self.version} · "
            f"run {self.created}"
        )

    def number(self, mission: str) -> int:
        """Logbook number of a mission (0 when the manifest does not know it)."""
        info = self.missions.get(mission)
        return info.number if info else 0

    def game_rows(self, first: int | None = None) -> pl.LazyFrame:
        """Every game of the run (or the first ``first`` of each cell), lazily, with ``mission``
        and ``players`` from the file name and ``game``, its place in the cell: runs of the
        same seed, distress and chunk size deal game ``i`` of a cell alike, whatever the crew
        (``engine.setup``: ``deal_st``)."""
        size = int(self.manifest["chunk_size"])
        files: Path | list[Path] = self.path / "chunks" / "*.parquet"
        if first is not None:  # the chunks past the first games are not opened
            files = [
                f
                for f in sorted((self.path / "chunks").glob("*.parquet"))
                if (k := _CHUNK_INDEX.search(f.name)) and int(k[1]) * size < first
            ]
        lf = pl.scan_parquet(files, include_file_paths="file")
        chunk = pl.col("file").str.extract(_CHUNK_INDEX.pattern, 1).cast(pl.Int64)
        lf = lf.with_columns(
            pl.col("file").str.extract(r"([^/\\]+)-\d+\.parquet$", 1).alias("key"),
            (chunk * size + pl.int_range(pl.len()).over("file")).alias("game"),  # before the join
        ).join(self.key_map().lazy(), on="key", how="left")
        return lf if first is None else lf.filter(pl.col("game") < first)

    def key_map(self) -> pl.DataFrame:
        """The chunk files' cell key -> mission and players, from the manifest."""
        keys = {c["key"]: (c["mission"], int(c["players"])) for c in self.manifest["cells"]}
        return pl.DataFrame(
            {
                "key": list(keys),
                "mission": [m for m, _ in keys.values()],
                "players": [p for _, p in keys.values()],
            },
            schema={"key": pl.String, "mission": pl.String, "players": pl.Int64},
        )


def _mission_info(cell: dict[str, Any]) -> MissionInfo:
    rec = cell["mission_record"]
    printed: dict[int, int] = {}
    if rec["game"] == "deep-sea":
        value = _printed_difficulty(rec, int(cell["players"]))
        if value is not None:
            printed[int(cell["players"])] = value
    return MissionInfo(
        id=str(cell["mission"]),
        game=str(rec["game"]),
        number=int(rec["number"]),
        description=str(rec["description"]),
        printed_difficulty=printed,
    )


def _printed_difficulty(rec: dict[str, Any], players: int) -> int | None:
    """Deep Sea: the logbook's difficulty, or the printed values of its fixed task cards."""
    if int(rec["difficulty"]) > 0:
        return int(rec["difficulty"])
    fixed = [int(x) for x in rec["fixed_tasks"]]
    if not fixed:
        return None
    from crewsim.missions import load_task_cards

    cards = {c.number: c for c in load_task_cards()}
    return sum(cards[n].difficulty_for(players) for n in fixed if n in cards)


def _games_of(missions: dict[str, MissionInfo]) -> dict[str, Game]:
    """Each mission's box, which names its cards in the failure columns."""
    return {m: Game(info.game) for m, info in missions.items()}


def load_run(path: Path | str) -> Run:
    """Read a run folder; a missing or half-written folder is a one-line error, not a traceback."""
    path = Path(path)
    if not path.is_dir():
        raise CrewsimError(f"run folder {path} not found")
    for name in _REQUIRED:
        if not (path / name).exists():
            raise CrewsimError(
                f"{path}: no {name} (not a finished run folder of `crewsim simulate`)"
            )
    from crewsim.runs.folder import MANIFEST, malformed, read_manifest

    manifest = read_manifest(path)
    summary = read_table(path / "summary.parquet")
    failures = read_table(path / "failures.parquet")
    for table, name, columns in (
        (summary, "summary.parquet", _SUMMARY_COLUMNS),
        (failures, "failures.parquet", _FAILURE_COLUMNS),
    ):
        absent = [c for c in columns if c not in table.columns]
        if absent:
            _damaged(path / name, f"no column {absent[0]!r}")
    check_summary(path, summary.columns)
    summary = with_stopped(summary)
    chunks = sorted((path / "chunks").glob("*.parquet"))
    for chunk in chunks:
        _whole_parquet(chunk)
    check_games(path)
    missions: dict[str, MissionInfo] = {}
    with malformed(path / MANIFEST):  # every field the report reads, read once here
        for cell in manifest["cells"]:
            info = _mission_info(cell)
            old = missions.get(info.id)
            if old is not None:
                info.printed_difficulty.update(old.printed_difficulty)
            missions[info.id] = info
        summary = with_failures(summary, failures, _games_of(missions))
        run = Run(path, manifest, summary, failures, missions)
        run.seed, run.bot, run.games_per_cell, run.key_map()  # noqa: B018
        if int(manifest["chunk_size"]) <= 0:
            raise ValueError(f"chunk_size {manifest['chunk_size']} is not a positive count")
        if chunks:  # a run may drop its chunk files once summarised, but not some of them
            _no_missing_chunk(run, {c.name for c in chunks}, int(manifest["chunk_size"]))
    return run


def _no_missing_chunk(run: Run, present: set[str], chunk_size: int) -> None:
    """Every chunk the manifest plans is there: tables read from the games (the ceiling, the
    balance fit) would otherwise count fewer games than the summary, without a word."""
    from crewsim.runs.folder import resume_command
    from crewsim.runs.plan import chunk_file_name, n_chunks

    played = {  # a cell that stopped early (``--precision``) holds fewer games than the cap
        (m, int(p)): int(n) for m, p, n in run.summary.select("mission", "players", "games").rows()
    }
    for key, mission, players in run.key_map().rows():
        games = played.get((mission, players), run.games_per_cell)
        for k in range(n_chunks(games, chunk_size)):
            name = chunk_file_name(key, k)
            if name not in present:
                raise CrewsimError(
                    f"{run.path / 'chunks' / name}: missing; `{resume_command(run.path)}` "
                    "simulates it again"
                )


def _whole_parquet(path: Path) -> None:
    """A chunk cut short (a full disk, a copy stopped half way) or overwritten has lost the
    Parquet trailer: 4 bytes read per file, where reading every footer took ~0.15 ms."""
    try:
        with path.open("rb") as f:
            size = f.seek(0, 2)
            f.seek(max(size - 4, 0))
            tail = f.read(4)
    except OSError as exc:
        _damaged(path, exc.strerror or type(exc).__name__)
    if size < 12 or tail != b"PAR1":
        _damaged(path, "not a whole Parquet file: its end is missing")


def read_table(path: Path) -> pl.DataFrame:
    """A Parquet file of a run folder; a damaged one is a one-line error saying how to mend it."""
    try:
        return pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as exc:
        _damaged(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def _damaged(path: Path, why: str) -> NoReturn:
    """One line: which file of the run is damaged, why, and the resume that mends it."""
    from crewsim.runs.folder import resume_command

    chunk = path.parent.name == "chunks"
    folder = path.parent.parent if chunk else path.parent
    mend = "simulates it again" if chunk else "writes it again"
    raise CrewsimError(f"{path}: damaged ({why}); delete it: `{resume_command(folder)}` {mend}")


def require_games(run: Run, why: str) -> None:
    """A run may drop its chunk files once summarised; what reads each game says so in a line."""
    if not any((run.path / "chunks").glob("*.parquet")):
        raise CrewsimError(f"{run.path}: its chunk files are gone ({why}); simulate again")


def game_outcomes(run: Run, first: int | None = None) -> pl.DataFrame:
    """Each game's ``success`` by ``mission``, ``players`` and ``game`` (its place in the
    cell), the first ``first`` games of each cell (None: all), sorted: what pairs two crews'
    games deal by deal."""
    require_games(run, "each game's outcome is read")
    return (
        run.game_rows(first)
        .select("mission", "players", "game", "success")
        .sort("mission", "players", "game")
        .collect()
    )


# ---------------------------------------------------------------- the perfect-information ceiling


def ceiling(run: Run) -> pl.DataFrame | None:
    """The perfect-information ceiling per mission x players when the run has it, else None.

    `simulate --ceiling` writes its counts into the summary (``stats.ceiling_columns``); the
    shares and intervals are computed from them again here, so a report shows today's rule.
    A cell the solver could not judge (e.g. pn-12) counts no solved deal.
    """
    s = run.summary
    if "ceiling_games" not in s.columns:
        return None
    counts = ("ceiling_games", "feasible_games", "decided_games", "ceiling_wins")
    rows = []
    for r in s.select("mission", "players", *counts).iter_rows(named=True):
        solved, feasible, decided, wins = (int(r[k] or 0) for k in counts)
        rows.append(
            {"mission": r["mission"], "players": int(r["players"])}
            | ceiling_columns(solved, feasible, decided - feasible, wins)
        )
    return _ceiling_frame(rows)


def _ceiling_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    counts = ("ceiling_games", "feasible_games", "decided_games", "ceiling_wins")
    schema = {"mission": pl.String, "players": pl.Int64}
    schema |= {k: pl.Int64 if k in counts else pl.Float64 for k in CEILING_COLUMNS}
    return pl.DataFrame(rows, schema=schema)
