"""The data-model bundles: their models, the `models` question, and the tables an update would drop.

A model's facts that the fragments define (its table name, the constants' values) are
read from the fragments, where they are written once.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import yaml
from jinja2 import pass_context

from .paths import LAYERS_DIR
from .questions import NO_DATABASE

# Models of each bundle, in dependency order (a model comes after those it references).
BUNDLES: dict[str, list[str]] = {
    "auth": ["user", "session", "refresh-token", "otp"],
    "banking-app": ["user", "account", "transaction", "ledger"],
    "blog-app": ["user", "category", "post", "comment", "post-like", "comment-like"],
}
MODEL_ORDER = [
    "user",
    "session",
    "refresh-token",
    "otp",
    "account",
    "transaction",
    "ledger",
    "category",
    "post",
    "comment",
    "post-like",
    "comment-like",
]
# Mongoose embeds likes in posts and comments, so it has no like models.
RELATIONAL_ONLY = {"post-like", "comment-like"}
# The feature module each model lives in.
MODEL_MODULES = {
    "user": "users",
    "session": "auth",
    "refresh-token": "auth",
    "otp": "auth",
    "account": "accounts",
    "transaction": "transactions",
    "ledger": "ledgers",
    "category": "categories",
    "post": "posts",
    "comment": "comments",
    "post-like": "posts",
    "comment-like": "comments",
}


def embeds_likes(adapter: Any, engine: Any = None) -> bool:
    """Whether likes are embedded in posts and comments: on MongoDB, with Mongoose or Prisma."""
    return adapter == "mongoose" or engine == "mongodb"


def bundle_models(bundle: str, adapter: str | None, engine: str | None = None) -> list[str]:
    """Models a bundle has for a data layer."""
    return [m for m in BUNDLES[bundle] if not embeds_likes(adapter, engine) or m not in RELATIONAL_ONLY]


def _title(key: str) -> str:
    return "".join(part.capitalize() for part in key.split("-"))


def model_choices(bundles: Any, adapter: Any, engine: Any = None) -> str:
    """Choices of the `models` question: 'bundle/model' items of the chosen bundles."""
    items = {
        f"{bundle}: {_title(model)}": f"{bundle}/{model}"
        for bundle in BUNDLES
        if bundle in (bundles or [])
        for model in bundle_models(bundle, adapter, engine)
    }
    return json.dumps(items)


def all_model_items(bundles: Any, adapter: Any, engine: Any = None) -> str:
    """Default of the `models` question: every model of the chosen bundles (their index template)."""
    return json.dumps(list(json.loads(model_choices(bundles, adapter, engine)).values()))


def models_problem(items: Any, bundles: Any) -> str:
    """Every chosen bundle needs at least one of its models, and every model its bundle.

    This also makes `copier update` that adds or removes a bundle fall back to
    the default (all models of the chosen bundles), since Copier drops a
    remembered answer that fails here.
    """
    chosen = {str(item).split("/")[0] for item in items or []}
    missing = [b for b in bundles or [] if b not in chosen]
    if missing:
        return f"models: choose at least one model of {', '.join(missing)} (or leave the default: all)"
    strays = sorted(chosen - set(bundles or []))
    if strays:
        return f"models: {', '.join(strays)} is not a chosen bundle; choose models of {', '.join(bundles or [])}"
    return ""


def model_keys(answers: Any) -> list[str]:
    """Model keys that answers generate: the union of the chosen items, in dependency order."""
    if answers.get("databaseEngine", NO_DATABASE) == NO_DATABASE:
        return []
    bundles = answers.get("bundles") or []
    items = [str(item).split("/") for item in answers.get("models") or []]
    keys = {model for bundle, model in items if bundle in bundles}
    adapter = answers.get("databaseAdapter")
    embedded = embeds_likes(adapter, answers.get("databaseEngine"))
    return [m for m in MODEL_ORDER if m in keys and (not embedded or m not in RELATIONAL_ONLY)]


@pass_context
def selected_models(context: Any) -> list[str]:
    """Model keys to generate for the current answers."""
    return model_keys(context)


# Engines whose `db:generate` writes a migration that drops the tables of removed models
# (Drizzle's and Prisma's alike; MongoDB keeps a removed model's collection).
DROPPING_ENGINES = ("postgresql", "mysql")


@pass_context
def dropped_tables(context: Any) -> list[str]:
    """Tables the next `db:generate` would drop because these answers remove models.

    Compares with the answers file in the destination, which during `copier
    update` still holds the previous answers (Copier writes it after asking).
    """
    conf = context["_copier_conf"]
    previous_file = Path(conf["dst_path"]) / conf["answers_file"]
    stack = (context.get("databaseEngine"), context.get("databaseAdapter"))
    if stack[0] not in DROPPING_ENGINES or not previous_file.is_file():
        return []
    previous = yaml.safe_load(previous_file.read_text()) or {}
    if (previous.get("databaseEngine"), previous.get("databaseAdapter")) != stack:
        return []
    kept = set(model_keys(context))
    return [table_of(m) for m in model_keys(previous) if m not in kept]


def table_name(dialect: str, model: str) -> str:
    """A model's table name, read from its fragment, where it is defined."""
    fragment = LAYERS_DIR / "models" / dialect / f"{model}.ts.jinja"
    return _first_group(r'(?:pg|mysql)Table\(\s*"([a-z_]+)"', fragment)


def drop_tables_problem(confirmed: Any, tables: list[str]) -> str:
    """Refuse an update that removes models unless the user confirms it."""
    if tables and not confirmed:
        return (
            f"dropModelTables: the next db:generate would drop the removed models' tables "
            f"({', '.join(tables)}); answer true to confirm, or false and keep those models "
            "(see README: Removing models)"
        )
    return ""


def has_database(answers: Any) -> bool:
    """Whether the answers choose a database engine."""
    return answers.get("databaseEngine", NO_DATABASE) != NO_DATABASE


@functools.cache
def constant_values(name: str) -> list[str]:
    """The values of a `const NAME = [...] as const` list in the bundles' constants.ts (exported
    where a module imports it), where they are defined (Prisma enums repeat them)."""
    listed = _first_group(rf"const {name} = \[(.*?)\] as const;", LAYERS_DIR / "bundles" / "constants.ts.jinja")
    return re.findall(r'"([^"]+)"', listed)


def _first_group(pattern: str, fragment: Path) -> str:
    """The first group of `pattern` in a fragment (a template bug, reported here, when it is missing)."""
    found = re.search(pattern, fragment.read_text(), re.DOTALL)
    if not found:
        raise ValueError(f"{fragment}: nothing matches {pattern}")
    return found.group(1)


def table_of(model: str) -> str:
    """A model's table name (the same for every SQL dialect and adapter: Prisma's models @@map
    onto the Drizzle variant's tables)."""
    return table_name("pg", model)
