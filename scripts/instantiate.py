"""Turn a repository created with GitHub's "Use this template" into the project.

Run from the root of the new repository (the workflow
.github/workflows/instantiate.yml does, on its first run):

    python scripts/instantiate.py --upstream https://github.com/OWNER/REPO.git [--ref TAG] [--commit]

It reads the answers from stackwright-answers.yml at the repository root (the
defaults when the file is absent), renders the project with Copier from the
upstream template at its latest release tag (or --ref) into a temporary folder
named like the repository folder (the project name defaults to it), and only
then replaces everything in the repository but .git with the rendered files.
.copier-answers.yml then names the upstream (_src_path) and the release
(_commit), so a later `copier update` replays exactly that release.

With --commit it also commits the result (git add -A; git commit); otherwise
committing is left to the caller. Bad input (no or unknown upstream, an
unreadable answers file, an invalid answer) prints one line on stderr, exits 1
and leaves the repository untouched.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any, NoReturn

try:
    import yaml
    from copier import run_copy
    from copier.errors import CopierWarning
except ImportError as missing:  # one line, like every other refusal
    sys.exit(f"instantiate: {missing.name} is not installed: pip install -r requirements.txt")

ANSWERS_FILE = "stackwright-answers.yml"
PROG = "instantiate"


class Refusal(Exception):
    """Bad input or a failed step: reported as one line, exit status 1."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        print(f"{PROG}: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = _Parser(prog="instantiate.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", help="the template repository: a git URL or a local path")
    parser.add_argument("--ref", help="release tag (or other git ref) to render; default: the latest release tag")
    parser.add_argument("--commit", action="store_true", help="commit the result (git add -A; git commit)")
    return parser.parse_args(argv)


def one_line(error: BaseException) -> str:
    """The most telling line of an exception's text (Copier's are single lines; git's end with the cause)."""
    lines = [re.sub(r"^(?:Stderr|Stdout):", "", line).strip(" |") for line in str(error).splitlines()]
    lines = [line for line in lines if line]
    return lines[-1] if lines else type(error).__name__


def check_repository(repo: Path) -> None:
    if not (repo / "copier.yml").is_file():
        raise Refusal(
            f"{repo} has no copier.yml: run this from the root of a repository created from the "
            "Stackwright template, before it has been instantiated"
        )
    if not (repo / ".git").exists():
        raise Refusal(f"{repo} is not the root of a git repository (no .git)")


def is_url(upstream: str) -> bool:
    return "://" in upstream or upstream.startswith(("git@", "gh:", "gl:"))


def upstream_source(upstream: str | None, repo: Path) -> str:
    """The template source as Copier should record it: a URL as given, a local path made absolute."""
    if not upstream:
        raise Refusal("no upstream template: pass --upstream URL_OR_PATH")
    if is_url(upstream):
        return upstream
    path = Path(os.path.abspath(upstream))  # abspath, not resolve: keep the path the user sees
    if not path.is_dir():
        raise Refusal(f"upstream {upstream}: no such directory")
    if path.resolve() == repo.resolve():
        raise Refusal("the upstream is this repository itself: pass the template repository it was created from")
    return str(path)


def local_questions(repo: Path) -> dict[str, dict[str, Any]]:
    """The questions of the copier.yml that ships with the answers file (name -> settings)."""
    try:
        config = yaml.safe_load((repo / "copier.yml").read_text()) or {}
    except (OSError, yaml.YAMLError) as error:
        raise Refusal(f"cannot read copier.yml: {one_line(error)}") from None
    return {
        name: (spec if isinstance(spec, dict) else {"default": spec})
        for name, spec in config.items()
        if isinstance(name, str) and not name.startswith("_")
    }


TYPE_CHECKS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "str": (str, "a string"),
    "bool": (bool, "true or false"),
    "int": (int, "an integer"),
    "float": ((int, float), "a number"),
}


def read_answers(path: Path, questions: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The answers of the file ({} when it is absent); empty values mean "the default"."""
    name = path.name
    if not path.exists():
        return {}
    try:
        loaded = yaml.safe_load(path.read_text())
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f" at line {mark.line + 1}" if mark else ""
        raise Refusal(f"{name}: invalid YAML{where}: {error.problem}") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise Refusal(f"cannot read {name}: {one_line(error)}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise Refusal(f"{name}: expected 'question: answer' lines, found a {type(loaded).__name__}")
    answers = {}
    for key, value in loaded.items():
        if key not in questions:
            known = ", ".join(questions)
            raise Refusal(f"{name}: {key!r} is not a question of this template (questions: {known})")
        if value is None:
            continue
        spec = questions[key]
        if spec.get("multiselect"):
            if not isinstance(value, list):
                raise Refusal(f"{name}: {key} must be a list, e.g. {key}: [{value}]")
        else:
            expected = TYPE_CHECKS.get(str(spec.get("type")))  # no check for "yaml", "json" or no type
            is_bool = isinstance(value, bool) and expected is not None and expected[0] is not bool
            if expected and (not isinstance(value, expected[0]) or is_bool):
                raise Refusal(f"{name}: {key} must be {expected[1]}, not {value!r}")
        answers[key] = value
    return answers


def render(upstream: str, destination: Path, answers: dict[str, Any], ref: str | None, questions: list[str]) -> Any:
    """Copier's copy of the upstream release into destination; returns the Copier worker."""
    try:
        return run_copy(
            upstream,
            destination,
            data=answers,
            defaults=True,
            unsafe=True,  # the template loads its Jinja extension and runs its validation task
            vcs_ref=ref,
            quiet=True,
        )
    except (Exception, SystemExit) as error:  # noqa: BLE001 (any failure becomes the one-line refusal below)
        message = one_line(error)
        if any(f"'{name}'" in message for name in questions):  # Copier names the question it refuses
            raise Refusal(f"{ANSWERS_FILE}: {message}") from None
        at = f" at {ref}" if ref else ""
        raise Refusal(f"cannot render {upstream}{at}: {message}") from None


def replace_contents(repo: Path, rendered: Path) -> None:
    """Remove everything in repo but .git, then move the rendered files in."""
    for entry in repo.iterdir():
        if entry.name == ".git":
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    for entry in rendered.iterdir():
        if entry.name != ".git":
            shutil.move(str(entry), str(repo / entry.name))


def git(repo: Path, *args: str) -> None:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise Refusal(f"git {args[0]} failed: {one_line(Exception(done.stderr or done.stdout))}")


def is_release(commit: str) -> bool:
    """`git describe --tags --always` names a tag exactly, not '<tag>-<n>-g<hash>' or a bare hash."""
    return not (re.search(r"-\d+-g[0-9a-f]+$", commit) or re.fullmatch(r"[0-9a-f]{7,40}", commit))


def instantiate(repo: Path, args: argparse.Namespace) -> list[str]:
    """Do the work; returns the warnings to print. Raises Refusal before touching repo on bad input."""
    check_repository(repo)
    upstream = upstream_source(args.upstream, repo)
    questions = local_questions(repo)
    answers = read_answers(repo / ANSWERS_FILE, questions)
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="stackwright-") as scratch:
        destination = Path(scratch) / repo.name  # _folder_name: the project name's default
        with warnings.catch_warnings(record=True) as caught:  # printed only on success
            warnings.simplefilter("always")
            worker = render(upstream, destination, answers, args.ref, list(questions))
        notes += [f"warning: {w.message}" for w in caught if issubclass(w.category, CopierWarning)]
        release_questions = worker.template.questions_data
        unknown = sorted(set(answers) - set(release_questions))
        if unknown:
            raise Refusal(
                f"{ANSWERS_FILE}: {', '.join(unknown)} is not a question of {upstream} at {worker.template.commit}"
            )
        commit = worker.template.commit
        if not commit:
            raise Refusal(f"upstream {upstream} is not a git repository: `copier update` would have nothing to replay")
        if not is_release(commit):
            notes.append(f"warning: {commit} is not a release tag of {upstream}")
        replace_contents(repo, destination)
    project = worker.answers.combined.get("projectName", repo.name)
    if args.commit:
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"Instantiate {project} from {upstream} {commit}")
    print(f"Rendered {project} from {upstream} at {commit}" + (" and committed it" if args.commit else ""))
    return notes


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        notes = instantiate(Path.cwd(), args)
    except Refusal as refusal:
        print(f"{PROG}: {refusal}", file=sys.stderr)
        return 1
    for note in notes:
        print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
