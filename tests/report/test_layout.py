"""Every kind of report crewsim writes, laid out by a real browser at 1,280 px: no table or chart
wider than the page, no table row taller than about five lines.

Headless Chromium opens each ``index.html`` with a small script added that opens every folded
section, measures every table, row and image, and writes what it found into the page; the test
reads it back from the dumped DOM.  Skipped, saying so, where Chromium is not installed
(``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewsim.cli.app import app

WIDTH = 1280  # the window: a laptop screen
ROW_MAX = 100  # px: about five lines of table text
BROWSER = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None
)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="chromium is not installed (apt-get install chromium)"
)

runner = CliRunner()

# Opens every <details>, then measures against the body's content box: the page a reader sees.
MEASURE = """
<script>
window.addEventListener("load", () => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  const body = document.body, cs = getComputedStyle(body);
  const box = body.getBoundingClientRect();
  const left = box.left + parseFloat(cs.paddingLeft);
  const right = box.right - parseFloat(cs.paddingRight);
  const name = (t) => (t.caption ? t.caption.textContent : t.rows[0].textContent).slice(0, 80);
  const found = { page: right - left, tables: 0, images: 0, wide: [], tall: [] };
  document.querySelectorAll("table").forEach((t) => {
    found.tables += 1;
    const r = t.getBoundingClientRect();
    if (r.left < left - 1 || r.right > right + 1) {
      found.wide.push(`table ${Math.round(r.width)} px: ${name(t)}`);
    }
    for (const row of t.rows) {
      const h = row.getBoundingClientRect().height;
      if (h > %(row_max)d) {
        found.tall.push(`row ${Math.round(h)} px in ${name(t)}: ${row.textContent.slice(0, 80)}`);
      }
    }
  });
  document.querySelectorAll("img").forEach((img) => {
    found.images += 1;
    const r = img.getBoundingClientRect();
    if (!img.complete || img.naturalWidth === 0) { found.wide.push(`broken image ${img.alt}`); }
    if (r.left < left - 1 || r.right > right + 1) {
      found.wide.push(`image ${Math.round(r.width)} px: ${img.alt.slice(0, 80)}`);
    }
  });
  const out = document.createElement("pre");
  out.id = "crewsim-layout";
  out.textContent = JSON.stringify(found);
  body.appendChild(out);
});
</script>
""".replace("%(row_max)d", str(ROW_MAX))


def measure(index: Path) -> dict[str, object]:
    """Lay ``index`` out in headless Chromium at ``WIDTH`` px and return what the script found."""
    page = index.with_name("layout-check.html")
    page.write_text(index.read_text().replace("</body>", MEASURE + "</body>"))
    assert BROWSER is not None
    proc = subprocess.run(
        [
            BROWSER,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            f"--window-size={WIDTH},2000",
            "--virtual-time-budget=20000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    page.unlink()
    hit = re.search(r'<pre id="crewsim-layout">(.*?)</pre>', proc.stdout, re.S)
    assert hit, f"chromium did not run the measuring script: {proc.stderr[-2000:]}"
    return dict(json.loads(hit.group(1).replace("&amp;", "&").replace("&lt;", "<")))


def _cli(*args: str) -> None:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output


SMALL = ("-n", "300", "--jobs", "1", "--seed", "1")


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One folder of each kind of report, from small runs made once for the module."""
    base = tmp_path_factory.mktemp("layout")
    pn, other, ds, demo = (base / n for n in ("pn", "pn-other", "ds", "demo"))
    ceiling = ("--ceiling", "--ceiling-n", "4")
    _cli("simulate", "pn-1..6", "-p", "3,4", *SMALL, *ceiling, "--out", str(pn))
    _cli("autopsy", str(pn), "--lost", "3", "--jobs", "1")
    _cli(
        "simulate", "pn-1..6", "-p", "3,4", *SMALL, "--bot", "heuristic-silent", "--out", str(other)
    )
    _cli("autopsy", str(other), "--players", "4", "--lost", "3", "--jobs", "1")  # as report-runs
    _cli("simulate", "ds-1..8", "-p", "3,4", *SMALL, *ceiling, "--out", str(ds))
    _cli("simulate", "pn-1..12", "-p", "3,4,5", *SMALL, "--out", str(demo))
    out = {
        "planet-nine": base / "rep-pn",
        "deep-sea": base / "rep-ds",
        "balance": base / "rep-balance",
        "demo": base / "rep-demo",
    }
    _cli("report", str(pn), "--out", str(out["planet-nine"]), "--beside", str(other))
    _cli("report", str(ds), "--out", str(out["deep-sea"]))
    balance = ("-p", "4", "-n", "1500", "--jobs", "1", "--seed", "5", "--ceiling", *ceiling[1:])
    _cli("balance", *balance, "--run-out", str(base / "bal"), "--out", str(out["balance"]))
    _cli("report", str(demo), "--out", str(out["demo"]))
    return out


@pytest.mark.parametrize("kind", ["planet-nine", "deep-sea", "balance", "demo"])
def test_report_fits_a_laptop_screen(reports: dict[str, Path], kind: str) -> None:
    page = reports[kind] / "index.html"
    if kind == "planet-nine":  # the other crew's autopsy beside this one's is measured too
        assert 'id="why-lost-beside-4p"' in page.read_text()
    found = measure(page)
    assert 1000 < float(found["page"]) <= WIDTH  # type: ignore[arg-type]
    assert found["tables"] and found["images"]
    assert found["wide"] == [], f"wider than the {found['page']:.0f} px page"
    assert found["tall"] == [], f"rows taller than {ROW_MAX} px"


def test_the_check_fails_on_a_table_too_wide(tmp_path: Path) -> None:
    """The yardstick itself: an unbreakable 60-column table and a tall row are caught."""
    cells = "".join(f"<td>{'x' * 30}</td>" for _ in range(60))
    tall = "<td>" + "<br>".join("line" for _ in range(12)) + "</td>"
    page = tmp_path / "index.html"
    page.write_text(
        "<!DOCTYPE html><html><body style='max-width:1200px;margin:auto'>"
        f"<table><tr>{cells}</tr></table><table><tr>{tall}</tr></table></body></html>"
    )
    found = measure(page)
    assert len(found["wide"]) == 1 and len(found["tall"]) == 1  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["planet-nine", "deep-sea", "balance", "demo"])
def test_every_link_leads_somewhere(reports: dict[str, Path], kind: str) -> None:
    """Contents at the top; every link is to a section of the page or a file of the report."""
    folder = reports[kind]
    page = (folder / "index.html").read_text()
    assert page.index('<nav class="toc">') < page.index("<h2")
    links = re.findall(r'href="([^"]+)"', page)
    ids = set(re.findall(r' id="([^"]+)"', page))
    assert [h for h in links if h.startswith("#") and h[1:] not in ids] == []
    files = [h for h in links if not h.startswith("#")]
    assert (
        files
        and [h for h in files if h.startswith(("/", "http")) or not (folder / h).exists()] == []
    )
    md = (folder / "report.md").read_text()
    md_files = [h for h in re.findall(r"\]\(([^)#]+)\)", md)]
    assert md_files and [h for h in md_files if not (folder / h).exists()] == []
    assert "1red" not in md and "black1" not in md  # Deep Sea cards as printed, never ref_ids
