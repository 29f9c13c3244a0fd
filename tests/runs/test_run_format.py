"""A run folder an older crewsim wrote is refused in one line naming it and saying to run it
again, wherever it is read or resumed; nothing converts it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from crewsim.bots import get_bot
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.runs.folder import config_from_manifest
from crewsim.runs.montecarlo import prepare, run
from crewsim.runs.plan import RunConfig
from crewsim.runs.reader import load_run
from crewsim.runs.run_format import SUMMARY_COLUMNS
from crewsim.runs.stats import CEILING_COLUMNS, FAILURE_COLUMNS, ceiling_columns

CONFIG = RunConfig(
    missions=tuple(resolve_missions("pn-1,ds-3")),
    players=(4,),
    games=400,
    bot=get_bot("heuristic"),
    seed=2,
    jobs=1,
    chunk_size=200,
)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("format") / "run"
    run(CONFIG, out)
    return out


@pytest.fixture
def folder(made: Path, tmp_path: Path) -> Path:
    """A private copy of today's run folder, for a test to age."""
    return Path(shutil.copytree(made, tmp_path / "run"))


def _edit_manifest(folder: Path, change: Callable[[dict], None]) -> None:
    path = folder / "manifest.json"
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def _edit_table(path: Path, change: Callable[[pl.DataFrame], pl.DataFrame]) -> None:
    change(pl.read_parquet(path)).write_parquet(path)


def _refused(folder: Path, what: str, read: Callable[[Path], object]) -> None:
    with pytest.raises(CrewsimError) as err:
        read(folder)
    message = str(err.value)
    assert message.startswith(f"{folder}: a run folder of an older crewsim ({what}")
    assert message.endswith("simulate the run again into a new --out") and "\n" not in message


def _resume(folder: Path) -> object:
    return prepare(config_from_manifest(folder), folder)


def test_todays_folder_reads_and_resumes(folder: Path) -> None:
    run = load_run(folder)
    assert list(run.summary.columns) == list(SUMMARY_COLUMNS)
    assert not _resume(folder).todo  # type: ignore[attr-defined]


def test_a_summary_with_the_failure_sentence_reads_with_the_columns(folder: Path) -> None:
    """Before the failure columns a summary stored the reasons as one sentence
    (``top_failures``): the columns are computed from failures.parquet, as for today's."""
    today = load_run(folder).summary
    _edit_table(
        folder / "summary.parquet",
        lambda s: s.drop(FAILURE_COLUMNS).with_columns(pl.lit("words").alias("top_failures")),
    )
    older = load_run(folder).summary
    assert older.columns == today.columns and older.equals(today)
    assert older["failure1_kind"].drop_nulls().len() > 0  # pn-1 and ds-3 lose games at 4 players
    assert not _resume(folder).todo  # type: ignore[attr-defined]


@pytest.mark.parametrize("read", [load_run, _resume], ids=["read", "resume"])
def test_a_manifest_without_a_key_of_todays(folder: Path, read: Callable[[Path], object]) -> None:
    _edit_manifest(folder, lambda doc: doc.pop("kernel_sha256"))
    _refused(folder, "its manifest has no kernel_sha256", read)


@pytest.mark.parametrize("read", [load_run, _resume], ids=["read", "resume"])
def test_a_manifest_naming_its_missions_by_id_only(
    folder: Path, read: Callable[[Path], object]
) -> None:
    """Older manifests named the mission ids, looked up again in today's scenario files."""

    def drop_records(doc: dict) -> None:
        for cell in doc["cells"]:
            del cell["mission_record"]

    _edit_manifest(folder, drop_records)
    _refused(folder, "its manifest names the missions without their records", read)


@pytest.mark.parametrize("read", [load_run, _resume], ids=["read", "resume"])
def test_a_summary_without_a_column_of_todays(folder: Path, read: Callable[[Path], object]) -> None:
    """Summaries written before the games won after a distress call were counted."""
    _edit_table(folder / "summary.parquet", lambda s: s.drop("distress_successes"))
    _refused(folder, "its summary has no column 'distress_successes'", read)


def test_a_summary_with_part_of_the_ceiling(folder: Path) -> None:
    """Older solvers wrote a bare ``feasible_share``; today's ceiling has all its columns."""
    _edit_table(folder / "summary.parquet", lambda s: s.with_columns(feasible_share=pl.lit(0.9)))
    _refused(folder, f"its summary's ceiling has no column {CEILING_COLUMNS[0]!r}", load_run)


@pytest.mark.parametrize("read", [load_run, _resume], ids=["read", "resume"])
def test_games_without_a_column_of_todays(folder: Path, read: Callable[[Path], object]) -> None:
    """Chunks written before the Deep Sea task cards in play were recorded."""
    for chunk in (folder / "chunks").glob("*.parquet"):
        _edit_table(chunk, lambda g: g.drop("ds_cards", "ds_owners"))
    _refused(folder, "its games (ds-3-4p-00000.parquet) have no column 'ds_cards'", read)


def test_a_ceiling_kept_in_the_summary_only_is_not_resumed(folder: Path) -> None:
    """Before ``ceiling/`` the ceiling lived in the summary alone, which a resume writes again
    without it: refused rather than lost or converted.  Read for a report, it is whole."""
    row = ceiling_columns(30, 29, 1, 25) | {"won_but_infeasible": 0}
    _edit_table(folder / "summary.parquet", lambda s: s.with_columns(**row))
    assert load_run(folder).summary["ceiling_games"].to_list() == [30, 30]
    _refused(folder, "its ceiling is in the summary only, not in ceiling/", _resume)
    assert pl.read_parquet(folder / "summary.parquet")["ceiling_games"].to_list() == [30, 30]
