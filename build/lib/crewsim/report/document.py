"""A report as a flat list of blocks, so Markdown and HTML say exactly the same thing.

The content is decided once (in ``crewsim.report.build``); the renderers only format it.  Inline
text may use `backticks` for file and column names and nothing else, which both renderers
understand.
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


Block = Heading | Para | Bullets | Table | Image
