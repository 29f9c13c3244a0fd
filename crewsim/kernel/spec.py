"""The boundary: a Mission record and a bot become the kernel's integer and float vectors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from crewsim.cards import parse_card
from crewsim.errors import CrewsimError
from crewsim.kernel import layout as L
from crewsim.missions.schema import Mission
from crewsim.rules.order import predecessors


@dataclass(frozen=True)
class KernelMission:
    """A mission at one player count, checked for what the kernel supports."""

    mission: Mission
    players: int
    distress: str = "auto"
    # Deep Sea: play exactly these task cards (numbers 1..96) instead of the mission's draw,
    # optionally with their owners as seats counted clockwise from the captain (-1: selection)
    tasks: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()

    def vector(self) -> np.ndarray:
        m = self.mission
        if self.players not in (2, 3, 4, 5):
            raise CrewsimError(f"mission '{m.id}': players must be 2-5, got {self.players}")
        mp = np.zeros(L.MP_SIZE, dtype=np.int64)
        mp[L.MP_PLAYERS] = self.players
        mp[L.MP_NTASKS] = m.tasks
        mp[L.MP_COMM] = L.COMM_CODES[str(m.communication)]
        mp[L.MP_COMM_FROM] = m.comm_from_trick
        mp[L.MP_SILENCED] = m.silenced_member
        mp[L.MP_HANDOVER] = m.task_handover_5p
        mp[L.MP_DRAW_AFTER] = m.card_draw_after_trick
        alloc = str(m.allocation)
        deep = m.game.value == "deep-sea"
        codes = L.DS_ALLOC_CODES if deep else L.ALLOC_CODES
        if alloc not in codes:
            raise CrewsimError(f"mission '{m.id}': allocation {alloc!r} is not supported")
        mp[L.MP_ALLOC] = codes[alloc]
        if deep:
            mp[L.MP_GAME] = 1
            mp[L.MP_DIFFICULTY] = m.difficulty if m.draws_task_cards else 0
            mp[L.MP_TERRAIN] = m.unfamiliar_terrain
            mp[L.MP_NFIXED] = len(m.fixed_tasks)
            mp[L.MP_FIXED_OWNER : L.MP_FIXED_OWNER + L.MAX_FIXED] = -1
            for k, number in enumerate(m.fixed_tasks):
                mp[L.MP_FIXED + k] = number - 1
            mp[L.MP_COMM_IF_PASSED] = m.comm_before_first_trick_if_passed
            if self.tasks:
                if len(self.tasks) > L.MAX_FIXED:
                    raise CrewsimError(f"at most {L.MAX_FIXED} task cards, got {len(self.tasks)}")
                mp[L.MP_NFIXED] = len(self.tasks)
                for k, number in enumerate(self.tasks):
                    mp[L.MP_FIXED + k] = number - 1
                    mp[L.MP_FIXED_OWNER + k] = self.owners[k] if k < len(self.owners) else -1
        mp[L.MP_DISTRESS] = L.DISTRESS_CODES[self.distress]
        objs = []
        for o in m.objectives:
            kind = str(o.kind)
            if kind == "omega_last_trick":
                mp[L.MP_OMEGA_LAST] = 1
                continue
            if kind not in L.OBJ_CODES:
                raise CrewsimError(f"mission '{m.id}': objective {kind!r} is not Planet Nine's")
            objs.append(encode_objective(kind, o.params))
        if len(objs) > L.MAX_OBJ:
            raise CrewsimError(f"mission '{m.id}': at most {L.MAX_OBJ} objectives")
        mp[L.MP_NOBJ] = len(objs)
        for k, (code, a, b) in enumerate(objs):
            mp[L.MP_OBJ + 3 * k : L.MP_OBJ + 3 * k + 3] = (code, a, b)
        if m.tasks > L.MAX_TASKS:
            raise CrewsimError(f"mission '{m.id}': at most {L.MAX_TASKS} tasks")
        tokens: list[str | None] = [*m.tokens, *([None] * (m.tasks - len(m.tokens)))]
        for i, (tok, pred) in enumerate(zip(tokens, predecessors(tokens), strict=True)):
            mp[L.MP_TOKENS + i] = L.TOKEN_CODES[tok]
            mp[L.MP_PRED + i] = pred
        mp[L.MP_TOKEN_ADJUST] = L.TOKEN_ADJUST_CODES[m.token_adjust.value]
        return mp


def encode_objective(kind: str, params: Mapping[str, object]) -> tuple[int, int, int]:
    """(code, a, b): an objective kind and its parameters as the kernel's integers."""
    vals = [_param_int(params.get(p, 0)) for p in L.OBJ_PARAMS.get(kind, ())] + [0, 0]
    return L.OBJ_CODES[kind], vals[0], vals[1]


def _param_int(value: object) -> int:
    """An objective parameter as the kernel's integer: numbers, booleans, a card code (its id)
    or a list of suit names (a bitmask of suit indices)."""
    if isinstance(value, bool | int):
        return int(value)
    if isinstance(value, str):
        return parse_card(value)
    names = ("pink", "blue", "green", "yellow", "trump")
    return sum(1 << names.index(str(v)) for v in value)  # type: ignore[attr-defined,misc]
