"""The file plan: which fragment of template/layers makes which generated file.

Copier walks only template/render, where one `yield` over file_plan() renders each
planned fragment at its path. LAYERS lists the layer folders an answer set applies, in
order; a fragment's file is placed by layouts.layout_path().
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from jinja2 import pass_context

from .apis import api_folders_of, unneeded_api_files
from .bundles import MODEL_ORDER, has_database, model_keys
from .layouts import layout_path, model_dialect
from .paths import layer_fragments
from .stacks import FRAMEWORKS, RUNTIMES


def _model_folders(a: Any) -> list[str]:
    """Shared model plumbing of the adapter, then the models of its dialect."""
    return [f"models/{a['databaseAdapter']}", f"models/{_dialect(a)}"]


# Layer folders under template/layers, in the order they are applied. Each row
# gives the folders of a layer for the answers (none when it does not apply); a
# folder that does not exist adds nothing. Adding a framework or an adapter is one
# folder, plus its BUILT entry and its row in FRAMEWORKS or versions.json.
LAYERS: list[tuple[str, Callable[[Any], list[str]]]] = [
    ("base", lambda a: ["base"]),
    ("package manager", lambda a: [f"package-managers/{a['packageManager']}"]),
    ("runtime tooling", lambda a: [f"runtimes/{folder}" for folder in _tooling_folders(a)]),
    (
        "framework shell",
        lambda a: [
            f"frameworks/{a['framework']}",
            f"frameworks/{a['framework']}/on-{a['runtime']}",
            *([f"frameworks/{a['framework']}/with-database"] if has_database(a) else []),
        ],
    ),
    (
        "edge adapter",
        lambda a: [f"edge/{FRAMEWORKS[a['framework']]['edge']}"] if "edge" in FRAMEWORKS[a["framework"]] else [],
    ),
    ("database service", lambda a: ["database"] if has_database(a) else []),
    # The embedded database of `dev` and `test` without DATABASE_URL (PostgreSQL only: PGlite).
    ("embedded database", lambda a: [f"embedded/{a['databaseEngine']}"] if has_database(a) else []),
    ("data layer", lambda a: [f"data/{a['databaseAdapter']}"] if has_database(a) else []),
    ("models", lambda a: _model_folders(a) if model_keys(a) else []),
    ("bundles", lambda a: ["bundles"] if model_keys(a) else []),
    # The domain APIs, one folder each under apis/ (`shared` holds what every API uses): a
    # framework- and ORM-free service, its storage on the data layer, its HTTP on the framework.
    ("domain APIs", lambda a: [folder for api in api_folders_of(a) for folder in _api_folders(api, a)]),
]


def _dialect(a: Any) -> str:
    return model_dialect(a["databaseEngine"], a["databaseAdapter"])


def _api_folders(api: str, a: Any) -> list[str]:
    """One API's layer folders for the answers: service, storage, HTTP (and its runtime overlay)."""
    return [
        f"apis/{api}/service",
        # An adapter's storage written once for its engines (Drizzle: pg and mysql), else per dialect.
        # The composer of its stores, one for every data layer; then the stores themselves.
        f"apis/{api}/storage/composer",
        f"apis/{api}/storage/{a['databaseAdapter']}",
        f"apis/{api}/storage/{_dialect(a)}",
        f"apis/{api}/http/{a['framework']}",
        f"apis/{api}/http/{a['framework']}/on-{a['runtime']}",
    ]


def _tooling_folders(answers: Any) -> list[str]:
    """The runtime's tooling folders, less those its framework replaces with its own."""
    replaced = FRAMEWORKS[answers["framework"]].get("own_tooling", [])
    return [folder for folder in RUNTIMES[answers["runtime"]]["layers"] if folder not in replaced]


def plan_files(answers: Any) -> list[dict[str, Any]]:
    """Every file to generate: {'path', 'fragment' (template-relative), 'model'}.

    Model fragments (models/<dialect>/<model>.ts) make one file per chosen model;
    other fragments are placed by LAYOUTS or keep their path in the layer folder.
    Two fragments for one path is a template bug, reported here.
    """
    chosen = model_keys(answers)
    plan: dict[str, dict[str, Any]] = {}
    folders = dict.fromkeys(folder for _, folders_of in LAYERS for folder in folders_of(answers))
    unneeded = unneeded_api_files(answers)
    for folder in folders:
        for name in layer_fragments(folder):
            stem = name.removesuffix(".ts").removesuffix(".prisma")
            model = stem if folder.startswith("models/") and stem in MODEL_ORDER else None
            if model and model not in chosen:
                continue
            if name in FRAMEWORKS[answers["framework"]].get("leaves_out", []):
                continue
            if folder.startswith("apis/") and f"{folder.split('/')[1]}/{name}" in unneeded:
                continue
            applies = ONLY_WHEN.get(f"{folder}/{name}")
            if applies and not applies(answers):
                continue
            needs = ONLY_WITH_MODELS.get(f"{folder}/{name}")
            if needs and not set(needs) & set(chosen):
                continue
            path = layout_path(answers, f"model:{model}" if model else name)
            if path in plan:
                raise ValueError(f"{path} comes from two fragments: {plan[path]['fragment']} and {folder}/{name}")
            plan[path] = {"path": path, "fragment": f"template/layers/{folder}/{name}.jinja", "model": model}
    return list(plan.values())


# Model plumbing that only some models need: planned when one of them is chosen.
ONLY_WITH_MODELS: dict[str, tuple[str, ...]] = {
    # CHECKs and triggers that schema.prisma cannot express.
    "models/prisma-sql/constraints.ts": ("account", "transaction", "ledger"),
    # MongoDB: the indexes Prisma cannot declare (TTL, text), and the ledger's immutability.
    "models/prisma-mongodb/indexes.ts": ("session", "refresh-token", "otp", "post"),
    "models/prisma-mongodb/sync-indexes.ts": ("session", "refresh-token", "otp", "post"),
    "models/prisma-mongodb/immutable-ledger.ts": ("ledger",),
}


def _sql_on_drizzle(answers: Any) -> bool:
    return answers["databaseEngine"] in ("postgresql", "mysql") and answers["databaseAdapter"] == "drizzle"


def _watched_without_a_launcher(answers: Any) -> bool:
    return answers["databaseEngine"] != "postgresql" and not FRAMEWORKS[answers["framework"]].get("own_tooling")


# Fragments of a shared folder that only some answers need: planned when their test holds.
ONLY_WHEN: dict[str, Callable[[Any], bool]] = {
    # The faults a test can make with a TCP proxy, on a SQL server (no MongoDB server runs here),
    # through Drizzle (Prisma's errors under these faults are not proven yet).
    "apis/shared/service/tcp-proxy.ts": _sql_on_drizzle,
    "apis/shared/service/database-faults.test.ts": _sql_on_drizzle,
    # `dev` checks the environment before it watches, where no launcher stands before the
    # watcher (PostgreSQL's embedded database has one) and the framework brings none (Next.js).
    "runtimes/node-compatible/check-env.ts": _watched_without_a_launcher,
    "runtimes/deno/check-env.ts": _watched_without_a_launcher,
}


# The answers a plan depends on.
PLAN_ANSWERS = (
    "rootDir",
    "packageManager",
    "runtime",
    "framework",
    "architecture",
    "databaseEngine",
    "databaseAdapter",
)
PLAN_LISTS = ("bundles", "models", "apis")


@functools.cache
def _plan_for(key: tuple[Any, ...], *lists: tuple[str, ...]) -> list[dict[str, Any]]:
    answers = dict(zip(PLAN_ANSWERS, key, strict=True))
    return plan_files({**answers, **{name: list(items) for name, items in zip(PLAN_LISTS, lists, strict=True)}})


@pass_context
def file_plan(context: Any) -> list[dict[str, Any]]:
    """The plan for the current answers (the `yield` in template/render).

    Copier renders the `yield` path once per file, so the plan is computed once per answers.
    """
    key = tuple(context.get(name) for name in PLAN_ANSWERS)
    listed = [tuple(str(item) for item in context.get(name) or []) for name in PLAN_LISTS]
    return _plan_for(key, *listed)


@pass_context
def fragment_for(context: Any, path: str) -> str:
    """The fragment that makes the generated file at `path` (for a file made of another's facts)."""
    return next(file["fragment"] for file in file_plan(context) if file["path"] == path)


@pass_context
def planned(context: Any, key: str) -> bool:
    """Whether the current answers generate the layout file `key` (a file ONLY_WITH_MODELS may leave out)."""
    return layout_path(context, key) in {file["path"] for file in file_plan(context)}
