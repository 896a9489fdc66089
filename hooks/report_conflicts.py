"""List the files that `copier update` left with unresolved conflicts.

Copier merges conflicting changes inline (or writes *.rej files with
`--conflict rej`) and still exits 0. copier.yml runs this as an `after`
migration of every update, so a conflicted update fails instead:

    python hooks/report_conflicts.py [PROJECT_DIR]

Prints one line per conflicted file, then a one-line summary, and exits 1;
prints nothing and exits 0 when there is no conflict.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# Git's conflict markers, as `git merge-file` writes them for Copier.
OPENING, CLOSING = b"<<<<<<< ", b">>>>>>> "


def project_files(project: Path) -> list[str]:
    """Tracked and untracked files, without the git-ignored ones."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=project,
        capture_output=True,
        check=True,
    ).stdout
    return sorted({name for name in listing.decode().split("\0") if name})


def conflict_lines(path: Path) -> list[int]:
    """Line numbers of conflict openings that have a closing marker after them."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError:  # listed in the index but deleted by the update
        return []
    openings = [n for n, line in enumerate(lines, 1) if line.startswith(OPENING)]
    last_closing = max((n for n, line in enumerate(lines, 1) if line.startswith(CLOSING)), default=0)
    return [n for n in openings if n < last_closing]


def conflicts(project: Path) -> dict[str, str]:
    """{file: what is unresolved in it}."""
    found = {}
    for name in project_files(project):
        if name.endswith(".rej"):
            found[name] = "rejected hunks to apply by hand"
        elif lines := conflict_lines(project / name):
            found[name] = "conflict markers at line " + ", ".join(map(str, lines))
    return found


def main(argv: list[str]) -> int:
    project = Path(argv[0] if argv else ".")
    found = conflicts(project)
    for name, what in found.items():
        print(f"{name}: {what}", file=sys.stderr)
    if found:
        print(
            f"copier update left unresolved conflicts in {len(found)} file(s): "
            f"{', '.join(found)}; resolve them, then commit",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
