"""A newcomer's first run: README command 1 in a fresh clone, then the example's own README,
followed as written (commands are read from the READMEs, so the test fails if they drift).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import TemplateRepo, commit_all, copied, git

from stackwright.names import display_name, with_article
from stackwright.questions import schema_enum
from stackwright.releases import update_command

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "New User",
    "GIT_AUTHOR_EMAIL": "new@user.invalid",
    "GIT_COMMITTER_NAME": "New User",
    "GIT_COMMITTER_EMAIL": "new@user.invalid",
}


def sh_blocks(markdown: str, heading: str) -> list[str]:
    """The ```sh blocks of a section, up to the next heading of the same or a higher level."""
    level = heading.split()[0]
    assert f"\n{heading}\n" in markdown, f"no section {heading!r}"
    body = markdown.split(f"\n{heading}\n", 1)[1]
    end = re.search(rf"^#{{1,{len(level)}}} ", body, re.MULTILINE)
    return re.findall(r"^```sh\n(.*?)^```", body[: end.start()] if end else body, re.MULTILINE | re.DOTALL)


def shell(script: str, cwd: Path, path_first: Path | None = None) -> str:
    """Run README lines as a user pastes them into bash; fail with the output unless exit 0."""
    env = {**os.environ, **GIT_IDENTITY}
    if path_first:
        env["PATH"] = f"{path_first}{os.pathsep}{env['PATH']}"
    done = subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0 and "Traceback" not in output, f"{script}\nexited {done.returncode}:\n{output}"
    return output


def answers(project: Path) -> dict:
    return yaml.safe_load((project / ".copier-answers.yml").read_text())


def update_lines(example: Path) -> tuple[str, str]:
    """The example README's Updating section: (make it a git repository, update)."""
    init, update = sh_blocks((example / "README.md").read_text(), "## Updating")
    return init, update


def test_readme_example_can_be_updated_as_its_readme_says(tmp_path):
    # The template as a user clones it: a release tag, then an unreleased commit on top.
    origin = TemplateRepo(tmp_path / "origin")
    origin.release("v0.1.0")
    origin.edit("CHANGELOG.md", lambda text: text + "\n- Unreleased work.\n")
    commit_all(origin.path, "work after v0.1.0")
    clone = tmp_path / "home" / "stackwright"
    git(tmp_path, "clone", "-q", str(origin.path), str(clone))

    # README command 1, as written.
    (command,) = sh_blocks((clone / "README.md").read_text(), "## On a fresh machine")[:1]
    shell(command, clone)
    example = clone.parent / "stackwright-example"
    recorded = answers(example)
    assert recorded["_src_path"] == str(clone), "the example must find the template from anywhere"
    assert re.fullmatch(r"v0\.1\.0-1-g[0-9a-f]+", recorded["_commit"]), recorded["_commit"]

    # The example's README: make it a git repository once, then update (with this clone's Copier).
    init, update = update_lines(example)
    assert "--vcs-ref=HEAD" in update, "an unreleased commit is newer than the latest release"
    shell(init, example)
    copier = clone / ".venv" / "bin"

    # Upstream work arrives in the clone; the update brings it in.
    origin.edit("template/layers/base/README.md.jinja", lambda text: text + "\nUpstream change one.\n")
    commit_all(origin.path, "change one")
    git(clone, "pull", "-q", "--ff-only")
    shell(update, example, copier)
    assert "Upstream change one." in (example / "README.md").read_text()
    assert re.fullmatch(r"v0\.1\.0-2-g[0-9a-f]+", answers(example)["_commit"])
    commit_all(example, "update")

    # A release arrives; the README as it is now still takes it, and then shows the plain command.
    origin.edit("template/layers/base/README.md.jinja", lambda text: text + "\nUpstream change two.\n")
    origin.release("v0.2.0")
    git(clone, "pull", "-q", "--ff-only", "--tags")
    shell(update_lines(example)[1], example, copier)
    assert "Upstream change two." in (example / "README.md").read_text()
    assert answers(example)["_commit"] == "v0.2.0"
    assert json.loads((example / "stackwright.json").read_text())["version"] == "0.2.0"
    assert update_lines(example)[1].strip() == "copier update --trust --defaults"
    commit_all(example, "update to v0.2.0")
    shell(update_lines(example)[1], example, copier)
    assert git(example, "status", "--porcelain") == "", "updating to the release it has changed files"


@pytest.mark.parametrize(
    ("commit", "command"),
    [
        ("v1.2.0", "copier update --trust --defaults"),
        ("1.2.0", "copier update --trust --defaults"),
        ("v1.2.0-3-gabc1234", "copier update --trust --defaults --vcs-ref=HEAD"),
        ("abc1234", "copier update --trust --defaults --vcs-ref=HEAD"),
        (None, "copier update --trust --defaults --vcs-ref=HEAD"),
    ],
)
def test_the_update_command_fits_the_commit(commit, command):
    assert update_command(commit) == command


# Written out here, independently of the extension's table.
FRAMEWORK_SENTENCES = {
    "express": "An Express API",
    "nestjs": "A NestJS API",
    "nextjs": "A Next.js API",
    "hono": "A Hono API",
}
RUNTIME_NAMES = {"node": "Node.js", "deno": "Deno", "bun": "Bun"}


@pytest.mark.parametrize("framework", schema_enum("framework"))
def test_every_framework_gets_its_name_and_article(framework):
    sentence = with_article(display_name(framework), capital=True) + " API"
    assert sentence == FRAMEWORK_SENTENCES[framework]
    assert with_article(display_name(framework)) == sentence[0].lower() + sentence[1:-4]


def test_every_runtime_has_its_name():
    assert {r: display_name(r) for r in schema_enum("runtime")} == RUNTIME_NAMES


def test_the_generated_readme_names_framework_and_runtime(copie):
    project = copied(copie.copy())
    assert "\nAn Express API in TypeScript on Node.js, generated by\n" in (project / "README.md").read_text()
