"""Which fragment makes which file of a generated project.

    .venv/bin/python scripts/plan.py PROJECT [FILE]

Reads the project's .copier-answers.yml and prints the file plan the template
makes from those answers ("path  <-  fragment"), or only the line for FILE.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "extensions"))

from stackwright.file_plan import plan_files


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    answers_file = Path(argv[0]) / ".copier-answers.yml"
    try:
        answers = yaml.safe_load(answers_file.read_text())
    except OSError as error:
        print(f"{answers_file}: cannot read the answers file: {error.strerror}", file=sys.stderr)
        return 2
    plan = sorted(plan_files(answers), key=lambda item: item["path"])
    if len(argv) == 2:
        plan = [item for item in plan if item["path"] == argv[1]]
        if not plan:
            print(f"{argv[1]}: no fragment makes this file (the user's own, or not generated)", file=sys.stderr)
            return 1
    width = max(len(item["path"]) for item in plan)
    for item in plan:
        print(f"{item['path']:<{width}}  <-  {item['fragment']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
