"""Records are immutable, hashable and picklable, so they can be cached and sent to workers."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from crewsim.missions import (
    OBJECTIVE_PARAMS,
    TASK_PARAMS,
    ObjectiveKind,
    Params,
    TaskKind,
    all_missions,
    get_mission,
    get_task_card,
    load_task_cards,
)


def test_params_is_an_immutable_hashable_mapping() -> None:
    p = Params({"b": 2, "a": (1, "last"), "t": Params({"3": 23})})
    assert p["a"] == (1, "last") and p.get("zzz") is None and len(p) == 3
    assert list(p) == ["a", "b", "t"]
    assert p == {"a": (1, "last"), "b": 2, "t": {"3": 23}}
    assert hash(p) == hash(Params({"t": Params({"3": 23}), "a": (1, "last"), "b": 2}))
    with pytest.raises(AttributeError):
        p.x = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        p["a"] = 1  # type: ignore[index]
    assert pickle.loads(pickle.dumps(p)) == p
    assert p.to_plain() == {"a": [1, "last"], "b": 2, "t": {"3": 23}}


def test_missions_are_frozen_hashable_and_picklable() -> None:
    missions = all_missions()
    assert len(set(missions)) == 82
    m = get_mission("pn-34")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.tasks = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(missions)) == missions
    json.dumps([x.to_dict() for x in missions])
    json.dumps([c.to_dict() for c in load_task_cards()])


def test_every_kind_has_a_param_spec() -> None:
    assert set(OBJECTIVE_PARAMS) == set(ObjectiveKind)
    assert set(TASK_PARAMS) == set(TaskKind)
    assert {c.kind for c in load_task_cards()} == set(TaskKind)  # closed set = kinds in use


def test_difficulty_for_player_counts() -> None:
    card = get_task_card(10)
    assert [card.difficulty_for(p) for p in (2, 3, 4, 5)] == [2, 2, 5, 6]
    with pytest.raises(ValueError):
        card.difficulty_for(6)
