"""Render report blocks as one self-contained HTML page.

Charts are embedded as base64 PNGs and the stylesheet is inline: the file opens offline, can
be mailed or attached to an issue on its own, and needs no server, font or script from the web.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence

from crewsim.report.document import Block, Bullets, Heading, Image, Para, Table

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       max-width: 1200px; margin: 2em auto; padding: 0 1.2em; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
code { background: #f3f3f3; padding: 0 0.25em; border-radius: 3px; font-size: 0.92em; }
.small { font-size: 0.85em; color: #555; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.8em; color: #555; }
.tablewrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.88em; margin: 0.6em 0 1.2em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
th { background: #f6f6f6; border-bottom: 2px solid #bbb; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.l, th.l { text-align: left; }
tr:hover td { background: #fafafa; }
"""


def _inline(text: str) -> str:
    """Escape, then turn `name` into <code>name</code> (the only inline markup reports use)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def render(blocks: Sequence[Block], title: str) -> str:
    """The whole report as one HTML document."""
    body: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            anchor = b.anchor or _slug(b.text)
            body.append(f'<h{b.level} id="{anchor}">{_inline(b.text)}</h{b.level}>')
        elif isinstance(b, Para):
            cls = ' class="small"' if b.small else ""
            body.append(f"<p{cls}>{_inline(b.text)}</p>")
        elif isinstance(b, Bullets):
            items = "".join(f"<li>{_inline(i)}</li>" for i in b.items)
            body.append(f"<ul>{items}</ul>")
        elif isinstance(b, Table):
            al = b.alignment()
            head = "".join(
                f'<th class="{a}">{_inline(h)}</th>' for h, a in zip(b.header, al, strict=True)
            )
            rows = "".join(
                "<tr>"
                + "".join(
                    f'<td class="{a}">{_inline(c)}</td>' for c, a in zip(row, al, strict=True)
                )
                + "</tr>"
                for row in b.rows
            )
            cap = f"<caption>{_inline(b.caption)}</caption>" if b.caption else ""
            body.append(
                f'<div class="tablewrap"><table>{cap}<thead><tr>{head}</tr></thead>'
                f"<tbody>{rows}</tbody></table></div>"
            )
        elif isinstance(b, Image):
            data = base64.b64encode(b.png.read_bytes()).decode("ascii")
            svg = html.escape(b.rel.removesuffix(".png") + ".svg")
            body.append(
                f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(b.alt)}">'
                f"<figcaption>{html.escape(b.alt)} (vector version next to this file: "
                f"<code>{svg}</code>)</figcaption></figure>"
            )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
