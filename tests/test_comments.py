"""Comments speak of the project the user has: a generated project's comments name no database
engine, ORM, framework or runtime it was not generated with. A note that a library runs on every
runtime ("Node.js, Bun and Deno") is one its owner needs, wherever it runs, and is allowed.

Every stack and data layer is rendered in process (the fragments and the plan `copier copy`
uses, tests/test_registry.py proves them the same), with every API.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from build_registry import STACKS, FragmentRenderer, answers_for, app_stacks, plain_copy

from stackwright.bundles import BUNDLES, bundle_models
from stackwright.file_plan import plan_files

NAMES: dict[str, dict[str, list[str]]] = {
    "databaseEngine": {
        "postgresql": [r"PostgreSQL", r"Postgres\b", r"PGlite"],
        "mysql": [r"MySQL", r"MariaDB"],
        "mongodb": [r"MongoDB", r"\bMongo\b"],
    },
    "databaseAdapter": {"drizzle": [r"Drizzle"], "prisma": [r"Prisma"], "mongoose": [r"Mongoose"]},
    "framework": {
        "express": [r"Express"],
        "nestjs": [r"\bNest(JS)?\b"],
        "nextjs": [r"Next\.js", r"\bNext('s)?\b"],
        "hono": [r"Hono"],
    },
    "runtime": {"bun": [r"\bBun\b"], "deno": [r"\bDeno\b"]},
}
# What a stack is built on besides its own name: NestJS serves through Express.
UNDERNEATH = {"nestjs": {"express"}}
# A note that holds on every runtime: allowed.
EVERY_RUNTIME = re.compile(r"Node(\.js)?, Bun and Deno")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
HASH_COMMENT = re.compile(r"^\s*#[^\n]*", re.MULTILINE)


SLASHED = (".ts", ".mts", ".js", ".mjs", ".jsonc", ".prisma")
HASHED = (".yml", ".yaml", ".env.example", ".gitignore", ".dockerignore", "Dockerfile")


def comments_of(path: str, text: str) -> list[str]:
    return COMMENT.findall(text) if path.endswith(SLASHED) else HASH_COMMENT.findall(text)


def variants() -> list[dict]:
    every = []
    for runtime, framework, architectures in app_stacks():
        for engine, adapter in [*STACKS, ("none", "none")]:
            models = (
                [f"{slug}/{model}" for slug in BUNDLES for model in bundle_models(slug, adapter, engine)]
                if engine != "none"
                else []
            )
            # The registry's answers for the stack, with every bundle and every API.
            answers = answers_for(None, engine, adapter, architectures[0], models, runtime, framework)
            every.append(
                {
                    **answers,
                    "bundles": list(BUNDLES) if models else [],
                    "apis": ["auth", "bank", "blog"] if models else [],
                }
            )
    return every


def foreign_names(answers: dict, comment: str) -> list[str]:
    if EVERY_RUNTIME.search(comment):
        comment = EVERY_RUNTIME.sub("", comment)
    found = []
    for question, names in NAMES.items():
        for name, patterns in names.items():
            if name == answers[question] or name in UNDERNEATH.get(answers[question], set()):
                continue
            found += [name for pattern in patterns if re.search(pattern, comment)]
    return sorted(set(found))


@pytest.fixture(scope="module")
def renderer(tmp_path_factory) -> FragmentRenderer:
    return FragmentRenderer(plain_copy(tmp_path_factory.mktemp("comments")))


def findings(renderer: FragmentRenderer, answers: dict) -> list[str]:
    found = []
    for file in plan_files(answers):
        if not file["path"].endswith((*SLASHED, *HASHED)):
            continue
        text = renderer.env.get_template(file["fragment"]).render(**answers, model=file["model"])
        for comment in comments_of(file["path"], text):
            names = foreign_names(answers, comment)
            if names:
                first = " ".join(comment.split())[:120]
                found.append(f"{file['fragment']}: {', '.join(names)}: {first}")
    return found


@pytest.mark.parametrize(
    "answers",
    variants(),
    ids=lambda a: f"{a['runtime']}-{a['framework']}-{a['databaseEngine']}-{a['databaseAdapter']}",
)
def test_comments_name_only_the_stack_the_project_has(renderer: FragmentRenderer, answers: dict) -> None:
    found = findings(renderer, answers)
    assert not found, "comments naming what the project was not generated with:\n" + "\n".join(found)
