"""Time `copier copy` of the full Stackwright project (all bundles) against a trivial 10-file template.

Both templates are git repositories rendered through the copier command line,
alternately, in one run; the script prints the medians and their ratio.

    .venv/bin/python benchmarks/copy_speed.py [ROUNDS]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=cwd, check=True, capture_output=True,
    )


def trivial_template(root: Path) -> Path:
    """A Copier floor: one question and ten small templated files."""
    template = root / "trivial"
    (template / "template").mkdir(parents=True)
    (template / "copier.yml").write_text("_subdirectory: template\nname:\n  type: str\n  default: demo\n")
    for i in range(10):
        (template / "template" / f"file{i}.txt.jinja").write_text(f"{{{{ name }}}} file {i}\n")
    git(template, "init", "-q")
    git(template, "add", "-A")
    git(template, "commit", "-qm", "trivial")
    return template


def copier_seconds(*args: str, cwd: Path | None = None) -> float:
    """Wall-clock time of one copier command line run."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "copier", *args], cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def report(what: str, floor_label: str, floor: list[float], ours_label: str, ours: list[float]) -> None:
    """Print both medians and their ratio."""
    floor_s, ours_s = statistics.median(floor), statistics.median(ours)
    print(f"{floor_label}: {what} median {floor_s:.3f} s over {len(floor)} runs")
    print(f"{ours_label}: {what} median {ours_s:.3f} s over {len(ours)} runs")
    print(f"ratio stackwright / trivial: {ours_s / floor_s:.2f}")


# The full project: every bundle, so every model file (the trivial template ignores it).
ALL_BUNDLES = "bundles=[auth, banking-app, blog-app]"


def copy_seconds(template: Path, destination: Path, *data: str) -> float:
    shutil.rmtree(destination, ignore_errors=True)
    options = [arg for item in data for arg in ("--data", item)]
    return copier_seconds(
        "copy", "--trust", "--defaults", "--quiet", "--vcs-ref=HEAD", *options, str(template), str(destination)
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        trivial = trivial_template(root)
        ours, floor = [], []
        for _ in range(rounds):
            floor.append(copy_seconds(trivial, root / "out-trivial"))
            ours.append(copy_seconds(REPO, root / "out-stackwright", ALL_BUNDLES))
        files = sum(1 for p in (root / "out-stackwright").rglob("*") if p.is_file())
    report("copier copy", "trivial template (10 files)", floor, f"stackwright, all bundles ({files} files)", ours)


if __name__ == "__main__":
    main()
