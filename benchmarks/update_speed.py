"""Time one `copier update` of a Stackwright project against the same update of a trivial template.

Each template gets a v1.0.0 tag, a one-line change and a v2.0.0 tag; a project
generated from v1.0.0 and committed is updated to v2.0.0 through the copier
command line, alternately for each template in one run, and reset between
rounds. The script prints the medians and their ratios; the padded trivial
template is explained in copy_speed.py (an update clones the template five times).
Two more floors tell Copier's costs apart: a static template of Stackwright's files
and bytes, and the padded trivial template spread over Stackwright's folders.

    .venv/bin/python benchmarks/update_speed.py [ROUNDS]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from copy_speed import (
    REPO,
    TRIVIAL_COPIER_YML,
    copier_seconds,
    git,
    git_files,
    report,
    repository_files,
    trivial_template,
)


def release_twice(template: Path, changed_file: str) -> None:
    """Tag v1.0.0, append a line to one template file, tag v2.0.0."""
    git(template, "tag", "v1.0.0")
    with (template / changed_file).open("a") as file:
        file.write("\n<!-- changed in v2 -->\n")
    git(template, "commit", "-qam", "v2")
    git(template, "tag", "v2.0.0")


def stackwright_template(root: Path) -> Path:
    template = root / "stackwright"
    shutil.copytree(
        REPO,
        template,
        ignore=shutil.ignore_patterns(".git", ".venv", ".cache", "__pycache__", ".mypy_cache", ".ruff_cache"),
    )
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


def update_seconds(project: Path) -> tuple[float, float]:
    git(project, "reset", "-q", "--hard")
    git(project, "clean", "-fdq")
    return copier_seconds("update", "--trust", "--defaults", "--quiet", cwd=project)


def updatable_trivial_template(root: Path, generated: int = 10, in_repository: int = 0, name: str = "trivial") -> Path:
    """The trivial template, plus the answers file Copier needs to update a project, released twice."""
    template = trivial_template(root, generated, in_repository and in_repository - 1, name)
    (template / "template" / "{{ _copier_conf.answers_file }}.jinja").write_text("{{ _copier_answers | to_nice_yaml }}")
    git(template, "add", "-A")
    git(template, "commit", "-qm", "answers file")
    release_twice(template, "template/file0.txt.jinja")
    return template


def static_template(root: Path, project: Path, repository: Path) -> Path:
    """A template with no logic that writes `project`'s files (each a raw fragment) from a
    repository that also holds `repository`'s files: the same files and bytes as Stackwright's,
    so the update's cost beyond it is the template's logic (questions, file plan, rendering).
    Its repository holds the generated files besides Stackwright's own, so it is the heavier
    of the two in files: an upper bound of Copier's cost for Stackwright's content."""
    template = root / "static"
    shutil.copytree(repository, template / "other", ignore=shutil.ignore_patterns(".git"))
    (template / "copier.yml").write_text(TRIVIAL_COPIER_YML)
    for file in project.rglob("*"):
        relative = file.relative_to(project)
        if file.is_file() and ".git" not in relative.parts and file.name != ".copier-answers.yml":
            fragment = template / "template" / f"{relative}.jinja"
            fragment.parent.mkdir(parents=True, exist_ok=True)
            fragment.write_text("{% raw %}" + file.read_text() + "{% endraw %}")
    (template / "template" / "{{ _copier_conf.answers_file }}.jinja").write_text("{{ _copier_answers | to_nice_yaml }}")
    git(template, "init", "-q")
    git(template, "add", "-A")
    git(template, "commit", "-qm", "static")
    release_twice(template, "template/README.md.jinja")
    return template


def foldered_trivial_template(root: Path, project: Path, repository: Path) -> Path:
    """The padded trivial template, its files spread over Stackwright's folders: the generated
    ones in the project's folders, the others in the repository's. Creating a folder costs about
    as much as writing a file on this machine's disk, and an update checks the repository out
    five times, so this floor differs from Stackwright by the logic and the bytes alone."""
    template = root / "foldered"
    (template / "template").mkdir(parents=True)
    (template / "copier.yml").write_text(TRIVIAL_COPIER_YML)
    generated = sorted(
        file.relative_to(project).parent
        for file in project.rglob("*")
        if file.is_file() and ".git" not in file.parts and file.name != ".copier-answers.yml"
    )
    for i, folder in enumerate(generated):
        fragment = template / "template" / folder / f"file{i}.txt.jinja"
        fragment.parent.mkdir(parents=True, exist_ok=True)
        fragment.write_text(f"{{{{ name }}}} file {i}\n")
    (template / "template" / "{{ _copier_conf.answers_file }}.jinja").write_text("{{ _copier_answers | to_nice_yaml }}")
    folders = sorted({Path(path).parent for path in git_files(repository)})
    for i in range(repository_files(repository) - len(generated) - 2):  # copier.yml, answers file
        padding = template / "other" / folders[i % len(folders)] / f"file{i}.txt"
        padding.parent.mkdir(parents=True, exist_ok=True)
        padding.write_text(f"not rendered {i}\n")
    git(template, "init", "-q")
    git(template, "add", "-A")
    git(template, "commit", "-qm", "foldered")
    release_twice(template, f"template/{generated[0] / 'file0.txt.jinja'}")
    return template


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        ours = stackwright_template(root)
        release_twice(ours, "template/layers/base/README.md.jinja")
        our_project = generated_project(ours, root / "project-stackwright")
        # Generated files, the answers file aside (the padded template adds its own).
        files = sum(1 for p in our_project.rglob("*") if p.is_file() and ".git" not in p.parts) - 1
        in_repository = repository_files(ours)
        projects = {
            "trivial template (10 files + answers file)": generated_project(
                updatable_trivial_template(root), root / "project-trivial"
            ),
            f"trivial template padded ({files} files + answers file, {in_repository} in its repository)": (
                generated_project(
                    updatable_trivial_template(root, files, in_repository, "padded"), root / "project-padded"
                )
            ),
            f"stackwright --defaults ({files} files + answers file, {in_repository} in its repository)": our_project,
            "static template of Stackwright's files and bytes": generated_project(
                static_template(root, our_project, ours), root / "project-static"
            ),
            f"trivial template padded in Stackwright's folders ({files} files, {in_repository} in its repository)": (
                generated_project(foldered_trivial_template(root, our_project, ours), root / "project-foldered")
            ),
        }
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in projects}
        for _ in range(rounds):
            for label, project in projects.items():
                times[label].append(update_seconds(project))
    report("copier update", times)


if __name__ == "__main__":
    main()
