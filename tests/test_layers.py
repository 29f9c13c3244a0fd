"""The package's layers, held: no module imports a higher layer, and no import cycle exists.

Every import counts, inside functions and under ``TYPE_CHECKING`` included: an import moved
into a function still makes the module depend on the other one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "crewsim"
# lowest first; a module may import its own layer and those before it
LAYERS = (
    ("crewsim", "crewsim.errors", "crewsim.cards"),
    ("crewsim.missions",),
    ("crewsim.rules",),
    ("crewsim.kernel",),
    ("crewsim.bots",),
    ("crewsim.engine",),
    ("crewsim.solver",),
    ("crewsim.runs",),
    ("crewsim.analysis",),
    ("crewsim.report",),
    ("crewsim.cli", "crewsim.__main__"),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The layer of a module: the longest prefix named in LAYERS."""
    best, found = -1, -1
    for i, names in enumerate(LAYERS):
        for name in names:
            inside = module.startswith(name + ".") and name != "crewsim"
            if (module == name or inside) and len(name) > best:
                best, found = len(name), i
    return found


def imports(module: str) -> set[str]:
    """The crewsim modules ``module`` imports, wherever the import statement stands."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}: the project imports absolutely"
            names = [f"{node.module}.{a.name}" for a in node.names] + [str(node.module)]
        else:
            continue
        for name in names:
            while name and name not in MODULES:  # crewsim.x.y.func -> crewsim.x.y
                name = name.rpartition(".")[0]
            if name.startswith("crewsim") and name != module:
                found.add(name)
    return found


GRAPH = {m: imports(m) for m in MODULES}


def test_every_module_has_a_layer() -> None:
    assert [m for m in MODULES if layer(m) < 0] == []


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        f"{m} (layer {layer(m)}) imports {d} (layer {layer(d)})"
        for m, deps in GRAPH.items()
        for d in sorted(deps)
        if layer(d) > layer(m) and not (m == "crewsim" or d == "crewsim")
    ]
    assert upward == []


def test_no_import_cycle() -> None:
    """Depth-first search for a back edge; the message names one cycle."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(GRAPH[m]):
            if d == "crewsim" or MODULES[d].name == "__init__.py" and m.startswith(d + "."):
                continue  # a package's own __init__ is imported first by every submodule
            if state.get(d) == 1:
                return [*stack[stack.index(d) :], d]
            if d not in state and (cycle := visit(d)):
                return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in MODULES:
        if m not in state and (cycle := visit(m)):
            pytest.fail("import cycle: " + " -> ".join(cycle))


def test_the_layer_test_sees_imports_inside_functions() -> None:
    assert "crewsim.report.build" in GRAPH["crewsim.cli.report"]  # imported lazily there
