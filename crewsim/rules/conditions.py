"""Deep Sea task conditions: one readable judge per condition kind of the 96 task cards.

This module is the referee (oracle) side; the numba kernel mirrors it judge by judge, so every
judge states exactly when it answers DONE and when FAILED.  Shared conventions (rules 15-19 of
the reference README):

* A judge looks at a frozen :class:`TaskSnapshot` taken **between tricks, after trick 1 or
  later** (the distress signal happens before trick 1, so from then on hands only shrink) and
  answers ``PENDING``, ``DONE`` (met and can no longer fail, whatever happens next) or
  ``FAILED`` (can no longer be met).  Judges are pure functions of the snapshot and monotone:
  once DONE or FAILED, a later snapshot of the same hand gives the same answer.
* The mission's result depends only on what is true at the end of the hand; an early DONE or
  FAILED only moves *when* it is decided.  So the early rules below are deliberately simple,
  sound counting facts ("not enough such cards left", "the captain cannot catch up"), never
  deductions about what a particular hand will be forced to play.  The kernel must use the same
  facts so that both sides decide on the same trick.
* "Live" cards are cards still in some hand while tricks remain.  At the end of the hand no
  card is live: with 3 players the unplayed 14th card counts as never won by anybody.
* "exactly" / "no more than" / "never" conditions are DONE only at the end of the hand, unless
  the counted cards are all gone (then the count can no longer change) or, for "never" tasks,
  the owner can provably no longer break them (stated per judge).  "at least" may be exceeded.
  "in a row" means consecutive tricks of the hand.
* Colour-rank conditions (``color_cards_only``) count only the four colours' cards: the
  submarines (ids 36-39) are never "a 2" or "a 4".  Tricks judged by their card values
  (parity, all greater/less, sums) must contain no submarine when ``no_submarines`` is set.
* "Everyone else" / "each other player" is every other seat, the 2-player dummy included (the
  rulebook makes it a third crew member; its tricks are real tricks).
* Prediction tasks read the owner's number from ``TaskSnapshot.predicted``; it must have been
  fixed before the first trick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from crewsim.cards import (
    COLOUR_MASK,
    COLOUR_NAMES,
    N_COLOURS,
    SUIT_MASK,
    TRUMP_MASK,
    card_id,
    iter_cards,
    parse_card,
    popcount,
    value_of,
)
from crewsim.missions.schema import TaskCard, TaskKind
from crewsim.rules.objectives import Verdict
from crewsim.rules.play import trick_winner

PENDING, DONE, FAILED = Verdict.PENDING, Verdict.DONE, Verdict.FAILED


# ---------------------------------------------------------------- the snapshot


@dataclass(frozen=True)
class TaskSnapshot:
    """The hand so far as one task's judge sees it (immutable, so judges cannot change it).

    Seats are numbered clockwise; with 2 players seat 2 is the dummy and ``hands[2]`` includes
    its still-covered cards.  ``won[s]`` is the mask of all cards in the tricks seat ``s`` won.
    """

    tricks: tuple[tuple[int, ...], ...]  # cards of each finished trick, in play order
    leaders: tuple[int, ...]  # seat that led each trick (trick[0] is the leader's card)
    winners: tuple[int, ...]  # seat that won each trick
    winning_cards: tuple[int, ...]  # the card that won each trick (always the winner's card)
    won: tuple[int, ...]  # mask of cards won so far, per seat
    hands: tuple[int, ...]  # mask of cards not yet played, per seat
    n_tricks: int  # tricks in the whole hand (13 / 13 / 10 / 8 for 2 / 3 / 4 / 5 players)
    captain: int  # seat holding submarine 4
    players: int  # 2-5 (2 = two humans plus the dummy seat)
    owner: int = 0  # seat that holds the task being judged
    predicted: int | None = None  # the owner's announced trick count (prediction tasks only)

    @classmethod
    def from_play(
        cls,
        tricks: Sequence[Sequence[int]],
        leaders: Sequence[int],
        hands: Sequence[int],
        n_tricks: int,
        captain: int,
        players: int,
        owner: int = 0,
        predicted: int | None = None,
    ) -> TaskSnapshot:
        """Build a snapshot from the raw trick record, working out winners and won cards."""
        seats = len(hands)
        winners: list[int] = []
        winning: list[int] = []
        won = [0] * seats
        for trick, leader in zip(tricks, leaders, strict=True):
            seat, card = trick_winner(trick, leader, seats)
            winners.append(seat)
            winning.append(card)
            for c in trick:
                won[seat] |= 1 << c
        return cls(
            tricks=tuple(tuple(t) for t in tricks),
            leaders=tuple(leaders),
            winners=tuple(winners),
            winning_cards=tuple(winning),
            won=tuple(won),
            hands=tuple(hands),
            n_tricks=n_tricks,
            captain=captain,
            players=players,
            owner=owner,
            predicted=predicted,
        )

    def for_owner(self, owner: int, predicted: int | None = None) -> TaskSnapshot:
        """The same hand seen for another task holder (one snapshot per trick, many tasks)."""
        return replace(self, owner=owner, predicted=predicted)

    # ---- derived facts used by several judges
    @property
    def seats(self) -> int:
        """Cards per trick (the dummy plays too, so 3 with 2 players)."""
        return len(self.hands)

    @property
    def played(self) -> int:
        return len(self.winners)

    @property
    def remaining(self) -> int:
        return self.n_tricks - self.played

    @property
    def over(self) -> bool:
        return self.played >= self.n_tricks

    @property
    def live(self) -> int:
        """Cards that may still be won: those in hands while tricks remain, none at the end."""
        if self.over:
            return 0
        m = 0
        for h in self.hands:
            m |= h
        return m

    @property
    def mine(self) -> int:
        """Cards the owner has won."""
        return self.won[self.owner]

    @property
    def owner_hand(self) -> int:
        return self.hands[self.owner]

    def wins_of(self, seat: int) -> int:
        return self.winners.count(seat)

    @property
    def owner_wins(self) -> int:
        return self.winners.count(self.owner)

    def owner_won_tricks(self) -> Iterable[int]:
        """Indices (0-based) of the tricks the owner won."""
        return (t for t, w in enumerate(self.winners) if w == self.owner)

    @property
    def longest_run(self) -> int:
        """Longest streak of consecutive tricks won by the owner so far."""
        best = run = 0
        for w in self.winners:
            run = run + 1 if w == self.owner else 0
            best = max(best, run)
        return best

    @property
    def trailing_run(self) -> int:
        """Streak of the owner ending at the latest trick (0 if someone else won it)."""
        run = 0
        for w in reversed(self.winners):
            if w != self.owner:
                break
            run += 1
        return run

    def trick_index(self, ref: object) -> int:
        """0-based trick index of a card's trick reference: 1-based number, "first" or "last"."""
        if ref == "first":
            return 0
        if ref == "last":
            return self.n_tricks - 1
        if isinstance(ref, int) and not isinstance(ref, bool):
            return ref - 1
        raise ValueError(f"not a trick reference: {ref!r}")


Judge = Callable[[TaskSnapshot, Mapping[str, Any]], Verdict]
"""A condition judge: (snapshot, the card's params) -> PENDING / DONE / FAILED."""


# ---------------------------------------------------------------- masks and small helpers


def colour_mask(names: Iterable[str]) -> int:
    """Mask of every card of the named colours (never submarines)."""
    m = 0
    for name in names:
        m |= int(SUIT_MASK[COLOUR_NAMES.index(name)])
    return m


@lru_cache(maxsize=64)
def rank_mask(ranks: tuple[int, ...], colour_only: bool = True) -> int:
    """Mask of the cards of these values; submarines of the value only if not ``colour_only``."""
    m = 0
    for r in ranks:
        for s in range(N_COLOURS):
            m |= 1 << card_id(s, r)
        if not colour_only and r <= 4:
            m |= 1 << (35 + r)
    return m


@lru_cache(maxsize=256)
def cards_mask(codes: tuple[str, ...]) -> int:
    """Mask of cards named by code (``pink7``, ``sub3``)."""
    m = 0
    for code in codes:
        m |= 1 << parse_card(code)
    return m


def _value_mask(keep: Callable[[int], bool], subs: bool) -> int:
    """Cards whose value passes ``keep``: colour cards, and submarines when ``subs``."""
    pool = COLOUR_MASK | (TRUMP_MASK if subs else 0)
    return sum(1 << c for c in iter_cards(pool) if keep(value_of(c)))


def _exactly(now: int, more: int, n: int) -> Verdict:
    """Exactly ``n``: ``now`` so far, at most ``more`` still to come (0 = settled for good)."""
    if now > n or now + more < n:
        return FAILED
    return DONE if more == 0 else PENDING


def _at_least(now: int, more: int, n: int) -> Verdict:
    """At least ``n`` (may be exceeded): DONE on reaching it, FAILED once out of reach."""
    if now >= n:
        return DONE
    return FAILED if now + more < n else PENDING


def _none_of(s: TaskSnapshot, mask: int) -> Verdict:
    """Win none of ``mask``: FAILED on the first one won; DONE once none is live (or at end)."""
    if s.mine & mask:
        return FAILED
    return PENDING if s.live & mask else DONE


def _won_trick_where(s: TaskSnapshot, ok: Callable[[int], bool]) -> bool:
    """True if the owner won some trick ``t`` with ``ok(t)``."""
    return any(ok(t) for t in s.owner_won_tricks())


def _has_sub(trick: Sequence[int]) -> bool:
    return any(c >= 36 for c in trick)


# ---------------------------------------------------------------- trick-pattern judges


def never_win_consecutive_tricks(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Never win ``n`` tricks in a row.

    FAILED as soon as the owner's streak reaches ``n``.  DONE at the end, or earlier once the
    current streak plus all remaining tricks is shorter than ``n`` (no run of ``n`` can form).
    """
    n = p["n"]
    if s.longest_run >= n:
        return FAILED
    return DONE if s.trailing_run + s.remaining < n else PENDING


def win_consecutive_tricks_at_least(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win ``n`` tricks in a row (a longer streak or further wins are fine).

    DONE once a streak of ``n`` exists.  FAILED once the current streak plus the remaining
    tricks cannot reach ``n``.
    """
    n = p["n"]
    if s.longest_run >= n:
        return DONE
    return FAILED if s.trailing_run + s.remaining < n else PENDING


def win_exactly_n_consecutive_tricks(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win exactly ``n`` tricks in the hand, and they form one unbroken streak.

    FAILED when the owner has won more than ``n``; when the wins so far are not one block;
    when the block is closed (someone else won the latest trick) while shorter than ``n``; when
    an open block (or no win yet) cannot reach ``n`` in the remaining tricks.  DONE only at the
    end of the hand (another win would break "exactly").
    """
    n = p["n"]
    mine = list(s.owner_won_tricks())
    if len(mine) > n:
        return FAILED
    if mine:
        if mine[-1] - mine[0] + 1 != len(mine):
            return FAILED
        open_block = mine[-1] == s.played - 1
        if not open_block and len(mine) < n:
            return FAILED
        if open_block and len(mine) + s.remaining < n:
            return FAILED
    elif s.remaining < n:
        return FAILED
    return DONE if s.over else PENDING


def win_exactly_n_tricks(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win exactly ``n`` tricks: FAILED when over ``n`` or out of reach; DONE at the end only."""
    return _exactly(s.owner_wins, s.remaining, p["n"])


def win_predicted_trick_count(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win exactly the X tricks announced before trick 1 (secret or public: same judge).

    Same as ``win_exactly_n_tricks`` with n = ``s.predicted``; a missing prediction is a
    set-up error, not a failed task.
    """
    if s.predicted is None:
        raise ValueError("a prediction task needs its number fixed before the first trick")
    return _exactly(s.owner_wins, s.remaining, s.predicted)


def win_none_of_first_n_tricks(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win none of the first ``n`` tricks: FAILED on winning one; DONE once they are played."""
    n = min(p["n"], s.n_tricks)
    if s.owner in s.winners[:n]:
        return FAILED
    return DONE if s.played >= n else PENDING


def win_tricks(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win every listed trick (other wins are fine).

    FAILED as soon as a listed trick is won by someone else (or names a trick this hand does
    not have); DONE once every listed trick is played and won by the owner.
    """
    wanted = [s.trick_index(r) for r in p["tricks"]]
    if any(t >= s.n_tricks for t in wanted):
        return FAILED
    if any(t < s.played and s.winners[t] != s.owner for t in wanted):
        return FAILED
    return DONE if all(t < s.played for t in wanted) else PENDING


def win_only_tricks(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win the listed tricks and no other ("only the first", "only the last").

    FAILED as soon as a listed trick is lost or an unlisted one is won; DONE at the end only.
    """
    wanted = {s.trick_index(r) for r in p["tricks"]}
    if any(t >= s.n_tricks for t in wanted):
        return FAILED
    for t, w in enumerate(s.winners):
        if (t in wanted) != (w == s.owner):
            return FAILED
    return DONE if s.over else PENDING


def never_lead_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Never open a trick with a card of the listed colours (submarine leads are fine).

    FAILED as soon as the owner leads such a card.  DONE at the end, or earlier once the
    owner's hand holds no card of those colours (hands only shrink after trick 1).
    """
    mask = colour_mask(p["colors"])
    for trick, leader in zip(s.tricks, s.leaders, strict=True):
        if leader == s.owner and mask >> trick[0] & 1:
            return FAILED
    return DONE if s.over or not s.owner_hand & mask else PENDING


# ---------------------------------------------------------------- trick-count comparisons


def compare_tricks_vs_each_other_player(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win strictly fewer ("fewer") / strictly more ("more") tricks than every other seat.

    Judged on the final counts; other seats include the 2-player dummy.  With o = owner's
    wins, w = another seat's wins, r = tricks left:
    * fewer: FAILED when the others together would need more than r extra tricks to all get
      above o (sum of max(0, o + 1 - w) > r); DONE when o + r < w for every other seat.
    * more: FAILED when some seat has w >= o + r; DONE when o > max(w) + r.
    """
    o, r = s.owner_wins, s.remaining
    others = [s.wins_of(seat) for seat in range(s.seats) if seat != s.owner]
    if p["op"] == "fewer":
        if sum(max(0, o + 1 - w) for w in others) > r:
            return FAILED
        return DONE if all(o + r < w for w in others) else PENDING
    if any(w >= o + r for w in others):
        return FAILED
    return DONE if o > max(others) + r else PENDING


def win_more_tricks_than_others_combined(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win more tricks than all other seats together: more than half of the hand's tricks.

    DONE once 2 * wins > n_tricks; FAILED once the others hold at least half (13 tricks with
    3 players, so 7 are needed; 10 -> 6; 8 -> 5).
    """
    o = s.owner_wins
    if 2 * o > s.n_tricks:
        return DONE
    return FAILED if 2 * (s.played - o) >= s.n_tricks else PENDING


def compare_tricks_vs_captain(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win as many ("equal") / fewer / more tricks than the captain, on the final counts.

    With o = owner's wins, c = captain's wins, r = tricks left:
    * more:  FAILED when c >= o + r; DONE when o > c + r (the captain cannot catch up even by
      winning every remaining trick) - so "more than the captain" can be DONE before the end.
    * fewer: FAILED when o >= c + r; DONE when o + r < c.
    * equal: FAILED when |o - c| > r; DONE only at the end.
    The captain may never hold these cards; if one does anyway the task is FAILED (not an
    exception, so a bad assignment shows up as a failed mission instead of a crash).
    """
    if s.owner == s.captain:
        return FAILED
    o, c, r = s.owner_wins, s.wins_of(s.captain), s.remaining
    op = p["op"]
    if op == "more":
        if c >= o + r:
            return FAILED
        return DONE if o > c + r else PENDING
    if op == "fewer":
        if o >= c + r:
            return FAILED
        return DONE if o + r < c else PENDING
    if abs(o - c) > r:
        return FAILED
    return DONE if s.over else PENDING


# ---------------------------------------------------------------- winning a trick with a card


def win_trick_with_rank(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick "using a 2": the trick's winning card is the owner's card of that value.

    The owner's own card in a trick the owner wins is always the winning card, so "using"
    means "winning with".  Colour cards only (a submarine 2 does not count) unless
    ``color_cards_only`` is false.  DONE on such a trick; FAILED at the end, or once the owner
    holds no card of that value any more.
    """
    mask = rank_mask((p["rank"],), p["color_cards_only"])
    if _won_trick_where(s, lambda t: bool(mask >> s.winning_cards[t] & 1)):
        return DONE
    return FAILED if s.over or not s.owner_hand & mask else PENDING


def win_rank_with_rank(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a ``capture_rank`` card with a ``winning_rank`` card ("win a 5 with a 7").

    Met by an owner-won trick whose winning card has ``winning_rank`` and that contains a
    different card of ``capture_rank`` ("a 6 with another 6").  Colour cards only by default.
    DONE on such a trick; FAILED at the end, or once no card of ``winning_rank`` in the owner's
    hand has a different live ``capture_rank`` card left to capture.
    """
    wmask = rank_mask((p["winning_rank"],), p["color_cards_only"])
    cmask = rank_mask((p["capture_rank"],), p["color_cards_only"])

    def hit(t: int) -> bool:
        w = s.winning_cards[t]
        return bool(wmask >> w & 1) and any(c != w and cmask >> c & 1 for c in s.tricks[t])

    if _won_trick_where(s, hit):
        return DONE
    if s.over:
        return FAILED
    live = s.live
    possible = any(live & cmask & ~(1 << w) for w in iter_cards(s.owner_hand & wmask))
    return PENDING if possible else FAILED


def win_card_with_submarine(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win the trick holding ``card`` with a submarine (the owner's sub is the winning card).

    DONE when that happens.  FAILED once the card was played in a trick not won this way, at
    the end if it was never played (3-player unplayed card), or while it is still unplayed if
    the owner holds no submarine any more.
    """
    card = parse_card(p["card"])
    for t, trick in enumerate(s.tricks):
        if card in trick:
            ok = s.winners[t] == s.owner and s.winning_cards[t] >= 36
            return DONE if ok else FAILED
    if s.over or not s.owner_hand & TRUMP_MASK:
        return FAILED
    return PENDING


def win_card_in_last_trick(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win ``card`` in the last trick of the hand (the 13th with 2-3 players).

    FAILED once the card is played in an earlier trick, or at the end if the owner lost the
    last trick or the card was never played.  DONE at the end when the owner won the last
    trick and it held the card.
    """
    card = parse_card(p["card"])
    last = s.n_tricks - 1
    for t, trick in enumerate(s.tricks):
        if card in trick and t != last:
            return FAILED
    if not s.over:
        return PENDING
    ok = s.winners[last] == s.owner and card in s.tricks[last]
    return DONE if ok else FAILED


# ---------------------------------------------------------------- winning a special trick


def _trick_pattern(
    s: TaskSnapshot,
    trick_ok: Callable[[tuple[int, ...]], bool],
    impossible: Callable[[], bool],
) -> Verdict:
    """DONE once the owner wins a trick with ``trick_ok``; FAILED at the end or if impossible."""
    if _won_trick_where(s, lambda t: trick_ok(s.tricks[t])):
        return DONE
    return FAILED if s.over or impossible() else PENDING


def _too_few(s: TaskSnapshot, eligible: int) -> bool:
    """Fewer qualifying live cards than one trick needs (a trick has ``seats`` cards)."""
    return popcount(s.live & eligible) < s.seats


def _live_values(s: TaskSnapshot, eligible: int) -> list[int]:
    return sorted(value_of(c) for c in iter_cards(s.live & eligible))


def win_trick_all_ranks_parity(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick in which every card is even (2,4,6,8) / odd (1,3,5,7,9), no submarine.

    FAILED at the end, or once fewer live cards of that parity remain than a trick has cards.
    """
    rest = 0 if p["parity"] == "even" else 1
    subs = not p["no_submarines"]

    def ok(trick: tuple[int, ...]) -> bool:
        return (subs or not _has_sub(trick)) and all(value_of(c) % 2 == rest for c in trick)

    eligible = _value_mask(lambda v: v % 2 == rest, subs)
    return _trick_pattern(s, ok, lambda: _too_few(s, eligible))


def win_trick_all_ranks_gt(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick in which every card is a colour card above ``gt`` (no submarine ever).

    The card has no ``no_submarines`` flag because submarines (1-4) are never "greater than
    5"; for any ``gt`` we keep rule 17 and exclude them.  FAILED at the end, or once fewer live
    colour cards above ``gt`` remain than a trick has cards.
    """
    gt = p["gt"]

    def ok(trick: tuple[int, ...]) -> bool:
        return not _has_sub(trick) and all(value_of(c) > gt for c in trick)

    eligible = _value_mask(lambda v: v > gt, False)
    return _trick_pattern(s, ok, lambda: _too_few(s, eligible))


def win_trick_all_ranks_lt(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick in which every card is below ``lt``, with no submarine (``no_submarines``).

    FAILED at the end, or once fewer live qualifying cards remain than a trick has cards.
    """
    lt, subs = p["lt"], not p["no_submarines"]

    def ok(trick: tuple[int, ...]) -> bool:
        return (subs or not _has_sub(trick)) and all(value_of(c) < lt for c in trick)

    eligible = _value_mask(lambda v: v < lt, subs)
    return _trick_pattern(s, ok, lambda: _too_few(s, eligible))


def _sum_threshold(s: TaskSnapshot, p: Mapping[str, Any]) -> int:
    """Threshold for this crew size; 2 players (3-card tricks) use the 3-player value."""
    return int(p["threshold_by_players"][str(max(s.players, 3))])


def win_trick_sum_gt(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick whose card values add up to more than the threshold, no submarine.

    FAILED at the end, or once even the ``seats`` highest live qualifying cards cannot beat
    the threshold (or too few are left for a whole trick).
    """
    thr, subs = _sum_threshold(s, p), not p["no_submarines"]

    def ok(trick: tuple[int, ...]) -> bool:
        return (subs or not _has_sub(trick)) and sum(value_of(c) for c in trick) > thr

    def impossible() -> bool:
        vals = _live_values(s, COLOUR_MASK | (TRUMP_MASK if subs else 0))
        return len(vals) < s.seats or sum(vals[-s.seats :]) <= thr

    return _trick_pattern(s, ok, impossible)


def win_trick_sum_lt(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick whose card values add up to less than the threshold, no submarine.

    FAILED at the end, or once even the ``seats`` lowest live qualifying cards reach it.
    """
    thr, subs = _sum_threshold(s, p), not p["no_submarines"]

    def ok(trick: tuple[int, ...]) -> bool:
        return (subs or not _has_sub(trick)) and sum(value_of(c) for c in trick) < thr

    def impossible() -> bool:
        vals = _live_values(s, COLOUR_MASK | (TRUMP_MASK if subs else 0))
        return len(vals) < s.seats or sum(vals[: s.seats]) >= thr

    return _trick_pattern(s, ok, impossible)


def win_trick_sum_in(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win a trick whose values add up to one of ``values`` (22 or 23), no submarine.

    The same targets for every crew size (as printed).  FAILED at the end, or once the
    lowest/highest possible sums of live qualifying cards miss every target.
    """
    targets, subs = tuple(p["values"]), not p["no_submarines"]

    def ok(trick: tuple[int, ...]) -> bool:
        return (subs or not _has_sub(trick)) and sum(value_of(c) for c in trick) in targets

    def impossible() -> bool:
        vals = _live_values(s, COLOUR_MASK | (TRUMP_MASK if subs else 0))
        if len(vals) < s.seats:
            return True
        return sum(vals[: s.seats]) > max(targets) or sum(vals[-s.seats :]) < min(targets)

    return _trick_pattern(s, ok, impossible)


def win_trick_equal_colors(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win one trick holding as many ``a`` as ``b`` cards, at least ``min_each`` of each.

    Other cards (submarines included) may be in the trick.  FAILED at the end, or once fewer
    than ``min_each`` live cards of either colour remain.
    """
    a, b, k = colour_mask([p["a"]]), colour_mask([p["b"]]), p["min_each"]

    def ok(trick: tuple[int, ...]) -> bool:
        na = sum(1 for c in trick if a >> c & 1)
        return na >= k and na == sum(1 for c in trick if b >> c & 1)

    def impossible() -> bool:
        return popcount(s.live & a) < k or popcount(s.live & b) < k

    return _trick_pattern(s, ok, impossible)


# ---------------------------------------------------------------- counting won cards


def win_cards(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win every listed card (in any tricks).

    DONE once the owner has won all of them; FAILED as soon as one is won by another seat, or
    at the end if one was never played (3-player unplayed card).
    """
    mask = cards_mask(tuple(p["cards"]))
    if s.mine & mask == mask:
        return DONE
    return FAILED if mask & ~s.mine & ~s.live else PENDING


def win_only_submarine(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win submarine ``submarine`` and no other submarine ("black1": sub 1 and no other sub).

    FAILED as soon as another seat wins that submarine or the owner wins a different one, or
    at the end if it was never played.  DONE once the owner has won it and no other submarine
    is live (all others went to other seats or stay unplayed).
    """
    target = 1 << (35 + p["submarine"])
    if s.mine & TRUMP_MASK & ~target:
        return FAILED
    if not s.mine & target:
        return PENDING if s.live & target else FAILED
    return PENDING if s.live & TRUMP_MASK else DONE


def win_at_least_rank(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win at least ``n`` cards of value ``rank`` (colour cards only by default)."""
    mask = rank_mask((p["rank"],), p["color_cards_only"])
    return _at_least(popcount(s.mine & mask), popcount(s.live & mask), p["n"])


def win_at_least_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win at least ``n`` cards of ``color``."""
    mask = colour_mask([p["color"]])
    return _at_least(popcount(s.mine & mask), popcount(s.live & mask), p["n"])


def win_exactly_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win exactly the given number of each listed colour ("exactly 1 pink and 1 green").

    Per colour: FAILED once over the count or out of reach; settled once no card of the colour
    is live.  The task is FAILED if any colour fails, DONE when all are settled on their count
    (at the end at the latest), PENDING otherwise.
    """
    verdicts = [
        _exactly(popcount(s.mine & m), popcount(s.live & m), n)
        for m, n in ((colour_mask([name]), n) for name, n in p["counts"].items())
    ]
    return _combine(verdicts)


def _combine(verdicts: Sequence[Verdict]) -> Verdict:
    if FAILED in verdicts:
        return FAILED
    return DONE if all(v is DONE for v in verdicts) else PENDING


def win_exactly_submarines(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win exactly ``n`` submarines; settled early only once no submarine is live."""
    return _exactly(popcount(s.mine & TRUMP_MASK), popcount(s.live & TRUMP_MASK), p["n"])


def win_exactly_rank(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win exactly ``n`` cards of value ``rank`` (colour cards only by default)."""
    mask = rank_mask((p["rank"],), p["color_cards_only"])
    return _exactly(popcount(s.mine & mask), popcount(s.live & mask), p["n"])


def win_no_rank(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win no card of the listed values: FAILED on the first; DONE once none is live."""
    return _none_of(s, rank_mask(tuple(p["ranks"]), p["color_cards_only"]))


def win_no_submarines(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win no submarine: FAILED on the first; DONE once no submarine is live."""
    return _none_of(s, TRUMP_MASK)


def win_no_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win no card of the listed colours: FAILED on the first; DONE once none is live."""
    return _none_of(s, colour_mask(p["colors"]))


def win_each_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win at least one card of each listed colour.

    DONE once all are won; FAILED once some colour has no card won by the owner and none live.
    """
    masks = [colour_mask([name]) for name in p["colors"]]
    if all(s.mine & m for m in masks):
        return DONE
    return FAILED if any(not (s.mine | s.live) & m for m in masks) else PENDING


def win_all_cards_of_one_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win all nine cards of at least one of the listed colours.

    DONE once some colour is complete; FAILED once every colour has a card that is neither won
    by the owner nor live (won by another seat, or unplayed at the end).
    """
    masks = [colour_mask([name]) for name in p["colors"]]
    if any(s.mine & m == m for m in masks):
        return DONE
    return FAILED if all(m & ~s.mine & ~s.live for m in masks) else PENDING


def win_equal_colors_total(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win, over the hand, as many ``a`` as ``b`` cards, at least ``min_each`` of each.

    FAILED once no common final count >= ``min_each`` is reachable (each count can only grow,
    by at most the live cards of its colour).  DONE once neither colour has a live card (the
    counts can no longer change) - at the end at the latest.
    """
    a, b, k = colour_mask([p["a"]]), colour_mask([p["b"]]), p["min_each"]
    na, nb = popcount(s.mine & a), popcount(s.mine & b)
    ma, mb = popcount(s.live & a), popcount(s.live & b)
    if max(na, nb, k) > min(na + ma, nb + mb):
        return FAILED
    return DONE if ma == 0 and mb == 0 else PENDING


def win_more_color_than_color(s: TaskSnapshot, p: Mapping[str, Any]) -> Verdict:
    """Win more ``more`` cards than ``less`` cards over the hand (won cards, not hand cards).

    With ``less_may_be_zero`` (the printed cards), 1 pink and 0 green is met; 0 and 0 is not.
    FAILED once even all live ``more`` cards cannot lift it above the ``less`` count; DONE once
    the ``less`` count cannot catch up even with all its live cards.
    """
    hi, lo = colour_mask([p["more"]]), colour_mask([p["less"]])
    n_hi, n_lo = popcount(s.mine & hi), popcount(s.mine & lo)
    m_hi, m_lo = popcount(s.live & hi), popcount(s.live & lo)
    least_lo = n_lo if p["less_may_be_zero"] else max(n_lo, 1)
    if least_lo > n_lo + m_lo or n_hi + m_hi <= least_lo:
        return FAILED
    return DONE if n_hi > n_lo + m_lo and n_lo >= least_lo else PENDING


# ---------------------------------------------------------------- the registry

JUDGES: dict[TaskKind, Judge] = {
    TaskKind.NEVER_WIN_CONSECUTIVE_TRICKS: never_win_consecutive_tricks,
    TaskKind.NEVER_LEAD_COLOR: never_lead_color,
    TaskKind.WIN_EXACTLY_N_TRICKS: win_exactly_n_tricks,
    TaskKind.WIN_CONSECUTIVE_TRICKS_AT_LEAST: win_consecutive_tricks_at_least,
    TaskKind.WIN_RANK_WITH_RANK: win_rank_with_rank,
    TaskKind.WIN_TRICK_ALL_RANKS_PARITY: win_trick_all_ranks_parity,
    TaskKind.WIN_TRICK_WITH_RANK: win_trick_with_rank,
    TaskKind.WIN_TRICK_ALL_RANKS_GT: win_trick_all_ranks_gt,
    TaskKind.WIN_TRICK_ALL_RANKS_LT: win_trick_all_ranks_lt,
    TaskKind.WIN_TRICK_SUM_GT: win_trick_sum_gt,
    TaskKind.WIN_TRICK_SUM_LT: win_trick_sum_lt,
    TaskKind.WIN_TRICK_SUM_IN: win_trick_sum_in,
    TaskKind.WIN_TRICK_EQUAL_COLORS: win_trick_equal_colors,
    TaskKind.WIN_EQUAL_COLORS_TOTAL: win_equal_colors_total,
    TaskKind.WIN_MORE_COLOR_THAN_COLOR: win_more_color_than_color,
    TaskKind.WIN_EACH_COLOR: win_each_color,
    TaskKind.WIN_ALL_CARDS_OF_ONE_COLOR: win_all_cards_of_one_color,
    TaskKind.WIN_AT_LEAST_RANK: win_at_least_rank,
    TaskKind.WIN_CARDS: win_cards,
    TaskKind.WIN_AT_LEAST_COLOR: win_at_least_color,
    TaskKind.WIN_EXACTLY_N_CONSECUTIVE_TRICKS: win_exactly_n_consecutive_tricks,
    TaskKind.WIN_EXACTLY_COLOR: win_exactly_color,
    TaskKind.WIN_EXACTLY_SUBMARINES: win_exactly_submarines,
    TaskKind.WIN_EXACTLY_RANK: win_exactly_rank,
    TaskKind.COMPARE_TRICKS_VS_EACH_OTHER_PLAYER: compare_tricks_vs_each_other_player,
    TaskKind.WIN_MORE_TRICKS_THAN_OTHERS_COMBINED: win_more_tricks_than_others_combined,
    TaskKind.COMPARE_TRICKS_VS_CAPTAIN: compare_tricks_vs_captain,
    TaskKind.WIN_NO_RANK: win_no_rank,
    TaskKind.WIN_NO_SUBMARINES: win_no_submarines,
    TaskKind.WIN_NO_COLOR: win_no_color,
    TaskKind.WIN_NONE_OF_FIRST_N_TRICKS: win_none_of_first_n_tricks,
    TaskKind.WIN_ONLY_TRICKS: win_only_tricks,
    TaskKind.WIN_TRICKS: win_tricks,
    TaskKind.WIN_ONLY_SUBMARINE: win_only_submarine,
    TaskKind.WIN_CARD_WITH_SUBMARINE: win_card_with_submarine,
    TaskKind.WIN_CARD_IN_LAST_TRICK: win_card_in_last_trick,
    TaskKind.WIN_PREDICTED_TRICK_COUNT: win_predicted_trick_count,
}
"""Condition kind -> judge; a closed set matching ``TaskKind`` one to one."""


def judge(card: TaskCard, snap: TaskSnapshot) -> Verdict:
    """Verdict of one task card for the owner recorded in ``snap``."""
    return JUDGES[card.kind](snap, card.params)
