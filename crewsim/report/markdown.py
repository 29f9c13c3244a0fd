"""Render report blocks as GitHub-flavoured Markdown (charts linked, not embedded)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from crewsim.report.document import (
    Block,
    Bullets,
    Contents,
    Heading,
    Image,
    Para,
    Table,
    headings,
    outline,
)


def _cell(text: str) -> str:
    """Pipes would split a Markdown table cell; newlines would end the row."""
    return text.replace("|", "\\|").replace("\n", " ")


def github_anchors(heads: list[Heading]) -> list[str]:
    """The ids GitHub gives the headings of a Markdown file: the text in lower case, without
    punctuation, spaces as hyphens; a repeated id gets ``-1``, ``-2``, ..."""
    seen: dict[str, int] = {}
    out = []
    for h in heads:
        base = re.sub(r"[^\w\- ]", "", h.text.lower()).replace(" ", "-")
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else f"{base}-{n}")
    return out


def _contents(blocks: Sequence[Block]) -> str:
    heads = headings(list(blocks))
    lines = ["**Contents**", ""]
    for h, a, subs in outline(heads, github_anchors(heads)):
        sub = " · ".join(f"[{s.text}](#{s_a})" for s, s_a in subs)
        lines.append(f"- [{h.text}](#{a})" + (f": {sub}" if sub else ""))
    return "\n".join(lines)


def _block(b: Block, toc: str) -> str:
    if isinstance(b, Heading):
        return f"{'#' * b.level} {b.text}"
    if isinstance(b, Para):
        return f"<sub>{b.text}</sub>" if b.small else b.text
    if isinstance(b, Bullets):
        return "\n".join(f"- {item}" for item in b.items)
    if isinstance(b, Table):
        lines = []
        if b.caption:
            lines.append(f"**{b.caption}**\n")
        lines.append("| " + " | ".join(_cell(h) for h in b.header) + " |")
        lines.append("|" + "|".join(":---" if a == "l" else "---:" for a in b.alignment()) + "|")
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in b.rows]
        return "\n".join(lines)
    if isinstance(b, Image):
        svg = b.rel.removesuffix(".png") + ".svg"
        return f"![{b.alt}]({b.rel})\n\n<sub>[SVG]({svg})</sub>"
    if isinstance(b, Contents):
        return toc
    inner = "\n\n".join(_block(x, toc) for x in b.blocks)
    opened = " open" if b.open else ""
    return f"<details{opened}><summary>{b.summary}</summary>\n\n{inner}\n\n</details>"


def render(blocks: Sequence[Block]) -> str:
    """The whole report as one Markdown string, ending in a newline."""
    toc = _contents(blocks)
    return "\n\n".join(_block(b, toc) for b in blocks) + "\n"
