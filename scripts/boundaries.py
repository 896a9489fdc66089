"""Measure the boundary violations in the TypeScript import graph of a generated project.

Usage: python scripts/boundaries.py <project-dir> [--json]

Reads <project-dir>/stackwright.json (rootDir, architecture), collects the .ts files under
<rootDir>/src and <rootDir>/tests, follows their relative imports (static, type-only,
re-exports, side-effect and dynamic import()) and reports:

  cycles               groups of files that import each other (strongly connected
                       components of more than one file, and files importing themselves);
  mutual folder pairs  folder units A and B where A imports B and B imports A;
  upward imports       files of the "ground floor" units importing a file outside it.

Paths are reported relative to rootDir. Stdlib only. It is a measuring tool: the exit
code is 0 whatever it finds, and 2 only when the project folder cannot be read.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import sys
from collections.abc import Iterator

# How each architecture cuts the source tree into folder units, and which units form its
# ground floor. By default a unit is the first path segment under src/ (a folder such as
# src/routes, or a file such as src/app.ts). "split" folders hold one unit per subfolder
# (src/modules/<name>); files directly in a split folder form the unit of the folder itself.
# "ground" units are the shared base every other unit may build on, so they must not import
# anything above them; mvc has no single base, so its helpers, types and config count.
ARCHITECTURES: dict[str, dict[str, tuple[str, ...]]] = {
    "feature": {"split": ("src/modules",), "ground": ("src/shared",)},
    "mvc": {"split": (), "ground": ("src/utils", "src/types", "src/config")},
    "modular": {"split": (), "ground": ("src/common", "src/config")},
    "file-api": {"split": ("src/modules",), "ground": ("src/lib",)},
}
TESTS_UNIT = "tests"  # one unit; may import anything, so only cycle detection sees it
SOURCE_DIRS = ("src", "tests")
SKIP_DIRS = {"node_modules", "dist", ".next"}
# Prisma's generated client: not scanned, and imports of it are treated like a package's.
GENERATED_DIR = "src/generated"

# Comments are blanked first (strings are kept, so "//" inside a URL survives).
_COMMENT_OR_STRING = re.compile(
    r"//[^\n]*|/\*.*?\*/|(\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)",
    re.DOTALL,
)
_SPEC = r"""(['"])([^'"\n]+)\1"""
_IMPORT_PATTERNS = (
    # import x from / import type {A} from / import x, {a,\n b} from / import * as ns from
    # export {a} from / export type {A} from / export * from / export * as ns from
    re.compile(
        r"\b(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?"
        r"(?:\{[^{}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*from\s*" + _SPEC
    ),
    re.compile(r"\bimport\s*" + _SPEC),  # import "./side-effect.js"
    re.compile(r"\bimport\s*\(\s*" + _SPEC + r"\s*\)"),  # await import("./lazy.js")
)


class ProjectError(Exception):
    """The project folder cannot be analysed."""


def load_project(project_dir: str) -> tuple[str, str]:
    """The absolute rootDir and the architecture named by stackwright.json."""
    config_path = os.path.join(project_dir, "stackwright.json")
    if not os.path.isdir(project_dir):
        raise ProjectError(f"{project_dir} is not a folder")
    try:
        with open(config_path, encoding="utf-8") as file:
            config = json.load(file)
    except (OSError, ValueError) as error:
        raise ProjectError(f"cannot read {config_path}: {error}") from error
    architecture = config.get("architecture") if isinstance(config, dict) else None
    if architecture not in ARCHITECTURES:
        raise ProjectError(f"{config_path}: unknown architecture {architecture!r}")
    root = os.path.normpath(os.path.join(project_dir, str(config.get("rootDir", "."))))
    if not os.path.isdir(os.path.join(root, "src")):
        raise ProjectError(f"{config_path}: no src folder under rootDir ({root})")
    return root, architecture


def collect_files(root: str) -> list[str]:
    """Every .ts file under src/ and tests/, as a POSIX path relative to root."""
    found = []
    for top in SOURCE_DIRS:
        for folder, subfolders, names in os.walk(os.path.join(root, top)):
            rel_folder = os.path.relpath(folder, root).replace(os.sep, "/")
            subfolders[:] = [
                name for name in subfolders if name not in SKIP_DIRS and f"{rel_folder}/{name}" != GENERATED_DIR
            ]
            found += [f"{rel_folder}/{name}" for name in names if name.endswith(".ts")]
    return sorted(found)


def import_specifiers(source: str) -> set[str]:
    """The relative module specifiers a TypeScript source imports or re-exports."""
    code = _COMMENT_OR_STRING.sub(lambda m: m.group(1) or " ", source)
    specs = {m.group(2) for pattern in _IMPORT_PATTERNS for m in pattern.finditer(code)}
    return {spec for spec in specs if spec.startswith(".")}


def resolve(base: str, root: str) -> str | None:
    """The file an import names (paths relative to root), or None if there is none:
    x.js means x.ts, x.ts is itself, and x without a suffix is x.ts or x/index.ts."""
    if base.endswith(".js"):
        candidates = [base[:-3] + ".ts"]
    elif base.endswith(".ts"):
        candidates = [base]
    else:
        candidates = [base + ".ts", base + "/index.ts"]
    for candidate in candidates:
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def build_graph(root: str, files: list[str]) -> tuple[dict[str, set[str]], list[str]]:
    """Import edges between the collected files, and the imports that resolve to nothing."""
    known = set(files)
    graph: dict[str, set[str]] = {name: set() for name in files}
    unresolved = []
    for name in files:
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as file:
            source = file.read()
        for spec in sorted(import_specifiers(source)):
            base = posixpath.normpath(posixpath.join(posixpath.dirname(name), spec))
            target = resolve(base, root)
            if target in known:
                graph[name].add(target)
            elif target is None and not base.startswith(GENERATED_DIR + "/"):
                unresolved.append(f"{name}: {spec}")
            # Otherwise a file outside the scan (src/generated, which may not be generated yet).
    return graph, unresolved


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one file, plus self-imports (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    work: list[tuple[str, Iterator[str]]] = []

    def enter(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        work.append((node, iter(sorted(graph[node]))))

    for start in sorted(graph):
        if start in index:
            continue
        enter(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    enter(target)
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = stack[stack.index(node) :]
                del stack[stack.index(node) :]
                on_stack.difference_update(component)
                if len(component) > 1 or node in graph[node]:
                    cycles.append(sorted(component))
    return sorted(cycles)


def unit_of(path: str, architecture: str) -> str:
    """The folder unit a file (relative to rootDir) belongs to."""
    if path.split("/")[0] == "tests":
        return TESTS_UNIT
    for folder in ARCHITECTURES[architecture]["split"]:
        if path.startswith(folder + "/"):
            rest = path[len(folder) + 1 :]
            return f"{folder}/{rest.split('/')[0]}" if "/" in rest else folder
    return "/".join(path.split("/")[:2])  # src/<folder> or src/<file>.ts


def analyse(root: str, architecture: str) -> dict:
    """The report: cycles, mutual folder pairs, upward imports, and their counts."""
    files = collect_files(root)
    graph, unresolved = build_graph(root, files)
    ground = set(ARCHITECTURES[architecture]["ground"])
    unit_edges: set[tuple[str, str]] = set()
    upward = set()
    for source, targets in graph.items():
        source_unit = unit_of(source, architecture)
        for target in targets:
            target_unit = unit_of(target, architecture)
            if TESTS_UNIT in (source_unit, target_unit):
                continue
            if source_unit != target_unit:
                unit_edges.add((source_unit, target_unit))
            if source_unit in ground and target_unit not in ground:
                upward.add((source, target))
    pairs = sorted({tuple(sorted(edge)) for edge in unit_edges if edge[::-1] in unit_edges})
    cycles = find_cycles(graph)
    return {
        "cycles": cycles,
        "mutual_folder_pairs": [list(pair) for pair in pairs],
        "upward_imports": [list(edge) for edge in sorted(upward)],
        "counts": {"cycles": len(cycles), "mutual_folder_pairs": len(pairs), "upward_imports": len(upward)},
        "_graph": graph,
        "_files": len(files),
        "_edges": sum(len(targets) for targets in graph.values()),
        "_unresolved": unresolved,
    }


def print_report(report: dict, root: str, architecture: str) -> None:
    """The human-readable form of the report."""
    counts = report["counts"]
    print(f"{root} ({architecture}): {report['_files']} files, {report['_edges']} import edges")
    print(f"\nImport cycles: {counts['cycles']}")
    for number, cycle in enumerate(report["cycles"], 1):
        print(f"  {number}. " + "\n     ".join(cycle))
    print(f"\nMutual folder pairs: {counts['mutual_folder_pairs']}")
    for first, second in report["mutual_folder_pairs"]:
        print(f"  {first} <-> {second}")
    ground = ", ".join(ARCHITECTURES[architecture]["ground"])
    print(f"\nUpward imports from the ground floor ({ground}): {counts['upward_imports']}")
    for source, target in report["upward_imports"]:
        print(f"  {source} -> {target}")
    if report["_unresolved"]:
        print(f"\nRelative imports that resolve to no file: {len(report['_unresolved'])}")
        for line in report["_unresolved"]:
            print(f"  {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project_dir", help="folder that holds stackwright.json")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    try:
        root, architecture = load_project(args.project_dir)
    except ProjectError as error:
        print(f"boundaries: {error}", file=sys.stderr)
        return 2
    report = analyse(root, architecture)
    if args.json:
        print(json.dumps({k: v for k, v in report.items() if not k.startswith("_")}, indent=2))
    else:
        print_report(report, root, architecture)
    return 0


if __name__ == "__main__":
    sys.exit(main())
