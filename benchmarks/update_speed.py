"""Time one `copier update` of a Stackwright project against the same update of a trivial template.

Each template gets a v1.0.0 tag, a one-line change and a v2.0.0 tag; a project
generated from v1.0.0 and committed is updated to v2.0.0 through the copier
command line, alternately for both templates in one run, and reset between
rounds. The script prints the medians and their ratio.

    .venv/bin/python benchmarks/update_speed.py [ROUNDS]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from copy_speed import REPO, copier_seconds, git, report, trivial_template


def release_twice(template: Path, changed_file: str) -> None:
    """Tag v1.0.0, append a line to one template file, tag v2.0.0."""
    git(template, "tag", "v1.0.0")
    with (template / changed_file).open("a") as file:
        file.write("\n<!-- changed in v2 -->\n")
    git(template, "commit", "-qam", "v2")
    git(template, "tag", "v2.0.0")


def stackwright_template(root: Path) -> Path:
    template = root / "stackwright"
    shutil.copytree(REPO, template, ignore=shutil.ignore_patterns(".git", ".venv", ".cache", "__pycache__"))
    git(template, "init", "-q")
    git(template, "add", "-A")
    git(template, "commit", "-qm", "stackwright")
    return template


def generated_project(template: Path, destination: Path) -> Path:
    copier_seconds("copy", "--trust", "--defaults", "--quiet", "--vcs-ref=v1.0.0", str(template), str(destination))
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-qm", "generated")
    return destination


def update_seconds(project: Path) -> float:
    git(project, "reset", "-q", "--hard")
    git(project, "clean", "-fdq")
    return copier_seconds("update", "--trust", "--defaults", "--quiet", cwd=project)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        trivial = trivial_template(root)
        # Copier can only update a project that records its answers.
        (trivial / "template" / "{{ _copier_conf.answers_file }}.jinja").write_text("{{ _copier_answers | to_nice_yaml }}")
        git(trivial, "add", "-A")
        git(trivial, "commit", "-qm", "answers file")
        release_twice(trivial, "template/file0.txt.jinja")
        ours = stackwright_template(root)
        release_twice(ours, "template/layers/base/README.md.jinja")
        trivial_project = generated_project(trivial, root / "project-trivial")
        our_project = generated_project(ours, root / "project-stackwright")
        files = sum(1 for p in our_project.rglob("*") if p.is_file() and ".git" not in p.parts)
        ours_times, floor_times = [], []
        for _ in range(rounds):
            floor_times.append(update_seconds(trivial_project))
            ours_times.append(update_seconds(our_project))
    report("copier update", "trivial template (10 files + answers file)", floor_times,
           f"stackwright --defaults ({files} files)", ours_times)


if __name__ == "__main__":
    main()
