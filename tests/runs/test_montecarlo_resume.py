"""Nothing lost: resume after SIGKILL, top-up with a larger n, damaged chunks, Ctrl-C.

Each test compares against an uninterrupted run in the same session, so a kernel edit made
between test sessions cannot make them disagree.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from crewsim.bots import get_bot
from crewsim.cli.output import summary_json
from crewsim.errors import CrewsimError
from crewsim.missions import resolve_missions
from crewsim.runs.montecarlo import prepare, run
from crewsim.runs.plan import RunConfig, plan

CHUNK = 500


def _config(games: int = 1600, seed: int = 4, **kw: object) -> RunConfig:
    return RunConfig(
        missions=tuple(resolve_missions("pn-2,pn-6")),
        players=(3, 5),
        games=games,
        bot=get_bot("heuristic"),
        seed=seed,
        jobs=1,
        chunk_size=CHUNK,
        **kw,  # type: ignore[arg-type]
    )


def _chunk_files(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "chunks").glob("*.parquet"))


def test_plan_is_prefix_stable_in_games() -> None:
    """Chunk k keeps its seed and size when n grows; only the old partial chunk changes."""
    small, big = plan(_config(games=1600)), plan(_config(games=2600))
    by_key = {(t.key, t.index): t for t in big}
    for t in small:
        grown = by_key[(t.key, t.index)]
        assert grown.seed == t.seed
        assert grown.games == t.games or (t.index == 3 and (t.games, grown.games) == (100, 500))


def test_rerun_reuses_every_chunk(tmp_path: Path) -> None:
    first = run(_config(), tmp_path)
    stamps = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "chunks").iterdir()}
    again = run(_config(), tmp_path)
    assert again.reused == 16 and not again.damaged
    assert_frame_equal(first.summary, again.summary)
    assert stamps == {p.name: p.stat().st_mtime_ns for p in (tmp_path / "chunks").iterdir()}


def test_top_up_recomputes_only_the_partial_last_chunk(tmp_path: Path) -> None:
    run(_config(games=1600), tmp_path / "grown")
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "grown" / "chunks").iterdir()}
    grown = run(_config(games=2600), tmp_path / "grown")
    fresh = run(_config(games=2600), tmp_path / "fresh")
    assert_frame_equal(grown.summary, fresh.summary)
    assert grown.reused == 4 * 3  # chunks 0-2 of each cell; chunk 3 (100 games) grew to 500
    after = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "grown" / "chunks").iterdir()}
    changed = sorted(n for n in before if before[n] != after[n] and n.endswith(".parquet"))
    assert changed == [f"{c}-00003.parquet" for c in ("pn-2-3p", "pn-2-5p", "pn-6-3p", "pn-6-5p")]
    assert json.loads((tmp_path / "grown" / "manifest.json").read_text())["games_per_cell"] == 2600
    with pytest.raises(CrewsimError, match="already holds 2,600 games per cell"):
        run(_config(games=1000), tmp_path / "grown")


def test_a_top_up_drops_the_old_summary_until_it_is_done(tmp_path: Path) -> None:
    """An interrupted top-up must not leave the smaller run's summary beside a manifest that
    asks for more games: a reader of summary.csv would take the old numbers for the new."""
    run(_config(games=1000), tmp_path)
    prepare(_config(games=1000), tmp_path)  # a resume of the same size keeps it
    assert (tmp_path / "summary.csv").exists()
    prepare(_config(games=2000), tmp_path)  # the top-up starts, and is stopped here
    assert not (tmp_path / "summary.csv").exists()
    assert not (tmp_path / "summary.parquet").exists()


def test_a_folder_that_is_no_run_is_never_written_into(tmp_path: Path) -> None:
    (tmp_path / "summary.csv").write_text("precious\n")
    with pytest.raises(CrewsimError, match="holds files but no manifest.json"):
        prepare(_config(games=500), tmp_path)
    assert (tmp_path / "summary.csv").read_text() == "precious\n"
    assert not (tmp_path / "chunks").exists()


@pytest.mark.parametrize(
    "damage",
    ["flip", "truncate", "garbage", "no_checksum", "wrong_checksum"],
)
def test_damaged_chunk_is_detected_and_simulated_again(tmp_path: Path, damage: str) -> None:
    good = run(_config(games=1000), tmp_path)
    chunk = tmp_path / "chunks" / "pn-6-3p-00001.parquet"
    sidecar = chunk.with_name(chunk.name + ".sha256")
    data = chunk.read_bytes()
    if damage == "flip":
        chunk.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    elif damage == "truncate":
        chunk.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        chunk.write_bytes(b"not parquet at all")
    elif damage == "no_checksum":
        sidecar.unlink()
    else:  # a valid Parquet file, but another chunk's: its bytes do not match the checksum
        other = tmp_path / "chunks" / "pn-6-3p-00000.parquet"
        chunk.write_bytes(other.read_bytes())
    redone = run(_config(games=1000), tmp_path)
    assert redone.reused == 7
    assert len(redone.damaged) == 1 and "pn-6-3p-00001.parquet" in redone.damaged[0]
    assert_frame_equal(good.summary, redone.summary)
    assert pl.read_parquet(chunk).height == 500
    assert (tmp_path / "chunks" / "pn-6-3p-00001.parquet.damaged").exists()  # kept to inspect


def test_folder_of_another_configuration_is_refused(tmp_path: Path) -> None:
    run(_config(games=500), tmp_path)
    for change, field in (
        ({"seed": 5}, "root_seed"),
        ({"distress": "never"}, "distress"),
        ({"chunk_size": 250}, "chunk_size"),
        ({"players": (3, 4)}, "players"),
        ({"bot": get_bot("random")}, "bot crew"),
    ):
        cfg = _config(games=500)
        cfg = RunConfig(**{**cfg.__dict__, **change})  # type: ignore[arg-type]
        with pytest.raises(CrewsimError, match=f"another configuration.*{field}"):
            prepare(cfg, tmp_path)
    five = tuple(resolve_missions("pn-2,pn-3,pn-4,pn-5,pn-6"))
    longer = RunConfig(**{**_config(games=500).__dict__, "missions": five})
    with pytest.raises(CrewsimError, match=r'missions \["pn-3", "pn-4", "pn-5"\] only here\)'):
        prepare(longer, tmp_path)  # a long list names what differs, not its cut start
    manifest = tmp_path / "manifest.json"
    doc = json.loads(manifest.read_text())
    manifest.write_text(json.dumps(doc | {"kernel_sha256": "0" * 64}))  # a changed kernel
    with pytest.raises(
        CrewsimError,
        match=r"another simulation kernel \(kernel 000000000000, "
        r"\d{4}-\d\d-\d\d; this one is [0-9a-f]{12}\).*"
        r"the crewsim that made it",
    ):
        prepare(_config(games=500), tmp_path)
    manifest.write_text("{ not json")
    with pytest.raises(CrewsimError, match="not valid JSON"):
        prepare(_config(games=500), tmp_path)


def _simulate_cmd(out: Path, games: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "crewsim",
        "simulate",
        "pn-2,pn-6",
        "-p",
        "3,5",
        "-n",
        str(games),
        "--seed",
        "4",
        "--jobs",
        "1",
        "--chunk-size",
        str(CHUNK),
        "--out",
        str(out),
        "--format",
        "json",
    ]


def _start_and_stop(
    out: Path,
    games: int,
    sig: int,
    cmd: list[str] | None = None,
    preexec: Callable[[], object] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Start a CLI run in a child (``simulate`` unless ``cmd``), send ``sig`` once its first
    chunk is stored.  The child starts with Ctrl-C at its default (a shell running the tests
    in the background passes it on ignored), then ``preexec`` may change that."""

    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if preexec is not None:
            preexec()

    proc = subprocess.Popen(
        cmd or _simulate_cmd(out, games),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=child,
    )
    deadline = time.monotonic() + 120  # a cold numba cache compiles for a while
    while not list((out / "chunks").glob("*.sha256")) and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


GAMES_KILLED = 20_000  # 4 cells x 40 chunks: seconds of work, the first chunk in milliseconds


def test_sigkill_part_way_then_resume_gives_the_uninterrupted_numbers(tmp_path: Path) -> None:
    reference = run(_config(games=GAMES_KILLED), tmp_path / "reference")  # also warms the cache
    out = tmp_path / "killed"
    killed = _start_and_stop(out, GAMES_KILLED, signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL
    stored = len(list((out / "chunks").glob("*.sha256")))
    assert 0 < stored < 4 * 40
    resumed = subprocess.run(
        [sys.executable, "-m", "crewsim", "simulate", "--resume", str(out), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming:" in resumed.stderr
    assert (
        json.loads(resumed.stdout)["cells"] == json.loads(summary_json(reference.summary))["cells"]
    )
    assert_frame_equal(pl.read_parquet(out / "summary.parquet"), reference.summary)
    assert not list((out / "chunks").glob(".*.tmp"))


def test_ctrl_c_stops_cleanly_with_the_resume_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(_config(games=500), tmp_path / "warm")  # numba cache warm for the child
    stopped = _start_and_stop(out, GAMES_KILLED, signal.SIGINT)
    assert stopped.returncode == 130, stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert f"resume with: crewsim simulate --resume {out}" in stopped.stderr
    assert "chunks done" in stopped.stderr
    assert not (out / "summary.parquet").exists()
    assert not list((out / "chunks").glob(".*.tmp"))


def test_ctrl_c_in_rank_also_says_how_to_resume(tmp_path: Path) -> None:
    """`rank` and `balance` play a new run as `simulate` does, Ctrl-C included (they used to
    print a bare "interrupted")."""
    out = tmp_path / "run"
    run(_config(games=500), tmp_path / "warm")  # numba cache warm for the child
    cmd = [
        sys.executable,
        "-m",
        "crewsim",
        "rank",
        "pn-2,pn-6",
        "-p",
        "3,5",
        "-n",
        "2000000",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--out",
        str(out),
    ]
    stopped = _start_and_stop(out, 0, signal.SIGINT, cmd)
    assert stopped.returncode == 130, stopped.stderr
    assert f"resume with: crewsim simulate --resume {out}" in stopped.stderr
    assert "Traceback" not in stopped.stderr


def test_sigterm_stops_a_background_job_that_ignores_ctrl_c(tmp_path: Path) -> None:
    """A script's `crewsim ... &` starts with SIGINT ignored; SIGTERM (kill, timeout, a batch
    system) must still stop it cleanly (it used to run on until kill -9)."""
    out = tmp_path / "run"
    run(_config(games=500), tmp_path / "warm")  # numba cache warm for the child
    ignore_ctrl_c = lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)  # noqa: E731
    cmd = [*_simulate_cmd(out, 400_000), "--jobs", "2"]  # the driver waits on workers
    stopped = _start_and_stop(out, 0, signal.SIGTERM, cmd, preexec=ignore_ctrl_c)
    assert stopped.returncode == 130, stopped.stderr
    assert f"resume with: crewsim simulate --resume {out}" in stopped.stderr


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_exit_when_the_run_is_killed_hard(tmp_path: Path) -> None:
    """kill -9 (the OOM killer, a batch limit) gives the run no time to stop its workers:
    they must notice and exit, not wait on their queue for ever with the kernel loaded."""
    out = tmp_path / "run"
    run(_config(games=500), tmp_path / "warm")
    cmd = [
        sys.executable,
        "-m",
        "crewsim",
        "simulate",
        "pn-2,pn-6",
        "-p",
        "3,5",
        "-n",
        "2000000",
        "--seed",
        "4",
        "--jobs",
        "2",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list((out / "chunks").glob("*.sha256")) and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = _children(proc.pid)
    assert workers, "no worker processes seen"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 30
    while any(_running(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in workers if _running(p)]


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent has yet to collect it


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_same_out_again_is_a_resume_not_a_restart(tmp_path: Path) -> None:
    """Re-running the very command with the same --out reuses the folder (no --resume)."""
    first = subprocess.run(_simulate_cmd(tmp_path, 600), capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    again = subprocess.run(_simulate_cmd(tmp_path, 600), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "resuming: 8 of 8 chunks already done, 0 to run" in again.stderr
    assert json.loads(first.stdout) == json.loads(again.stdout)


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_ctrl_c_inside_an_in_process_chunk_takes_effect_after_it() -> None:
    """Raised inside polars, a KeyboardInterrupt came out as a TypeError or twice (the run then
    ended without saying where it stood): the in-process chunk now finishes first."""
    from crewsim.runs.backends import _ctrl_c_after

    finished = []
    before = signal.getsignal(signal.SIGINT)  # ignored when the tests run in the background
    with pytest.raises(KeyboardInterrupt), _ctrl_c_after():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        finished.append(True)
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is before


def test_a_run_keeps_its_own_missions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run made with ``CREWSIM_SCENARIOS`` resumes and filters once it is unset: the
    missions come from the manifest's records, not from today's scenario folder."""
    import shutil

    from typer.testing import CliRunner

    from crewsim.cli.app import app
    from crewsim.missions import all_missions, get_mission, scenarios_dir
    from crewsim.runs.folder import config_from_manifest

    folder = tmp_path / "scen"
    shutil.copytree(scenarios_dir(), folder)
    with (folder / "planet_nine.toml").open("a") as f:
        f.write(
            '\n[[missions]]\nid = "pn-51"\nnumber = 51\ntasks = 2\ntokens = ["1"]\n'
            'description = "mine"\n'
        )
    monkeypatch.setenv("CREWSIM_SCENARIOS", str(folder))
    mine = get_mission("pn-51")
    out = tmp_path / "run"
    run(
        RunConfig(
            missions=(mine, get_mission("pn-2")),
            players=(3,),
            games=200,
            bot=get_bot("heuristic"),
            seed=1,
            jobs=1,
        ),
        out,
    )
    monkeypatch.delenv("CREWSIM_SCENARIOS")
    assert "pn-51" not in {m.id for m in all_missions()}
    assert config_from_manifest(out).missions == (mine, get_mission("pn-2"))
    result = CliRunner().invoke(app, ["rank", "pn-51", "--run", str(out), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert pl.read_csv(result.stdout.encode())["mission"].to_list() == ["pn-51"]


def test_dotfiles_and_an_empty_chunks_folder_are_no_foreign_files(tmp_path: Path) -> None:
    """A folder holding only `.DS_Store`, or the empty `chunks/` a session stopped before its
    manifest leaves, is still a place for a run."""
    (tmp_path / ".DS_Store").write_text("")
    (tmp_path / "chunks").mkdir()
    assert prepare(_config(games=500), tmp_path).todo
