"""The profile reader: numba's mangled names, objdump's inline chains, samples per frame."""

from __future__ import annotations

from collections import Counter

from benchmarks.kernel_profile import attribute, demangle, inline_frames, report

HOLDER = "_ZN7crewsim6kernel6policy7_holderB4v183B56c8tJTC_2fWwGaMLSgd6CjA4xXKR0tsqKIYSQE"
CASH = "_ZN7crewsim6kernel6policy10_cash_wantB4v181B56c8tJTC_2fWwGaMLSgd6CjAE11NestedArray"
WANT = "_ZN7crewsim6kernel6policy5_wantB4v179B56c8tJTC_2fWwGaMLSgd6CjA4xXKR0tsqKIYE6Record"
LOOP = "_ZN7crewsim6engine4play10play_chunkB2v1B54c8tJTC_2fWwGaMLSgd6CjA4xXKR0tsqKIY"
ROOT = "/src/"

# what `objdump -d -l --inlines --no-show-raw-insn` prints, names cut short; the function
# starts at 0x9b00 in its section
DISASSEMBLY = f"""
Disassembly of section .ltext:

0000000000009b00 <{LOOP}+0x9b00>:
{CASH}():
/src/crewsim/kernel/policy.py:431
inlined by /src/crewsim/kernel/policy.py:343 ({WANT})
inlined by /src/crewsim/engine/play.py:718 ({LOOP})
    9b00:\tmov    (%rdi),%rdi
    9b03:\tlea    (%r15,%rcx,8),%rdx
{HOLDER}():
/src/crewsim/kernel/policy.py:453
inlined by /src/crewsim/kernel/policy.py:433 ({CASH})
inlined by /src/crewsim/kernel/policy.py:343 ({WANT})
inlined by /src/crewsim/engine/play.py:718 ({LOOP})
    9b3d:\ttest   %rdx,0x0(%rbp,%r8,8)
inlined by /src/crewsim/kernel/policy.py:433 ({CASH})
inlined by /src/crewsim/kernel/policy.py:343 ({WANT})
inlined by /src/crewsim/engine/play.py:718 ({LOOP})
    9b42:\tje     9b30 <{LOOP}+0x9b30>
"""


def test_demangle_keeps_module_and_function() -> None:
    assert demangle(HOLDER) == "policy._holder"
    assert demangle(LOOP) == "play.play_chunk"
    assert demangle("memcpy") == "memcpy"


def test_inline_frames_follow_objdump_chains() -> None:
    frames = inline_frames(DISASSEMBLY, 0x9B00)
    assert (
        frames[0]
        == frames[3]
        == (
            ("policy._cash_want", "/src/crewsim/kernel/policy.py:431"),
            ("policy._want", "/src/crewsim/kernel/policy.py:343"),
            ("play.play_chunk", "/src/crewsim/engine/play.py:718"),
        )
    )
    inner = (
        ("policy._holder", "/src/crewsim/kernel/policy.py:453"),
        ("policy._cash_want", "/src/crewsim/kernel/policy.py:433"),
        ("policy._want", "/src/crewsim/kernel/policy.py:343"),
        ("play.play_chunk", "/src/crewsim/engine/play.py:718"),
    )
    # the second instruction repeats the callers without a line: the chain must not grow
    assert frames[0x3D] == frames[0x42] == inner


def test_attribute_counts_each_frame_once_per_sample() -> None:
    frames = inline_frames(DISASSEMBLY, 0x9B00)
    profile = attribute(Counter({0x0: 3, 0x3D: 5, 0x42: 2, 0x999: 1}), frames, 20, 1_000, ROOT)
    assert profile.samples == 11
    assert profile.by_function["play.play_chunk"] == 10
    assert profile.by_function["policy._cash_want"] == 10
    assert profile.by_function["policy._holder"] == 7
    assert profile.by_function["?"] == 1  # an address objdump did not list
    assert profile.by_line["crewsim/kernel/policy.py:343"] == 10
    assert profile.self_line["crewsim/kernel/policy.py:453"] == 7
    assert profile.self_line["crewsim/kernel/policy.py:431"] == 3
    text = report(profile, top=4)
    assert "11 samples in the kernel of 20 (1,000 games" in text
    assert "policy._holder" in text.split("== inclusive, by source line")[0]
