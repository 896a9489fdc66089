"""GitHub's "Use this template": scripts/instantiate.py, stackwright-answers.yml and the workflow.

A repository created from the template holds the template's own files; its
first workflow run renders the project in place from the upstream release and
removes them. These tests create such a repository from a throwaway tagged
template repository, run the copy's own script as the workflow does, and
compare the result with `copier copy` of the same release.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, TemplateRepo, commit_all, copier_cli, git
from copier import run_copy

ANSWERS = "stackwright-answers.yml"
WORKFLOW = REPO / ".github" / "workflows" / "instantiate.yml"
# The template's own sources: none of them may remain in an instantiated project.
TEMPLATE_SOURCES = [
    "copier.yml",
    "template",
    "extensions",
    "hooks",
    "tests/conftest.py",
    "scripts/instantiate.py",
    "schema",
    "benchmarks",
    ".ci",
    ANSWERS,
    "requirements.txt",
    "pytest.ini",
    ".github/workflows/instantiate.yml",
]
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Stackwright Tests",
    "GIT_AUTHOR_EMAIL": "tests@stackwright.invalid",
    "GIT_COMMITTER_NAME": "Stackwright Tests",
    "GIT_COMMITTER_EMAIL": "tests@stackwright.invalid",
}
NON_DEFAULT = {"architecture": "mvc", "databaseEngine": "mysql", "databaseAdapter": "drizzle", "packageManager": "pnpm"}


# --- helpers ----------------------------------------------------------------------


def use_this_template(template: TemplateRepo, dst: Path) -> Path:
    """What GitHub does: the template's tracked files, no history, one new commit."""
    tracked = git(template.path, "ls-files", "-z").split("\0")
    for relpath in filter(None, tracked):
        target = dst / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(template.path / relpath, target)
    git(dst, "init", "-q", "-b", "main")
    commit_all(dst, "Initial commit")
    return dst


def instantiate(project: Path, *args: str, upstream: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the repository's own scripts/instantiate.py from its root, as the workflow does."""
    upstream_args = ["--upstream", str(upstream)] if upstream else []
    return subprocess.run(
        [sys.executable, "scripts/instantiate.py", *upstream_args, *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **GIT_IDENTITY},
        check=False,
    )


def tree(root: Path) -> dict[str, tuple[bytes, bool]]:
    """{relative path: (content, executable)} of every file under root but .git."""
    files = {}
    for folder, dirs, names in os.walk(root):
        if Path(folder) == root and ".git" in dirs:
            dirs.remove(".git")
        for name in names:
            path = Path(folder) / name
            files[path.relative_to(root).as_posix()] = (path.read_bytes(), bool(path.stat().st_mode & stat.S_IXUSR))
    return files


def copier_reference(template: TemplateRepo, scratch: Path, name: str, **answers: object) -> Path:
    """`copier copy` of the template's latest release into scratch/name."""
    destination = scratch / name
    run_copy(str(template.path), destination, data=answers, defaults=True, unsafe=True, quiet=True)
    return destination


def answers_file(project: Path) -> dict:
    return yaml.safe_load((project / ".copier-answers.yml").read_text())


def set_answers(project: Path, **answers: str) -> None:
    """Edit stackwright-answers.yml as a user would: change a line, or uncomment it."""
    path = project / ANSWERS
    text = path.read_text()
    for key, value in answers.items():
        text, count = re.subn(rf"^(?:# )?{key}:.*$", f"{key}: {value}", text, count=1, flags=re.MULTILINE)
        assert count == 1, f"{key} is not in {ANSWERS}"
    path.write_text(text)


def shipped_answers() -> tuple[dict, dict]:
    """(active answers, commented-out answers) of the repository's stackwright-answers.yml."""
    text = (REPO / ANSWERS).read_text()
    active = yaml.safe_load(text) or {}
    commented = {
        m.group(1): yaml.safe_load(m.group(2)) for m in re.finditer(r"^# ([a-z]\w*): (.+)$", text, flags=re.MULTILINE)
    }
    return active, commented


def copier_defaults(scratch: Path, **data: object) -> dict:
    """Every question's answer (hidden ones too) that Copier gives with --defaults, writing nothing."""
    worker = run_copy(
        str(REPO),
        scratch / "my-api",
        data=data,
        defaults=True,
        unsafe=True,
        vcs_ref="HEAD",
        quiet=True,
        pretend=True,
        skip_tasks=True,
    )
    return dict(worker.answers.user)


@pytest.fixture
def upstream(tmp_path) -> TemplateRepo:
    template = TemplateRepo(tmp_path)
    template.release("v1.0.0")
    return template


@pytest.fixture
def project(tmp_path, upstream) -> Path:
    """A repository just created from the upstream with "Use this template"."""
    return use_this_template(upstream, tmp_path / "my-api")


# --- the script ---------------------------------------------------------------------


def test_instantiating_gives_what_copier_copy_gives_and_removes_the_template(tmp_path, upstream, project):
    assert all((project / source).exists() for source in TEMPLATE_SOURCES)
    set_answers(project, **NON_DEFAULT)

    done = instantiate(project, upstream=upstream.path)

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    reference = copier_reference(upstream, tmp_path / "reference", "my-api", **NON_DEFAULT)
    assert tree(project) == tree(reference)
    for source in TEMPLATE_SOURCES:
        assert not (project / source).exists(), f"{source} remains"
    answers = answers_file(project)
    assert answers["_src_path"] == str(upstream.path)
    assert answers["_commit"] == "v1.0.0"
    assert {k: answers[k] for k in NON_DEFAULT} == NON_DEFAULT
    assert answers["projectName"] == "my-api"  # the default: the repository folder's name
    assert yaml.safe_load((project / "stackwright.json").read_text())["version"] == "1.0.0"
    # History is kept; committing is left to the caller without --commit.
    assert git(project, "log", "--format=%s").split("\n")[0] == "Initial commit"
    assert git(project, "status", "--porcelain")


def test_copier_update_then_brings_the_next_release(tmp_path, upstream, project):
    set_answers(project, **NON_DEFAULT)
    done = instantiate(project, "--commit", upstream=upstream.path)
    assert done.returncode == 0, done.stderr
    assert git(project, "status", "--porcelain") == ""
    assert len(git(project, "log", "--format=%s").splitlines()) == 2

    upstream.edit("template/layers/base/README.md.jinja", lambda text: text + "\nReleased in 2.0.0.\n")
    upstream.release("v2.0.0")
    done = copier_cli("update", "--defaults", "--trust", cwd=project)

    assert done.returncode == 0, done.stderr
    assert "Released in 2.0.0." in (project / "README.md").read_text()
    assert yaml.safe_load((project / "stackwright.json").read_text())["version"] == "2.0.0"
    answers = answers_file(project)
    assert answers["_commit"] == "v2.0.0"
    assert {k: answers[k] for k in NON_DEFAULT} == NON_DEFAULT


def test_without_an_answers_file_every_answer_is_the_default(tmp_path, upstream, project):
    (project / ANSWERS).unlink()
    commit_all(project, "no answers")

    done = instantiate(project, upstream=upstream.path)

    assert done.returncode == 0, done.stderr
    assert tree(project) == tree(copier_reference(upstream, tmp_path / "reference", "my-api"))


def test_the_shipped_answers_file_renders_the_defaults(tmp_path, upstream, project):
    done = instantiate(project, upstream=upstream.path)

    assert done.returncode == 0, done.stderr
    assert tree(project) == tree(copier_reference(upstream, tmp_path / "reference", "my-api"))


def test_the_answers_file_lists_every_question_with_copiers_default(tmp_path):
    active, commented = shipped_answers()
    questions = {k for k in yaml.safe_load((REPO / "copier.yml").read_text()) if not k.startswith("_")}

    assert not set(active) & set(commented), "a question is both answered and commented out"
    assert set(active) | set(commented) == questions
    # The file's example name is the default for a repository folder named my-api.
    assert {**commented, **active} == copier_defaults(tmp_path)


def test_the_answers_files_comments_name_every_choice_the_schema_allows():
    """The comment above each answer names every value the schema allows it (and the APIs by
    their names), so the file's help follows the template as it grows."""
    text = (REPO / ANSWERS).read_text()
    helps: dict[str, str] = {}
    block: list[str] = []
    for line in text.splitlines():
        answer = re.match(r"^(?:# )?([a-z]\w*):", line)
        if answer:
            helps[answer.group(1)] = " ".join(block)
            block = []
        elif line.startswith("#"):
            block.append(line)
        else:
            block = []
    schema = json.loads((REPO / "schema" / "stackwright.schema.json").read_text())["properties"]
    database = schema["database"]["properties"]
    allowed = {
        "packageManager": schema["packageManager"]["enum"],
        "runtime": schema["runtime"]["enum"],
        "framework": schema["framework"]["enum"],
        "architecture": schema["architecture"]["enum"],
        "databaseEngine": ["none", *database["engine"]["enum"]],
        "databaseAdapter": database["adapter"]["enum"],
        "apis": sorted(p.name for p in (REPO / "template" / "layers" / "apis").iterdir() if (p / "api.yml").exists()),
    }
    missing = {
        key: [value for value in values if not re.search(rf"\b{re.escape(value)}\b", helps[key])]
        for key, values in allowed.items()
    }
    assert not {key: values for key, values in missing.items() if values}, helps
    assert "not built yet" not in text


@pytest.mark.parametrize("engine", ["none", "mysql", "mongodb"])
def test_changing_only_the_engine_needs_no_other_edit(tmp_path, engine):
    """Answers that depend on the engine (adapter, models) are commented out, so they follow it."""
    active, _ = shipped_answers()
    answers = copier_defaults(tmp_path, **{**active, "databaseEngine": engine})
    assert answers["databaseEngine"] == engine


def bad_yaml(project: Path) -> None:
    (project / ANSWERS).write_text("framework: [express\n")


def answers_folder(project: Path) -> None:
    (project / ANSWERS).unlink()
    (project / ANSWERS).mkdir()


def answer(key: str, value: str):
    return lambda project: set_answers(project, **{key: value})


@pytest.mark.parametrize(
    ("spoil", "upstream_arg", "expected"),
    [
        (answer("framework", "hono"), None, "Invalid choice for 'framework': framework 'hono' is not available"),
        (answer("projectName", "My App"), None, "projectName 'My App' must be lowercase"),
        (answer("bundles", "auth"), None, "stackwright-answers.yml: bundles must be a list"),
        (answer("rootDir", "1"), None, "stackwright-answers.yml: rootDir must be a string"),
        (lambda p: (p / ANSWERS).write_text("frameworks: express\n"), None, "'frameworks' is not a question"),
        (lambda p: (p / ANSWERS).write_text("- express\n"), None, "expected 'question: answer' lines"),
        (bad_yaml, None, "stackwright-answers.yml: invalid YAML at line"),
        (answers_folder, None, "cannot read stackwright-answers.yml"),
        (None, "", "no upstream template: pass --upstream"),
        (None, "missing-template", "upstream missing-template: no such directory"),
    ],
    ids=[
        "invalid-choice",
        "validator",
        "not-a-list",
        "not-a-string",
        "unknown-question",
        "not-a-mapping",
        "bad-yaml",
        "unreadable",
        "no-upstream",
        "missing-upstream",
    ],
)
def test_bad_input_is_one_line_and_leaves_the_repository_untouched(upstream, project, spoil, upstream_arg, expected):
    if spoil:
        spoil(project)
        commit_all(project, "answers")
    before, status = tree(project), git(project, "status", "--porcelain")
    args = ["--upstream", upstream_arg] if upstream_arg else []

    done = instantiate(project, *args, upstream=None if upstream_arg is not None else upstream.path)

    assert done.returncode != 0
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("instantiate: ") and expected in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert tree(project) == before
    assert git(project, "status", "--porcelain") == status


def test_refuses_a_repository_that_is_not_a_template_checkout(tmp_path, upstream):
    rendered = copier_reference(upstream, tmp_path, "my-api")
    git(rendered, "init", "-q", "-b", "main")
    before = tree(rendered)

    done = subprocess.run(
        [sys.executable, str(upstream.path / "scripts" / "instantiate.py"), "--upstream", str(upstream.path)],
        cwd=rendered,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode != 0
    assert "has no copier.yml" in done.stderr and len(done.stderr.splitlines()) == 1
    assert tree(rendered) == before


def test_ref_renders_another_revision_and_warns_when_it_is_not_a_release(tmp_path, upstream, project):
    upstream.edit("template/layers/base/README.md.jinja", lambda text: text + "\nUnreleased.\n")
    commit_all(upstream.path, "unreleased change")

    done = instantiate(project, "--ref", "HEAD", upstream=upstream.path)

    assert done.returncode == 0, done.stderr
    commit = answers_file(project)["_commit"]
    assert commit.startswith("v1.0.0-1-g")
    assert done.stderr == f"warning: {commit} is not a release tag of {upstream.path}\n"
    assert "Unreleased." in (project / "README.md").read_text()


def test_refuses_an_upstream_that_is_not_a_git_repository(tmp_path, upstream, project):
    plain = tmp_path / "plain-template"
    shutil.copytree(upstream.path, plain, ignore=shutil.ignore_patterns(".git"))
    before = tree(project)

    done = instantiate(project, upstream=plain)

    assert done.returncode != 0 and len(done.stderr.splitlines()) == 1
    assert "is not a git repository" in done.stderr
    assert tree(project) == before


def test_refuses_to_instantiate_the_template_into_itself(upstream):
    before = tree(upstream.path)

    done = instantiate(upstream.path, upstream=upstream.path)

    assert done.returncode != 0
    assert "the upstream is this repository itself" in done.stderr
    assert tree(upstream.path) == before


# --- the workflow -----------------------------------------------------------------


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def step(name_part: str) -> dict:
    steps = workflow()["jobs"]["instantiate"]["steps"]
    matches = [s for s in steps if name_part in s.get("name", "")]
    assert len(matches) == 1, f"one step named like {name_part!r}"
    return matches[0]


def run_step(name_part: str, tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run a step's script as the runner does (bash -eo pipefail); returns the result and $GITHUB_OUTPUT."""
    script = tmp_path / "step.sh"
    script.write_text(step(name_part)["run"])
    output = tmp_path / "github_output"
    output.write_text("")
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        env={
            "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
            "GITHUB_OUTPUT": str(output),
            "GITHUB_REPOSITORY": "someone/my-api",
            "GITHUB_SERVER_URL": "https://github.com",
            **env,
        },
        check=False,
    )
    return done, output.read_text()


def fake_gh(tmp_path: Path, script: str) -> None:
    gh = tmp_path / "bin" / "gh"
    gh.parent.mkdir(exist_ok=True)
    gh.write_text(f"#!/bin/sh\n{script}\n")
    gh.chmod(0o755)


def test_workflow_runs_once_in_repositories_created_from_the_template():
    document = workflow()
    triggers = document.get("on", document.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers, "the workflow has no triggers"
    assert {"push", "workflow_dispatch"} <= set(triggers)
    assert {"upstream", "ref"} <= set(triggers["workflow_dispatch"]["inputs"])
    job = document["jobs"]["instantiate"]
    assert "github.event.repository.is_template == false" in job["if"]
    assert "github.event.repository.fork == false" in job["if"]

    steps = job["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    assert steps[0]["with"]["persist-credentials"] is False  # the push uses the secret, not GITHUB_TOKEN
    assert "copier.yml" in step("still to be rendered")["run"]
    find = step("upstream template")
    assert "gh api" in find["run"] and ".template_repository.full_name" in find["run"]
    assert "inputs.upstream" in find["env"]["OVERRIDE"] and "vars.STACKWRIGHT_UPSTREAM" in find["env"]["OVERRIDE"]
    token = step("STACKWRIGHT_TOKEN")
    assert token["env"]["STACKWRIGHT_TOKEN"] == "${{ secrets.STACKWRIGHT_TOKEN }}"
    render = step("Render")
    assert "scripts/instantiate.py" in render["run"] and "--upstream" in render["run"] and "--commit" in render["run"]
    push = step("Push")
    assert "git push" in push["run"] and push["env"]["STACKWRIGHT_TOKEN"] == "${{ secrets.STACKWRIGHT_TOKEN }}"
    names = [s.get("name", "") for s in steps]
    assert names.index(token["name"]) < names.index(render["name"]) < names.index(push["name"])
    for later in steps[2:]:  # nothing after the gate runs once the project is rendered
        assert "steps." in later.get("if", ""), later.get("name")
    # Expressions go through env, never into scripts (no injection; the scripts run as they are here).
    assert all("${{" not in s.get("run", "") for s in steps)


def test_workflow_stops_with_one_error_line_without_the_token(tmp_path):
    done, _ = run_step("STACKWRIGHT_TOKEN", tmp_path, {"STACKWRIGHT_TOKEN": ""})
    assert done.returncode == 1
    assert len(done.stdout.splitlines()) == 1
    assert done.stdout.startswith("::error::") and "STACKWRIGHT_TOKEN" in done.stdout

    done, _ = run_step("STACKWRIGHT_TOKEN", tmp_path, {"STACKWRIGHT_TOKEN": "github_pat_x"})
    assert done.returncode == 0 and done.stdout == ""


def test_workflow_gate_stops_once_copier_yml_is_gone(tmp_path):
    done, output = run_step("still to be rendered", tmp_path, {})
    assert done.returncode == 0 and output == "render=false\n" and "::notice::" in done.stdout
    (tmp_path / "copier.yml").write_text("")
    done, output = run_step("still to be rendered", tmp_path, {})
    assert done.returncode == 0 and output == "render=true\n"


@pytest.mark.parametrize(
    ("gh", "override", "url"),
    [
        ("echo stackwright/stackwright", "", "https://github.com/stackwright/stackwright.git"),
        ("exit 1", "acme/backend-template", "https://github.com/acme/backend-template.git"),
        ("exit 1", "https://git.example.com/t.git", "https://git.example.com/t.git"),
        ("echo", "", None),
        ("echo null", "", None),
    ],
    ids=["from-the-api", "override", "override-url", "no-template", "null-template"],
)
def test_workflow_finds_the_upstream(tmp_path, gh, override, url):
    fake_gh(tmp_path, gh)
    done, output = run_step("upstream template", tmp_path, {"OVERRIDE": override, "GH_TOKEN": "t"})
    assert done.returncode == 0, done.stdout + done.stderr
    if url:
        assert output == f"url={url}\n"
    else:
        assert output == "" and "::notice::" in done.stdout


def test_workflow_reports_an_api_failure_in_one_line(tmp_path):
    fake_gh(tmp_path, "echo 'HTTP 404' >&2; exit 1")
    done, output = run_step("upstream template", tmp_path, {"OVERRIDE": "", "GH_TOKEN": "t"})
    assert done.returncode == 1 and output == ""
    assert len(done.stdout.splitlines()) == 1 and "STACKWRIGHT_UPSTREAM" in done.stdout


def test_workflow_is_valid_for_github():
    checker = Path(sys.executable).parent / "check-jsonschema"  # pinned in requirements.txt
    done = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
