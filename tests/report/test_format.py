"""Report wording helpers: a mission's rule in a few words, a task card as printed."""

from __future__ import annotations

from crewsim.missions import load_task_cards, resolve_missions
from crewsim.report.format import card_label, failure_sentence, failure_what, short_rule
from crewsim.runs.stats import FailureReason


def test_card_label_is_the_task_cards_own() -> None:
    """Reports name a Deep Sea card as `TaskCard.label` does, never by its internal ref_id."""
    cards = load_task_cards()
    assert cards and all(card_label(c.number, c.text) == c.label for c in cards)
    long = max(cards, key=lambda c: len(c.text))
    short = card_label(long.number, long.text, 20)
    assert len(short) <= len(str(long.number)) + 3 + 20 and short.endswith('…"')
    assert all("+" not in card_label(c.number, c.text) for c in cards)  # no ref_id like 1red+1green


def test_short_rule_keeps_the_start_and_cuts_at_a_word() -> None:
    assert short_rule("Standard: 1 task card.") == "Standard: 1 task card"
    ds6 = "Draw task cards up to a total difficulty of 5. The crew decides together who."
    assert short_rule(ds6) == "tasks worth 5; the crew decides together who"
    assert short_rule("Draw task cards up to a total difficulty of 12.") == "tasks worth 12"
    for m in resolve_missions("pn-1..50") + resolve_missions("ds-1..32"):
        text = short_rule(m.description, 48)
        assert 0 < len(text) <= 48
        if text.endswith("…") and m.game == "planet-nine":  # cut between words, never in one
            words, whole = text[:-1].split(), m.description.split()[: len(text[:-1].split())]
            assert words[:-1] == whole[:-1] and words[-1] == whole[-1].rstrip(",;:")


def test_failure_sentence_is_built_from_the_fields_and_names_cards_as_printed() -> None:
    card = load_task_cards()[40]
    deep = FailureReason("condition", card.ref_id, 3, 0.6, 0.125)
    assert failure_sentence(deep) == f"task card {card.label} failed (12.5%, most often trick 3)"
    assert card.ref_id not in failure_sentence(deep)
    assert failure_sentence(FailureReason("objective", "", 8, 1.0, 0.5)) == (
        "the mission's objective failed (50.0%, trick 8)"
    )
    assert failure_sentence(FailureReason("wrong_winner", "pink3", 5, 0.4, 0.067)) == (
        "task pink3 won by the wrong player (6.7%, most often trick 5)"
    )
    assert failure_sentence(FailureReason("wrong_winner", "", 10, 0.9, 0.17)) == (
        "any task won by the wrong player (17.0%, most often trick 10)"
    )
    assert failure_what(FailureReason("order", "blue2", 1, 1.0, 0.1)) == "task blue2: order broken"
