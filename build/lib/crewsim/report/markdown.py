"""Render report blocks as GitHub-flavoured Markdown (charts linked, not embedded)."""

from __future__ import annotations

from collections.abc import Sequence

from crewsim.report.document import Block, Bullets, Heading, Image, Para, Table


def _cell(text: str) -> str:
    """Pipes would split a Markdown table cell; newlines would end the row."""
    return text.replace("|", "\\|").replace("\n", " ")


def render(blocks: Sequence[Block]) -> str:
    """The whole report as one Markdown string, ending in a newline."""
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"{'#' * b.level} {b.text}")
        elif isinstance(b, Para):
            out.append(f"<sub>{b.text}</sub>" if b.small else b.text)
        elif isinstance(b, Bullets):
            out.append("\n".join(f"- {item}" for item in b.items))
        elif isinstance(b, Table):
            lines = []
            if b.caption:
                lines.append(f"**{b.caption}**\n")
            lines.append("| " + " | ".join(_cell(h) for h in b.header) + " |")
            lines.append(
                "|" + "|".join(":---" if a == "l" else "---:" for a in b.alignment()) + "|"
            )
            lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in b.rows]
            out.append("\n".join(lines))
        elif isinstance(b, Image):
            svg = b.rel.removesuffix(".png") + ".svg"
            out.append(f"![{b.alt}]({b.rel})\n\n<sub>[SVG]({svg})</sub>")
    return "\n\n".join(out) + "\n"
