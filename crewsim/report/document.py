"""A report as a flat list of blocks, so Markdown and HTML say exactly the same thing.

The content is decided once (in ``crewsim.report.build``); the renderers only format it.  Inline
text may use `backticks` for file and column names and ``[text](relative/path)`` for a link to a
file of the report, which both renderers understand.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Heading:
    level: int  # 1..3
    text: str
    anchor: str = ""


@dataclass(frozen=True)
class Para:
    text: str
    small: bool = False  # a note, rendered smaller in HTML


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""  # one of "l"/"r" per column; default: first left, others right
    caption: str = ""

    def alignment(self) -> str:
        return self.align or "l" + "r" * (len(self.header) - 1)


@dataclass(frozen=True)
class Image:
    png: Path  # absolute path of the PNG (embedded in HTML, linked from Markdown)
    svg: Path
    alt: str  # what the chart shows, in one sentence: for screen readers and broken images
    rel: str  # path of the PNG relative to the report folder


@dataclass(frozen=True)
class Contents:
    """The table of contents: a link to every level-2 heading of the report, with its level-3
    headings beside it (the renderers fill it in from the headings that follow)."""


@dataclass(frozen=True)
class Fold:
    """Blocks folded under a one-line summary (HTML and GitHub Markdown ``<details>``): a long
    table or a per-crew-size chart that the reader opens when wanted."""

    summary: str
    blocks: tuple[Heading | Para | Bullets | Table | Image, ...]
    open: bool = False


Block = Heading | Para | Bullets | Table | Image | Contents | Fold


def headings(blocks: tuple[Block, ...] | list[Block]) -> list[Heading]:
    """Every heading of the report in reading order, folded ones included."""
    out: list[Heading] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(b)
        elif isinstance(b, Fold):
            out += [h for h in b.blocks if isinstance(h, Heading)]
    return out


Outline = list[tuple[Heading, str, list[tuple[Heading, str]]]]


def outline(heads: list[Heading], anchors: list[str]) -> Outline:
    """Level-2 headings with their level-3 ones beneath, each with the link target the renderer
    gives it (``anchors``, one per heading of ``heads``)."""
    tree: Outline = []
    for h, a in zip(heads, anchors, strict=True):
        if h.level == 2:
            tree.append((h, a, []))
        elif h.level == 3 and tree:
            tree[-1][2].append((h, a))
    return tree
