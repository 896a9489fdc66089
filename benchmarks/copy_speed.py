"""Time `copier copy` of the full Stackwright project (all bundles) against a trivial 10-file template.

The templates are git repositories rendered through the copier command line,
alternately, in one run; the script prints the medians and their ratios.

A third template, the trivial one padded to Stackwright's size (as many generated
files, as many files in its repository, no logic), shows how much of the time is
Copier's own cost per file: it clones the whole template repository and does some
work for every generated file, whatever the template.

    .venv/bin/python benchmarks/copy_speed.py [ROUNDS]
"""

from __future__ import annotations

import resource
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
        cwd=cwd,
        check=True,
        capture_output=True,
    )


# The one question of every logic-free template here.
TRIVIAL_COPIER_YML = "_subdirectory: template\nname:\n  type: str\n  default: demo\n"


def trivial_template(root: Path, generated: int = 10, repository_files: int = 0, name: str = "trivial") -> Path:
    """A Copier floor: one question and `generated` small templated files.

    With `repository_files`, plain files outside `_subdirectory` bring the repository
    (copier.yml included) to that many files.
    """
    template = root / name
    (template / "template").mkdir(parents=True)
    (template / "copier.yml").write_text(TRIVIAL_COPIER_YML)
    for i in range(generated):
        (template / "template" / f"file{i}.txt.jinja").write_text(f"{{{{ name }}}} file {i}\n")
    if repository_files:
        (template / "other").mkdir()
    for i in range(repository_files - generated - 1):
        (template / "other" / f"file{i}.txt").write_text(f"not rendered {i}\n")
    git(template, "init", "-q")
    git(template, "add", "-A")
    git(template, "commit", "-qm", "trivial")
    return template


def copier_seconds(*args: str, cwd: Path | None = None) -> tuple[float, float]:
    """Wall-clock and CPU time (user + system, Copier's own and its git and hook processes') of
    one copier command line run. CPU time is steadier when the machine is busy elsewhere."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "copier", *args], cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def report(what: str, times: dict[str, list[tuple[float, float]]]) -> None:
    """Print each template's medians, then Stackwright's against the trivial and the padded template.

    `times` is keyed by label, in the order trivial, padded, Stackwright, then optionally the
    static template of the same bytes and the padded template in Stackwright's folders
    (update_speed.py); each run is (wall, CPU).
    """
    for index, kind in enumerate(("wall-clock", "CPU")):
        medians = {label: statistics.median(run[index] for run in runs) for label, runs in times.items()}
        for label, runs in times.items():
            print(f"{label}: {what} median {medians[label]:.3f} s {kind} over {len(runs)} runs")
        trivial, padded, ours, *others = medians.values()
        print(f"{kind} ratio stackwright / trivial: {ours / trivial:.2f}")
        print(f"{kind} ratio padded trivial / trivial (Copier's cost of the size alone): {padded / trivial:.2f}")
        print(f"{kind} ratio stackwright / padded trivial (the template's own cost): {ours / padded:.2f}")
        if others:
            static, foldered = others
            print(
                f"{kind} ratio stackwright / static template of the same bytes (its logic alone): {ours / static:.2f}"
            )
            print(
                f"{kind} ratio stackwright / padded trivial in Stackwright's folders (its logic and bytes): "
                f"{ours / foldered:.2f}"
            )


def git_files(repository: Path) -> list[str]:
    """The files a clone of the repository checks out."""
    listed = subprocess.run(["git", "ls-files"], cwd=repository, check=True, capture_output=True, text=True)
    return listed.stdout.splitlines()


def repository_files(repository: Path) -> int:
    """How many files a clone of the repository checks out."""
    return len(git_files(repository))


# The full project: every bundle, so every model file (the trivial template ignores it).
ALL_BUNDLES = "bundles=[auth, banking-app, blog-app]"


def copy_seconds(template: Path, destination: Path, *data: str) -> tuple[float, float]:
    shutil.rmtree(destination, ignore_errors=True)
    options = [arg for item in data for arg in ("--data", item)]
    return copier_seconds(
        "copy", "--trust", "--defaults", "--quiet", "--vcs-ref=HEAD", *options, str(template), str(destination)
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        ours_out = root / "out-stackwright"
        copy_seconds(REPO, ours_out, ALL_BUNDLES)  # untimed: counts the files, warms Jinja's caches
        files = sum(1 for p in ours_out.rglob("*") if p.is_file())
        in_repository = repository_files(REPO)
        templates = {
            "trivial template (10 files)": (trivial_template(root), ()),
            f"trivial template padded ({files} files, {in_repository} in its repository)": (
                trivial_template(root, files, in_repository, "padded"),
                (),
            ),
            f"stackwright, all bundles ({files} files, {in_repository} in its repository)": (REPO, (ALL_BUNDLES,)),
        }
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in templates}
        for _ in range(rounds):
            for label, (template, data) in templates.items():
                times[label].append(copy_seconds(template, root / "out", *data))
    report("copier copy", times)


if __name__ == "__main__":
    main()
