"""Carry answers forward when a release renames a question or a value.

A release that renames something adds a `before` migration to copier.yml, e.g.

    _migrations:
      - version: v2.0.0
        command: ["{{ _copier_python }}", "{{ _copier_conf.src_path }}/hooks/migrate_answers.py",
                  "rename-question", "oldName", "newName"]
        when: "{{ _stage == 'before' }}"

Copier runs it in the project before asking the questions of the new release,
and then reads the rewritten answers file.

    python hooks/migrate_answers.py rename-question OLD NEW [ANSWERS_FILE]
    python hooks/migrate_answers.py rename-value QUESTION OLD NEW [ANSWERS_FILE]

A list answer (multiselect) has the value renamed in place. Answers that do
not mention the old name are left as they are.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ANSWERS_FILE = ".copier-answers.yml"
USAGE = "usage: migrate_answers.py rename-question OLD NEW | rename-value QUESTION OLD NEW [ANSWERS_FILE]"


def rename_question(answers: dict, old: str, new: str) -> dict:
    """The answers with the key `old` renamed to `new`, in the same position."""
    return {(new if key == old else key): value for key, value in answers.items()}


def rename_value(answers: dict, question: str, old: str, new: str) -> dict:
    """The answers with `question`'s value (or list item) `old` renamed to `new`."""
    value = answers.get(question)
    if isinstance(value, list):
        value = [new if item == old else item for item in value]
    elif value == old:
        value = new
    return {**answers, question: value} if question in answers else answers


def main(argv: list[str]) -> int:
    commands: dict[str, tuple[Callable[..., dict[str, Any]], int]] = {
        "rename-question": (rename_question, 2),
        "rename-value": (rename_value, 3),
    }
    if not argv or argv[0] not in commands or len(argv) - 1 not in (commands[argv[0]][1], commands[argv[0]][1] + 1):
        print(USAGE, file=sys.stderr)
        return 2
    rename, arity = commands[argv[0]]
    path = Path(argv[1 + arity] if len(argv) > 1 + arity else ANSWERS_FILE)
    try:
        text = path.read_text()
        answers = yaml.safe_load(text) or {}
    except (OSError, yaml.YAMLError) as error:
        print(f"{path}: cannot read the answers file: {error}", file=sys.stderr)
        return 2
    # Copier writes a comment header; keep it.
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    path.write_text(header + yaml.safe_dump(rename(answers, *argv[1 : 1 + arity]), sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
