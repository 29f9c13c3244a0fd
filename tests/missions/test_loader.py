"""Shipped scenario data loads and matches the reference; bad files fail with one clear line."""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest

from crewsim.cards import Game, parse_card
from crewsim.errors import CrewsimError
from crewsim.missions import (
    Allocation,
    CommMode,
    ObjectiveKind,
    TokenAdjust,
    all_missions,
    get_mission,
    get_task_card,
    load_campaign,
    load_file,
    load_scenario_file,
    load_task_cards,
    resolve_missions,
    scenarios_dir,
)
from crewsim.missions.loader import check_complete_deck

REFERENCE = Path("/work/shared/reference/deep_sea_tasks.csv")


# ---------------------------------------------------------------- shipped data


def test_every_shipped_mission_loads() -> None:
    missions = all_missions()
    assert len(missions) == 82
    assert [m.id for m in load_campaign("planet-nine")] == [f"pn-{n}" for n in range(1, 51)]
    assert [m.id for m in load_campaign(Game.DEEP_SEA)] == [f"ds-{n}" for n in range(1, 33)]
    assert all(m.number == int(m.id.split("-")[1]) for m in missions)
    assert load_campaign("deep-sea") is load_campaign(Game.DEEP_SEA)  # cached


def test_task_cards_load_with_reference_difficulties() -> None:
    cards = load_task_cards()
    assert [c.number for c in cards] == list(range(1, 97))
    assert [sum(c.difficulty_for(p) for c in cards) for p in (3, 4, 5)] == [229, 264, 297]
    expected = {
        1: (3, 2, 2),
        10: (2, 5, 6),
        32: (4, 5, 6),
        52: (4, 3, 3),
        89: (2, 3, 3),
        95: (4, 3, 3),
    }
    for number, difficulty in expected.items():
        assert get_task_card(number).difficulty == difficulty
    assert get_task_card("4x9").number == 32
    assert get_task_card(32).difficulty_for(2) == 4  # two players use the 3-player value


@pytest.mark.skipif(not REFERENCE.exists(), reason="reference table not available")
def test_task_difficulties_equal_reference_csv() -> None:
    with REFERENCE.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row, card in zip(rows, load_task_cards(), strict=True):
        assert card.number == int(row["task_no"])
        assert card.ref_id == row["ref_id"]
        assert card.kind.value == row["condition_type"]
        assert card.difficulty == tuple(int(row[f"difficulty_{p}p"]) for p in (3, 4, 5))


def test_mission_rules_spot_checks() -> None:
    pn = {m.number: m for m in load_campaign("planet-nine")}
    assert pn[7].tokens == ("omega",)
    assert pn[11].silenced_member and pn[11].tokens == ("1",)
    assert pn[12].card_draw_after_trick == 1
    assert [pn[n].comm_from_trick for n in (18, 19, 28, 30, 38)] == [2, 3, 3, 2, 3]
    assert pn[23].token_adjust is TokenAdjust.SWAP and pn[40].token_adjust is TokenAdjust.MOVE
    assert {n for n, m in pn.items() if m.allocation is Allocation.ONE_MEMBER} == {20, 27, 37}
    assert {n for n, m in pn.items() if m.allocation is Allocation.COMMANDER_DISTRIBUTES} == {
        24,
        32,
        36,
        43,
    }
    assert pn[29].communication is CommMode.DEAD_ZONE
    assert pn[26].objectives[0].params["count"] == 2
    assert pn[44].objectives[0].params == {"ordered": True}
    assert pn[48].objectives[0].kind is ObjectiveKind.OMEGA_LAST_TRICK
    assert pn[25].task_handover_5p and not pn[24].task_handover_5p
    ds = {m.number: m for m in load_campaign("deep-sea")}
    assert ds[32].fixed_tasks == (4, 39, 5, 74) and not ds[32].draws_task_cards
    assert [ds[n].communication for n in (14, 15, 16)] == [
        CommMode.DEAD_ZONE,
        CommMode.RAPTURE,
        CommMode.NONE,
    ]
    assert ds[26].difficulty == 12 and ds[26].real_time_seconds == 300
    assert ds[23].comm_from_trick == 2
    assert ds[12].objectives[0].params["suits"] == ("pink", "trump")
    assert ds[27].objectives[0].params["card"] == "yellow5"
    assert {n for n, m in ds.items() if m.unfamiliar_terrain} == set(range(20, 28))
    assert ds[10].comm_before_first_trick_if_passed
    assert all(m.tasks == 0 and not m.tokens for m in ds.values())


def test_redeal_conditions_are_card_sets() -> None:
    subs = [parse_card(f"sub{v}") for v in range(1, 5)]
    assert get_task_card(76).redeal_if == ((subs[0], subs[3]), (subs[0], subs[1], subs[2]))
    assert get_task_card(45).redeal_if == (tuple(subs[1:]),)
    assert get_task_card(92).redeal_if == ((*subs, parse_card("pink7")),)
    assert get_task_card(1).redeal_if == ()


def test_unknown_mission_id_lists_known_ids() -> None:
    with pytest.raises(
        CrewsimError,
        match=r"unknown mission id 'pn-99' \(known: pn-1\.\.pn-50, "
        r"ds-1\.\.ds-32\)",
    ):
        get_mission("pn-99")
    with pytest.raises(CrewsimError, match="unknown task card"):
        get_task_card("nope")


def test_scenarios_env_var_overrides_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREWSIM_SCENARIOS", str(tmp_path / "missing"))
    with pytest.raises(CrewsimError, match="CREWSIM_SCENARIOS"):
        load_campaign("planet-nine")


def test_an_installed_crewsim_carries_its_scenarios_and_every_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pip install`` (not editable) puts ``scenarios/`` in the package as data, wherever the
    install scheme puts packages; the package list must name every package of the code."""
    import tomllib

    import crewsim.missions as missions

    root = Path(missions.__file__).resolve().parents[2]
    tool = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    code = {".".join(p.parent.relative_to(root).parts) for p in root.glob("crewsim/**/__init__.py")}
    assert set(tool["packages"]) == code | {"crewsim.scenarios"}
    assert tool["package-dir"] == {"crewsim.scenarios": "scenarios"}
    shipped = {
        p.name
        for g in tool["package-data"]["crewsim.scenarios"]
        for p in (root / "scenarios").glob(g)
    }
    assert shipped == {p.name for p in (root / "scenarios").iterdir()}
    installed = tmp_path / "site" / "crewsim"  # a wheel's layout, no checkout around it
    (installed / "scenarios").mkdir(parents=True)
    monkeypatch.delenv("CREWSIM_SCENARIOS", raising=False)
    monkeypatch.setattr(missions, "__file__", str(installed / "missions" / "__init__.py"))
    assert scenarios_dir() == installed / "scenarios"


def test_a_scenario_folder_needs_every_task_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's tables hold one row per card: a gap would shift every card after it."""
    folder = tmp_path / "scen"
    shutil.copytree(scenarios_dir(), folder)
    tasks = folder / "deep_sea_tasks.toml"
    blocks = tasks.read_text().split("[[task_cards]]")
    tasks.write_text("[[task_cards]]".join(b for b in blocks if "\nnumber = 2\n" not in b))
    monkeypatch.setenv("CREWSIM_SCENARIOS", str(folder))
    with pytest.raises(CrewsimError, match="task card 2: missing"):
        load_task_cards()
    with pytest.raises(CrewsimError, match="task card 2: missing"):
        check_complete_deck(load_file(tasks), str(tasks))  # type: ignore[arg-type]


def test_each_game_allows_the_allocations_its_kernel_plays() -> None:
    """``validate`` must refuse what ``simulate`` cannot play, not pass it."""
    from crewsim.kernel.layout import ALLOC_CODES, DS_ALLOC_CODES
    from crewsim.missions.schema import DEEP_SEA_ALLOCATIONS, PLANET_NINE_ALLOCATIONS

    assert {a.value for a in PLANET_NINE_ALLOCATIONS} == set(ALLOC_CODES)
    assert {a.value for a in DEEP_SEA_ALLOCATIONS} == set(DS_ALLOC_CODES)


def test_an_id_in_both_campaign_files_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lookup takes the first match: ds-1 added to planet_nine.toml played as Planet Nine."""
    folder = tmp_path / "scen"
    shutil.copytree(scenarios_dir(), folder)
    with (folder / "planet_nine.toml").open("a") as f:
        f.write('\n[[missions]]\nid = "ds-1"\nnumber = 60\ntasks = 2\ndescription = "x"\n')
    monkeypatch.setenv("CREWSIM_SCENARIOS", str(folder))
    with pytest.raises(
        CrewsimError,
        match=r"deep_sea.toml: mission 'ds-1': field 'id': already "
        r"a mission of .*planet_nine.toml",
    ):
        get_mission("ds-1")


# ---------------------------------------------------------------- resolve_missions


@pytest.mark.parametrize(
    ("spec", "ids"),
    [
        ("pn-1", ["pn-1"]),
        ("PN-1", ["pn-1"]),
        ("pn-1..3", ["pn-1", "pn-2", "pn-3"]),
        ("pn-3,pn-7", ["pn-3", "pn-7"]),
        ("ds-30..ds-32", ["ds-30", "ds-31", "ds-32"]),
        ("pn-2..3, pn-2 ,ds-1", ["pn-2", "pn-3", "ds-1"]),
        ("pn-5..5", ["pn-5"]),
    ],
)
def test_resolve_missions(spec: str, ids: list[str]) -> None:
    assert [m.id for m in resolve_missions(spec)] == ids


def test_resolve_groups() -> None:
    assert len(resolve_missions("planet-nine")) == 50
    assert len(resolve_missions("deep-sea")) == 32
    assert len(resolve_missions("ds-1..32")) == 32
    assert len(resolve_missions("planet-nine,deep-sea")) == 82


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty mission list"),
        ("  ", "empty mission list"),
        ("pn-1,,pn-2", "empty item"),
        ("pn-10..1", "reversed mission range 'pn-10..1'"),
        ("pn-99", "unknown mission id 'pn-99'"),
        ("pn-48..52", "unknown mission id 'pn-51'"),
        ("pn-1..ds-3", "both ends need the prefix"),
        ("pn-1..", "bad mission range"),
        ("moon", "unknown mission id 'moon'"),
    ],
)
def test_resolve_errors(spec: str, message: str) -> None:
    with pytest.raises(CrewsimError, match=message):
        resolve_missions(spec)


def test_resolve_against_custom_pool(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(_missions(*[f'id = "x-{n}"\nnumber = {n}\ntasks = 1' for n in (1, 2, 3)]))
    pool = load_scenario_file(path)
    assert [m.id for m in resolve_missions("x-2..3", pool)] == ["x-2", "x-3"]


# ---------------------------------------------------------------- custom files


def _missions(*bodies: str, game: str = "planet-nine") -> str:
    records = "\n".join(f'[[missions]]\n{b}\ndescription = "test"\n' for b in bodies)
    return f'game = "{game}"\n\n{records}'


def test_custom_file_defaults_and_yaml(tmp_path: Path) -> None:
    toml = tmp_path / "a.toml"
    toml.write_text(_missions('id = "easy"\nnumber = 1\ntasks = 2\ntokens = ["Ω"]'))
    (m,) = load_scenario_file(toml)
    assert m.tokens == ("omega",) and m.communication is CommMode.NORMAL
    pytest.importorskip("yaml")
    yml = tmp_path / "b.yaml"
    yml.write_text(
        "missions:\n  - id: deep-1\n    game: deep-sea\n    number: 1\n    difficulty: 5\n"
        "    description: five\n    objectives:\n      - kind: no_lead_suits\n"
        "        suits: [pink]\n"
    )
    (d,) = load_scenario_file(yml)
    assert d.draws_task_cards and d.difficulty == 5 and d.objectives[0].params["suits"] == ("pink",)


def test_task_card_file_roundtrip(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(
        _task_card(
            'number = 7\nref_id = "x"\ndifficulty = [1, 2, 3]\n'
            'kind = "win_cards"\nparams = { cards = ["R4", "p7"] }'
        )
    )
    (card,) = load_task_cards(path)
    assert card.params["cards"] == ("sub4", "pink7")  # canonical card codes
    assert card.difficulty_for(5) == 3
    assert isinstance(load_file(path)[0], type(card))


def _task_card(body: str) -> str:
    return f'[[task_cards]]\n{body}\ntext = "I will"\n'


GOOD = 'id = "m-1"\nnumber = 1\ntasks = 3'
BAD_CASES = [
    # (name, file name, content, words the one-line error must contain)
    (
        "wrong type",
        "m.toml",
        _missions('id = "m-1"\nnumber = 1\ntasks = "ten"'),
        ["mission 'm-1'", "field 'tasks'", "expected a whole number from 0 to 12, got 'ten'"],
    ),
    (
        "wrong bool",
        "m.toml",
        _missions(GOOD + '\nsilenced_member = "yes"'),
        ["mission 'm-1'", "field 'silenced_member'", "true or false"],
    ),
    (
        "typo key",
        "m.toml",
        _missions(GOOD + "\ntaks = 3"),
        ["mission 'm-1'", "field 'taks'", "unknown field"],
    ),
    (
        "bad enum",
        "m.toml",
        _missions(GOOD + '\ncommunication = "radio"'),
        ["field 'communication'", "one of normal, dead_zone, rapture, none"],
    ),
    (
        "unknown objective kind",
        "m.toml",
        _missions(GOOD + '\nobjectives = [{ kind = "fly" }]'),
        ["mission 'm-1'", "field 'objectives[1].kind'", "unknown objective kind 'fly'"],
    ),
    (
        "unknown objective param",
        "m.toml",
        _missions(GOOD + '\nobjectives = [{ kind = "no_win_with_rank", rnk = 9 }]'),
        ["field 'objectives[1].rnk'", "unknown parameter"],
    ),
    (
        "missing objective param",
        "m.toml",
        _missions(GOOD + '\nobjectives = [{ kind = "no_win_with_rank" }]'),
        ["field 'objectives[1].rank'", "required"],
    ),
    (
        "token out of range",
        "m.toml",
        _missions(GOOD + '\ntokens = ["6"]'),
        ["field 'tokens'", "got '6'"],
    ),
    (
        "duplicate token",
        "m.toml",
        _missions(GOOD + '\ntokens = ["1", "1"]'),
        ["field 'tokens'", "'1' appears twice"],
    ),
    (
        "more tokens than tasks",
        "m.toml",
        _missions('id = "m-1"\nnumber = 1\ntasks = 1\ntokens = ["1", "2"]'),
        ["field 'tokens'", "2 tokens but only 1 tasks"],
    ),
    (
        "duplicate id",
        "m.toml",
        _missions(GOOD, GOOD),
        ["mission 'm-1'", "field 'id'", "duplicate mission id"],
    ),
    (
        "allocation of the other game",
        "m.toml",
        _missions(GOOD + '\nallocation = "free_selection"'),
        ["field 'allocation'", "'free_selection' is not a planet-nine allocation"],
    ),
    (
        "Deep Sea field on Planet Nine",
        "m.toml",
        _missions(GOOD + "\nunfamiliar_terrain = true"),
        ["field 'unfamiliar_terrain'", "not used by planet-nine missions"],
    ),
    (
        "omega objective on Deep Sea",
        "m.toml",
        _missions(
            'id = "m-1"\nnumber = 1\nobjectives = [{ kind = "omega_last_trick" }]', game="deep-sea"
        ),
        ["field 'objectives'", "Deep Sea has none"],
    ),
    (
        "swap with one token",
        "m.toml",
        _missions(GOOD + '\ntokens = ["1"]\ntoken_adjust = "swap"'),
        ["field 'token_adjust'", "needs two tokens"],
    ),
    (
        "move with every task tokened",
        "m.toml",
        _missions(GOOD + '\ntokens = ["1", "2", "3"]\ntoken_adjust = "move"'),
        ["field 'token_adjust'", "a task without one"],
    ),
    (
        "silenced without communication",
        "m.toml",
        _missions(GOOD + '\ncommunication = "none"\nsilenced_member = true'),
        ["field 'silenced_member'", "no effect"],
    ),
    (
        "communication rule without passing",
        "m.toml",
        _missions(
            'id = "m-1"\nnumber = 1\ndifficulty = 4\ncomm_before_first_trick_if_passed = true',
            game="deep-sea",
        ),
        ["field 'comm_before_first_trick_if_passed'", "captain_all_or_pass"],
    ),
    (
        "every suit forbidden",
        "m.toml",
        _missions(
            'id = "m-1"\nnumber = 1\nobjectives = [{ kind = "no_lead_suits", suits = '
            '["pink", "blue", "green", "yellow", "trump"] }]',
            game="deep-sea",
        ),
        ["field 'objectives[1].suits'", "no trick could be led"],
    ),
    (
        "duplicate number",
        "m.toml",
        _missions(GOOD, GOOD.replace("m-1", "m-2")),
        ["mission 'm-2'", "field 'number'", "planet-nine mission 1 is already 'm-1'"],
    ),
    (
        "bad id",
        "m.toml",
        _missions('id = "M 1"\nnumber = 1\ntasks = 1'),
        ["mission #1", "field 'id'"],
    ),
    (
        "missing field",
        "m.toml",
        'game = "planet-nine"\n[[missions]]\nid = "m-1"\nnumber = 1\n',
        ["mission 'm-1'", "field 'description'", "missing"],
    ),
    (
        "unknown card code",
        "m.toml",
        _missions(
            GOOD + '\nobjectives = [{ kind = "card_last_in_final_trick", card = "purple5" }]'
        ),
        ["field 'objectives[1].card'", "unknown card code 'purple5'"],
    ),
    (
        "difficulty out of range",
        "m.toml",
        _missions('id = "d-1"\nnumber = 1\ndifficulty = 31', game="deep-sea"),
        ["mission 'd-1'", "field 'difficulty'", "from 0 to 30, got 31"],
    ),
    (
        "tasks in deep sea",
        "m.toml",
        _missions('id = "d-1"\nnumber = 1\ntasks = 3', game="deep-sea"),
        ["mission 'd-1'", "field 'tasks'", "not used by deep-sea missions"],
    ),
    (
        "nothing to do",
        "m.toml",
        _missions('id = "m-1"\nnumber = 1'),
        ["mission 'm-1'", "field 'tasks'", "nothing to do"],
    ),
    (
        "unknown game",
        "m.toml",
        _missions(GOOD, game="moon"),
        ["field 'game'", "one of planet-nine, deep-sea"],
    ),
    (
        "unknown task kind",
        "t.toml",
        _task_card('number = 1\nref_id = "a"\ndifficulty = [1, 1, 1]\nkind = "win_everything"'),
        ["task card 1", "field 'kind'", "unknown task kind 'win_everything'"],
    ),
    (
        "task difficulty not positive",
        "t.toml",
        _task_card('number = 1\nref_id = "a"\ndifficulty = [0, 1, 1]\nkind = "win_no_submarines"'),
        ["task card 1", "field 'difficulty[1]'", "from 1 to 20, got 0"],
    ),
    (
        "task unknown card",
        "t.toml",
        _task_card(
            'number = 1\nref_id = "a"\ndifficulty = [1, 1, 1]\nkind = "win_cards"\n'
            'params = { cards = ["pink10"] }'
        ),
        ["task card 1", "field 'params.cards[1]'", "unknown card code 'pink10'"],
    ),
    (
        "task bad colour",
        "t.toml",
        _task_card(
            'number = 1\nref_id = "a"\ndifficulty = [1, 1, 1]\nkind = "win_no_color"\n'
            'params = { colors = ["red"] }'
        ),
        ["field 'params.colors[1]'", "one of pink, blue, green, yellow"],
    ),
    (
        "duplicate task number",
        "t.toml",
        _task_card('number = 1\nref_id = "a"\ndifficulty = [1, 1, 1]\nkind = "win_no_submarines"')
        + _task_card(
            'number = 1\nref_id = "b"\ndifficulty = [1, 1, 1]\nkind = "win_no_submarines"'
        ),
        ["task card 1", "field 'number'", "duplicate"],
    ),
    # counts past what a hand can hold: validate said ok, and a later command divided by zero
    (
        "task count out of range",
        "t.toml",
        _task_card(
            'number = 1\nref_id = "a"\ndifficulty = [1, 1, 1]\n'
            'kind = "never_win_consecutive_tricks"\nparams = { n = 0 }'
        ),
        ["task card 1", "field 'params.n'", "from 2 to 14, got 0"],
    ),
    (
        "objective count out of range",
        "m.toml",
        _missions(GOOD + '\nobjectives = [{ kind = "colour_ones_win", count = 99 }]'),
        ["field 'objectives[1].count'", "from 1 to 4, got 99"],
    ),
    (
        "too many fixed task cards",
        "m.toml",
        _missions(
            'id = "d-1"\nnumber = 1\nfixed_tasks = [1, 2, 3, 4, 5, 6, 7, 8, 9]', game="deep-sea"
        ),
        ["mission 'd-1'", "field 'fixed_tasks'", "at most 8 task cards, got 9"],
    ),
    (
        "invalid TOML",
        "m.toml",
        'game = "planet-nine"\n[[missions]\nid = 1\n',
        ["not valid TOML", "line 2"],
    ),
    ("not TOML or YAML", "m.txt", "hello", ["not a TOML or YAML scenario file"]),
    ("empty file", "m.toml", "", ["exactly one top-level list"]),
    (
        "unknown top-level key",
        "m.toml",
        'gmae = "deep-sea"\n' + _missions(GOOD),
        ["unknown top-level key 'gmae'"],
    ),
]


@pytest.mark.parametrize(
    ("name", "filename", "content", "words"), BAD_CASES, ids=[c[0] for c in BAD_CASES]
)
def test_malformed_file_gives_one_line(
    tmp_path: Path, name: str, filename: str, content: str, words: list[str]
) -> None:
    path = tmp_path / filename
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CrewsimError) as info:
        load_file(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    for word in words:
        assert word in message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CrewsimError, match=r"nope\.toml: no such file"):
        load_scenario_file(tmp_path / "nope.toml")


def test_invalid_yaml_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = tmp_path / "bad.yml"
    path.write_text("missions: [\n  - id: a\n")
    with pytest.raises(CrewsimError, match="not valid YAML") as info:
        load_file(path)
    assert "\n" not in str(info.value)


def test_yaml_without_pyyaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("missions: []\n")
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(CrewsimError, match="need PyYAML"):
        load_file(path)


def test_wrong_kind_of_file() -> None:
    from crewsim.missions import scenarios_dir

    with pytest.raises(CrewsimError, match="holds task cards, not missions"):
        load_scenario_file(scenarios_dir() / "deep_sea_tasks.toml")
    with pytest.raises(CrewsimError, match="holds missions, not task cards"):
        load_task_cards(scenarios_dir() / "deep_sea.toml")


def test_the_loaders_limits_are_the_kernels_rows() -> None:
    """The loader keeps numba out (the referee needs no kernel), so it restates the kernel's
    row counts: a mission the loader accepts must fit the kernel's rows."""
    from crewsim.kernel import layout
    from crewsim.missions import loader

    assert loader.MAX_TASKS == layout.MAX_TASKS
    assert loader.MAX_FIXED_TASKS == layout.MAX_FIXED
