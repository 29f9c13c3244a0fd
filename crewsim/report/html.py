"""Render report blocks as one self-contained HTML page.

Charts are embedded as base64 PNGs and the stylesheet is inline: the file opens offline, can
be mailed or attached to an issue on its own, and needs no server, font or script from the web.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence

from crewsim.report.document import (
    Block,
    Bullets,
    Contents,
    Heading,
    Image,
    Outline,
    Para,
    Table,
    headings,
    outline,
)

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       max-width: 1200px; margin: 2em auto; padding: 0 1.2em; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
code { background: #f3f3f3; padding: 0 0.25em; border-radius: 3px; font-size: 0.92em; }
.small { font-size: 0.85em; color: #555; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; box-sizing: border-box; }
figcaption { font-size: 0.8em; color: #555; }
.tablewrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.6em 0 1.2em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
th { background: #f6f6f6; border-bottom: 2px solid #bbb; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
td.l, th.l { text-align: left; }
th { font-weight: 600; }
.nw { white-space: nowrap; }
nav.toc { background: #f8f8f8; border: 1px solid #e4e4e4; padding: 0.4em 1em; font-size: 0.92em; }
nav.toc ul { margin: 0.2em 0; padding-left: 1.2em; }
nav.toc li { margin: 0.1em 0; }
details { margin: 0.4em 0 1em; }
summary { cursor: pointer; color: #0b57a3; }
a { color: #0b57a3; }
.rule { color: #555; }
tr:hover td { background: #fafafa; }
"""


def _inline(text: str) -> str:
    """Escape, then turn `name` into <code>name</code> and [text](path) into a link: the only
    inline markup reports use."""
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)


def _cell(text: str) -> str:
    """A text cell: wraps between words, never inside ``96.90 %`` or ``3 players``."""
    return _inline(re.sub(r" (%|players\b)", "\u00a0\\1", text))


def _number_cell(text: str) -> str:
    """A numeric cell may break between its estimate and its interval, never inside either:
    ``92.12 % [91.95, 92.28]`` becomes two unbreakable pieces."""
    parts = re.split(r" (?=\[)|(?<=\]) ", text)
    return " ".join(f'<span class="nw">{_inline(part)}</span>' for part in parts)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _anchors(heads: list[Heading]) -> list[str]:
    return [h.anchor or _slug(h.text) for h in heads]


def _contents(tree: Outline) -> str:
    items = []
    for h, a, subs in tree:
        sub = " · ".join(f'<a href="#{s_a}">{_inline(s.text)}</a>' for s, s_a in subs)
        items.append(f'<li><a href="#{a}">{_inline(h.text)}</a>' + (f": {sub}" if sub else ""))
    return f'<nav class="toc"><strong>Contents</strong><ul>{"</li>".join(items)}</li></ul></nav>'


def _table(b: Table) -> str:
    al = b.alignment()
    head = "".join(f'<th class="{a}">{_inline(h)}</th>' for h, a in zip(b.header, al, strict=True))
    rows = "".join(
        "<tr>"
        + "".join(
            f'<td class="{a}">{_number_cell(c) if a == "r" else _cell(c)}</td>'
            for c, a in zip(row, al, strict=True)
        )
        + "</tr>"
        for row in b.rows
    )
    cap = f"<caption>{_inline(b.caption)}</caption>" if b.caption else ""
    return (
        f'<div class="tablewrap"><table>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _block(b: Block, toc: str) -> str:
    if isinstance(b, Heading):
        anchor = b.anchor or _slug(b.text)
        return f'<h{b.level} id="{anchor}">{_inline(b.text)}</h{b.level}>'
    if isinstance(b, Para):
        cls = ' class="small"' if b.small else ""
        return f"<p{cls}>{_inline(b.text)}</p>"
    if isinstance(b, Bullets):
        return "<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>"
    if isinstance(b, Table):
        return _table(b)
    if isinstance(b, Image):
        data = base64.b64encode(b.png.read_bytes()).decode("ascii")
        svg = html.escape(b.rel.removesuffix(".png") + ".svg")
        png = html.escape(b.rel)
        return (
            f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(b.alt)}">'
            f"<figcaption>{html.escape(b.alt)} (files next to this page: "
            f'<a href="{png}">PNG</a>, <a href="{svg}">SVG</a>)</figcaption></figure>'
        )
    if isinstance(b, Contents):
        return toc
    inner = "\n".join(_block(x, toc) for x in b.blocks)
    opened = " open" if b.open else ""
    return f"<details{opened}><summary>{_inline(b.summary)}</summary>\n{inner}\n</details>"


def render(blocks: Sequence[Block], title: str) -> str:
    """The whole report as one HTML document."""
    heads = headings(list(blocks))
    toc = _contents(outline(heads, _anchors(heads)))
    body = [_block(b, toc) for b in blocks]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
