"""Jinja extension for the Stackwright template.

Copier loads this file (through copier-template-extensions) for every render.
It reads the facts from their single sources and exposes them to copier.yml
and to the files under template/:

- schema/stackwright.schema.json: the allowed values and cross-field rules;
- extensions/versions.json: every package version a generated project pins;
- BUILT below: what this release can generate (a subset of what is valid);
- LAYOUTS below: where each file lives for each architecture.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import posixpath
import re
from pathlib import Path
from typing import Any, Callable

import yaml
from jinja2 import Environment, pass_context
from jinja2.bccache import FileSystemBytecodeCache
from jinja2.ext import Extension

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "schema" / "stackwright.schema.json"
VERSIONS_PATH = ROOT / "extensions" / "versions.json"
LAYERS_DIR = ROOT / "template" / "layers"

SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
VERSIONS: dict[str, Any] = json.loads(VERSIONS_PATH.read_text())

# Copier question -> where its value lives in stackwright.json.
QUESTION_FIELDS: dict[str, tuple[str, ...]] = {
    "packageManager": ("packageManager",),
    "runtime": ("runtime",),
    "language": ("language",),
    "framework": ("framework",),
    "architecture": ("architecture",),
    "databaseEngine": ("database", "engine"),
    "databaseAdapter": ("database", "adapter"),
}
NO_DATABASE = "none"

# What this release generates. The schema allows more; the rest is refused at
# question time with a "not built yet" message until a later release adds it.
BUILT: dict[str, list[str]] = {
    "packageManager": ["npm", "pnpm", "bun", "yarn"],
    "runtime": ["node", "bun", "deno"],
    "language": ["typescript"],
    "framework": ["express", "hono", "nestjs", "nextjs"],
    "architecture": ["mvc", "feature", "modular", "file-api"],
    "databaseEngine": [NO_DATABASE, "postgresql", "mysql", "mongodb"],
    "databaseAdapter": ["drizzle", "mongoose", "prisma"],
}

# The answer `--defaults` gives when it is allowed for the parent answer.
PREFERRED: dict[str, str] = {
    "packageManager": "npm",
    "runtime": "node",
    "language": "typescript",
    "framework": "express",
    "architecture": "feature",
    "databaseEngine": "postgresql",
    "databaseAdapter": "drizzle",
}

# Where a fragment's file lives in each architecture, relative to rootDir. Keys
# are fragment names (template/layers/**/<name>.jinja), which are also what
# place() and import_path() take; a fragment not listed here keeps its path in
# its layer folder, relative to the project root.
_COMMON = {
    "src": "src",
    # Prisma's generated client (prisma-client generator), in the sources so tsc checks its use.
    "generated/prisma/client.ts": "src/generated/prisma/client.ts",
    "tests": "tests",
    "app.ts": "src/app.ts",
    "server.ts": "src/server.ts",
    "health.test.ts": "tests/health.test.ts",
    "env.test.ts": "tests/env.test.ts",
}
LAYOUTS: dict[str, dict[str, str]] = {
    "mvc": {
        **_COMMON,
        "env.ts": "src/config/env.ts",
        "database.ts": "src/config/database.ts",
        "migrate.ts": "src/db/migrate.ts",
        "constraints.ts": "src/db/constraints.ts",
        "schema.ts": "src/db/schema/index.ts",
        "relations.ts": "src/db/schema/relations.ts",
        "timestamps.ts": "src/db/schema/timestamps.ts",
        "constants.ts": "src/config/constants.ts",
        "types.ts": "src/types/index.ts",
        "models.ts": "src/models/index.ts",
        "sync-indexes.ts": "src/scripts/sync-indexes.ts",
        "indexes.ts": "src/db/indexes.ts",
        "immutable-ledger.ts": "src/db/immutable-ledger.ts",
        "http-error.ts": "src/utils/http-error.ts",
        "error-handler.ts": "src/middlewares/error-handler.ts",
        "not-found.ts": "src/middlewares/not-found.ts",
        "routes.ts": "src/routes/index.ts",
        "health.routes.ts": "src/routes/health.routes.ts",
        "health.controller.ts": "src/controllers/health.controller.ts",
    },
    "feature": {
        **_COMMON,
        "env.ts": "src/shared/config/env.ts",
        "database.ts": "src/shared/database/database.ts",
        "migrate.ts": "src/shared/database/migrate.ts",
        "constraints.ts": "src/shared/database/constraints.ts",
        "schema.ts": "src/shared/database/schema.ts",
        "relations.ts": "src/shared/database/relations.ts",
        "timestamps.ts": "src/shared/database/timestamps.ts",
        "constants.ts": "src/shared/constants.ts",
        "types.ts": "src/shared/types.ts",
        "models.ts": "src/shared/database/models.ts",
        "sync-indexes.ts": "src/shared/database/sync-indexes.ts",
        "indexes.ts": "src/shared/database/indexes.ts",
        "immutable-ledger.ts": "src/shared/database/immutable-ledger.ts",
        "http-error.ts": "src/shared/errors/http-error.ts",
        "error-handler.ts": "src/shared/middlewares/error-handler.ts",
        "not-found.ts": "src/shared/middlewares/not-found.ts",
        "routes.ts": "src/modules/index.ts",
        "health.routes.ts": "src/modules/health/health.routes.ts",
        "health.controller.ts": "src/modules/health/health.controller.ts",
    },
    # NestJS: one folder per Nest module; each model sits in its feature module's folder.
    "modular": {
        **_COMMON,
        "server.ts": "src/main.ts",
        "app.module.ts": "src/app.module.ts",
        "env.ts": "src/config/env.ts",
        "config.module.ts": "src/config/config.module.ts",
        "database.ts": "src/database/database.ts",
        "database.module.ts": "src/database/database.module.ts",
        "migrate.ts": "src/database/migrate.ts",
        "constraints.ts": "src/database/constraints.ts",
        "schema.ts": "src/database/schema.ts",
        "relations.ts": "src/database/relations.ts",
        "timestamps.ts": "src/database/timestamps.ts",
        "models.ts": "src/database/models.ts",
        "sync-indexes.ts": "src/database/sync-indexes.ts",
        "indexes.ts": "src/database/indexes.ts",
        "immutable-ledger.ts": "src/database/immutable-ledger.ts",
        "constants.ts": "src/common/constants.ts",
        "types.ts": "src/common/types.ts",
        "all-exceptions.filter.ts": "src/common/all-exceptions.filter.ts",
        "health.module.ts": "src/health/health.module.ts",
        "health.controller.ts": "src/health/health.controller.ts",
    },
    # Next.js (app router, API only): the route folders under src/app are the API. Next's
    # own config files sit in its project folder (rootDir), where `next` looks for them.
    "file-api": {
        "src": "src",
        "tests": "tests",
        "generated/prisma/client.ts": "src/generated/prisma/client.ts",
        "health.test.ts": "tests/health.test.ts",
        "env.test.ts": "tests/env.test.ts",
        "instrumentation.ts": "src/instrumentation.ts",
        "instrumentation-node.ts": "src/instrumentation-node.ts",
        "health.route.ts": "src/app/health/route.ts",
        "ready.route.ts": "src/app/health/ready/route.ts",
        "not-found.route.ts": "src/app/[[...notFound]]/route.ts",
        "next.config.ts": "next.config.ts",
        "tsconfig.json": "tsconfig.json",
        "http.ts": "src/lib/http.ts",
        "lifecycle.ts": "src/lib/lifecycle.ts",
        "env.ts": "src/lib/env.ts",
        "db.ts": "src/lib/db.ts",
        "constants.ts": "src/lib/constants.ts",
        "types.ts": "src/lib/types.ts",
        "database.ts": "src/db/database.ts",
        "migrate.ts": "src/db/migrate.ts",
        "constraints.ts": "src/db/constraints.ts",
        "schema.ts": "src/db/schema/index.ts",
        "relations.ts": "src/db/schema/relations.ts",
        "timestamps.ts": "src/db/schema/timestamps.ts",
        "models.ts": "src/models/index.ts",
        "sync-indexes.ts": "src/db/sync-indexes.ts",
        "indexes.ts": "src/db/indexes.ts",
        "immutable-ledger.ts": "src/db/immutable-ledger.ts",
    },
}

# --- data-model bundles --------------------------------------------------------

# Models of each bundle, in dependency order (a model comes after those it references).
BUNDLES: dict[str, list[str]] = {
    "auth": ["user", "session", "refresh-token", "otp"],
    "banking-app": ["user", "account", "transaction", "ledger"],
    "blog-app": ["user", "category", "post", "comment", "post-like", "comment-like"],
}
MODEL_ORDER = [
    "user", "session", "refresh-token", "otp", "account", "transaction", "ledger",
    "category", "post", "comment", "post-like", "comment-like",
]
# Mongoose embeds likes in posts and comments, so it has no like models.
RELATIONAL_ONLY = {"post-like", "comment-like"}
# The feature module each model lives in.
MODEL_MODULES = {
    "user": "users", "session": "auth", "refresh-token": "auth", "otp": "auth",
    "account": "accounts", "transaction": "transactions", "ledger": "ledgers",
    "category": "categories", "post": "posts", "comment": "comments",
    "post-like": "posts", "comment-like": "comments",
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
    fragment = (LAYERS_DIR / "models" / dialect / f"{model}.ts.jinja").read_text()
    return re.search(r'(?:pg|mysql)Table\(\s*"([a-z_]+)"', fragment).group(1)


def drop_tables_problem(confirmed: Any, tables: list[str]) -> str:
    """Refuse an update that removes models unless the user confirms it."""
    if tables and not confirmed:
        return (
            f"dropModelTables: the next db:generate would drop the removed models' tables "
            f"({', '.join(tables)}); answer true to confirm, or false and keep those models "
            "(see README: Removing models)"
        )
    return ""


def model_dialect(engine: str, adapter: str) -> str:
    """The models layer folder with a stack's model files: pg, mysql, mongoose, prisma-sql or prisma-mongodb."""
    if adapter == "mongoose":
        return "mongoose"
    if adapter == "prisma":
        return "prisma-mongodb" if engine == "mongodb" else "prisma-sql"
    return {"postgresql": "pg", "mysql": "mysql"}[engine]


# Where model files live per architecture: Drizzle's and Mongoose's folder ({module}: the
# model's feature module, MODEL_MODULES); Drizzle names them <model>.schema.ts inside a
# feature module and <model>.ts inside a schema folder, Mongoose <model>.model.ts.
MODEL_FOLDERS: dict[str, dict[str, str]] = {
    "mvc": {"drizzle": "src/db/schema", "mongoose": "src/models"},
    "feature": {"drizzle": "src/modules/{module}", "mongoose": "src/modules/{module}"},
    "modular": {"drizzle": "src/{module}", "mongoose": "src/{module}"},
    "file-api": {"drizzle": "src/db/schema", "mongoose": "src/models"},
}


# Prisma keeps its schema beside package.json, one file per model, whatever the architecture.
PRISMA_SCHEMA_FOLDER = "prisma/schema"


def model_file(architecture: str, adapter: str, model: str) -> str:
    """Where a model's file lives, relative to rootDir (Prisma's: to the project)."""
    if adapter == "prisma":
        return f"{PRISMA_SCHEMA_FOLDER}/{model}.prisma"
    template = MODEL_FOLDERS[architecture][adapter]
    folder = template.format(module=MODEL_MODULES[model])
    if adapter == "mongoose":
        return f"{folder}/{model}.model.ts"
    return f"{folder}/{model}.schema.ts" if "{module}" in template else f"{folder}/{model}.ts"


# --- the file plan: which fragment makes which file ----------------------------

# What differs between runtimes beyond their layer folders. `layers`: the runtime's
# folders under template/layers/runtimes (node-compatible: what Node and Bun share);
# `import_suffix`: of relative imports (Deno resolves only the real .ts name);
# `test_module`: where tests import describe/it/expect from (Deno: Deno.test);
# `test_runner`, `linter`, `builds`: what the generated README says of its scripts;
# `prisma_runtime`: the runtime Prisma's client generator writes for;
# `ci_node`: the Node.js versions CI runs on (on Bun and Deno, Node runs only the package manager).
RUNTIMES: dict[str, dict[str, Any]] = {
    "node": {
        "layers": ["node-compatible", "node"], "import_suffix": ".js", "test_module": "vitest", "prisma_runtime": "nodejs",
        "test_runner": "Vitest", "linter": "Biome", "builds": True, "ci_node": ["engines floor", "lts/*"],
    },
    "bun": {
        "layers": ["node-compatible", "bun"], "import_suffix": ".js", "test_module": "bun:test", "prisma_runtime": "bun",
        "test_runner": "`bun test`", "linter": "Biome", "builds": False, "ci_node": ["lts/*"],
    },
    "deno": {
        "layers": ["deno"], "import_suffix": ".ts", "test_module": None, "prisma_runtime": "deno",
        "test_runner": "`deno test`", "linter": "`deno lint` and `deno fmt`", "builds": False, "ci_node": ["lts/*"],
    },
}
# What differs between frameworks beyond their layer folders. `test_client`: how their
# tests send requests (README); `decorators`: Nest's dependency injection needs TypeScript's
# legacy decorators and Biome's parameter-decorator parsing; `own_tooling`: runtime folders
# the framework replaces with its own (Next.js brings its dev server, build and tsconfig,
# in its on-node overlay); `import_suffix`: of relative imports, where the framework's
# bundler resolves them (overrides the runtime's); `ci_env`: variables of the CI job;
# `build_output`: where `build` writes (default dist/); `generated`: further files the
# framework writes, which .gitignore lists (and so Biome ignores).
FRAMEWORKS: dict[str, dict[str, Any]] = {
    "express": {"test_client": "Supertest"},
    "hono": {"test_client": "`app.request`"},
    "nestjs": {"test_client": "`@nestjs/testing` and Supertest", "decorators": True},
    "nextjs": {
        "test_client": "route handlers called directly", "own_tooling": ["node"], "import_suffix": "",
        "ci_env": {"NEXT_TELEMETRY_DISABLED": "1"}, "build_output": ".next/",
        "generated": [".next/", "next-env.d.ts", "*.tsbuildinfo"],
    },
}


def _model_folders(a: Any) -> list[str]:
    """Shared model plumbing of the adapter, then the models of its dialect."""
    return [f"models/{a['databaseAdapter']}", f"models/{model_dialect(a['databaseEngine'], a['databaseAdapter'])}"]


# Layer folders under template/layers, in the order they are applied. Each row
# gives the folders of a layer for the answers (none when it does not apply); a
# folder that does not exist adds nothing. Adding a framework or an adapter is one
# folder, plus its BUILT entry and its row in FRAMEWORKS or versions.json.
LAYERS: list[tuple[str, Callable[[Any], list[str]]]] = [
    ("base", lambda a: ["base"]),
    ("package manager", lambda a: [f"package-managers/{a['packageManager']}"]),
    ("runtime tooling", lambda a: [f"runtimes/{folder}" for folder in _tooling_folders(a)]),
    ("framework shell", lambda a: [
        f"frameworks/{a['framework']}",
        f"frameworks/{a['framework']}/on-{a['runtime']}",
        *([f"frameworks/{a['framework']}/with-database"] if has_database(a) else []),
    ]),
    ("database service", lambda a: ["database"] if has_database(a) else []),
    ("data layer", lambda a: [f"data/{a['databaseAdapter']}"] if has_database(a) else []),
    ("models", lambda a: _model_folders(a) if model_keys(a) else []),
    ("bundles", lambda a: ["bundles"] if model_keys(a) else []),
]
# Overlay folders inside a framework folder, applied only where they say: on a runtime
# (frameworks/hono/on-deno) or with a database (frameworks/nestjs/with-database).
OVERLAY_PREFIXES = ("on-", "with-")
# A part of another fragment (runtimes/bun/_readme.md.jinja), included by it: no file of its own.
PARTIAL_PREFIX = "_"


def _tooling_folders(answers: Any) -> list[str]:
    """The runtime's tooling folders, less those its framework replaces with its own."""
    replaced = FRAMEWORKS[answers["framework"]].get("own_tooling", [])
    return [folder for folder in RUNTIMES[answers["runtime"]]["layers"] if folder not in replaced]


def has_database(answers: Any) -> bool:
    return answers.get("databaseEngine", NO_DATABASE) != NO_DATABASE


@functools.cache
def layer_fragments(folder: str) -> tuple[str, ...]:
    """Fragment names (paths inside the folder, '.jinja' removed) of one layer folder."""
    root = LAYERS_DIR / folder
    if not root.is_dir():
        return ()
    names = []
    for path in sorted(root.rglob("*.jinja")):
        relative = path.relative_to(root)
        partial = path.name.startswith(PARTIAL_PREFIX)
        if not partial and not any(part.startswith(OVERLAY_PREFIXES) for part in relative.parts[:-1]):
            names.append(relative.as_posix()[: -len(".jinja")])
    return tuple(names)


def plan_files(answers: Any) -> list[dict[str, Any]]:
    """Every file to generate: {'path', 'fragment' (template-relative), 'model'}.

    Model fragments (models/<dialect>/<model>.ts) make one file per chosen model;
    other fragments are placed by LAYOUTS or keep their path in the layer folder.
    Two fragments for one path is a template bug, reported here.
    """
    chosen = model_keys(answers)
    plan: dict[str, dict[str, Any]] = {}
    folders = dict.fromkeys(folder for _, folders_of in LAYERS for folder in folders_of(answers))
    for folder in folders:
        for name in layer_fragments(folder):
            stem = name.removesuffix(".ts").removesuffix(".prisma")
            model = stem if folder.startswith("models/") and stem in MODEL_ORDER else None
            if model and model not in chosen:
                continue
            needs = ONLY_WITH_MODELS.get(f"{folder}/{name}")
            if needs and not set(needs) & set(chosen):
                continue
            path = _layout_path(answers, f"model:{model}" if model else name)
            if path in plan:
                raise ValueError(f"{path} comes from two fragments: {plan[path]['fragment']} and {folder}/{name}")
            plan[path] = {"path": path, "fragment": f"template/layers/{folder}/{name}.jinja", "model": model}
    return list(plan.values())


# Model plumbing that only some models need: planned when one of them is chosen.
ONLY_WITH_MODELS: dict[str, tuple[str, ...]] = {
    # CHECKs and triggers that schema.prisma cannot express.
    "models/prisma-sql/constraints.ts": ("transaction", "ledger"),
    # MongoDB: the indexes Prisma cannot declare (TTL, text), and the ledger's immutability.
    "models/prisma-mongodb/indexes.ts": ("session", "refresh-token", "otp", "post"),
    "models/prisma-mongodb/sync-indexes.ts": ("session", "refresh-token", "otp", "post"),
    "models/prisma-mongodb/immutable-ledger.ts": ("ledger",),
}


# The answers a plan depends on.
PLAN_ANSWERS = (
    "rootDir", "packageManager", "runtime", "framework", "architecture", "databaseEngine", "databaseAdapter",
)


@functools.cache
def _plan_for(key: tuple[Any, ...], bundles: tuple[str, ...], models: tuple[str, ...]) -> list[dict[str, Any]]:
    return plan_files({**dict(zip(PLAN_ANSWERS, key)), "bundles": list(bundles), "models": list(models)})


@pass_context
def file_plan(context: Any) -> list[dict[str, Any]]:
    """The plan for the current answers (the `yield` in template/render).

    Copier renders the `yield` path once per file, so the plan is computed once per answers.
    """
    key = tuple(context.get(name) for name in PLAN_ANSWERS)
    listed = [tuple(str(item) for item in context.get(name) or []) for name in ("bundles", "models")]
    return _plan_for(key, *listed)


@pass_context
def planned(context: Any, key: str) -> bool:
    """Whether the current answers generate the layout file `key` (a file ONLY_WITH_MODELS may leave out)."""
    return _layout_path(context, key) in {file["path"] for file in file_plan(context)}


# --- the schema's rules, read from the schema itself -------------------------


def _const_path(node: dict[str, Any], path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], Any]:
    """Find the single `const` (or `enum`) an if/then branch constrains, and its path."""
    for key, sub in node.get("properties", {}).items():
        if "const" in sub:
            return path + (key,), [sub["const"]]
        if "enum" in sub:
            return path + (key,), sub["enum"]
        found = _const_path(sub, path + (key,))
        if found[0]:
            return found
    return (), None


def schema_rules(schema: dict[str, Any] = SCHEMA) -> dict[str, tuple[str, dict[str, list[str]]]]:
    """{child question: (parent question, {parent value: allowed child values})}."""
    by_field = {field: question for question, field in QUESTION_FIELDS.items()}
    rules: dict[str, tuple[str, dict[str, list[str]]]] = {}
    for rule in schema.get("allOf", []):
        parent_path, parent_values = _const_path(rule["if"])
        child_path, allowed = _const_path(rule["then"])
        parent, child = by_field[parent_path], by_field[child_path]
        rules.setdefault(child, (parent, {}))[1][parent_values[0]] = allowed
    return rules


def schema_enum(question: str, schema: dict[str, Any] = SCHEMA) -> list[str]:
    """Every value the schema allows for a question's field, whatever the parent."""
    node = schema
    for key in QUESTION_FIELDS[question]:
        node = node["properties"][key]
    values = list(node["enum"])
    return [NO_DATABASE, *values] if question == "databaseEngine" else values


RULES = schema_rules()


def allowed(question: str, parent_value: str | None = None) -> list[str]:
    """Values the schema allows for a question, given its parent's answer."""
    if question not in RULES:
        return schema_enum(question)
    _parent, table = RULES[question]
    return list(table.get(parent_value, []))


def built_values(question: str, parent_value: str | None = None) -> list[str]:
    """Values the schema allows for a question, given its parent's answer, that this release builds."""
    return [v for v in allowed(question, parent_value) if v in BUILT[question]]


def refusal(question: str, value: str, parent_value: str | None = None) -> str:
    """Why `value` cannot be chosen ("" when it can): names field, value and what is allowed."""
    valid = allowed(question, parent_value)
    offer = built_values(question, parent_value)
    choose = " or ".join(offer) if offer else "another value"
    if value not in valid:
        parent = RULES[question][0] if question in RULES else None
        where = f" on {parent} '{parent_value}'" if parent else ""
        return f"{question} '{value}' is not available{where}; choose {choose}"
    if value not in BUILT[question]:
        return f"{question} '{value}' is not built yet in this release of Stackwright; choose {choose}"
    return ""


def choices(question: str, parent_value: str | None = None) -> str:
    """Copier choices (as JSON, which is YAML) with a per-choice validator for refused ones."""
    return json.dumps(
        {
            value: {"value": value, "validator": refusal(question, value, parent_value)}
            for value in schema_enum(question)
        }
    )


def default_for(question: str, parent_value: str | None = None) -> str:
    """A default that is valid and built for every parent answer."""
    offer = built_values(question, parent_value)
    if PREFERRED[question] in offer:
        return PREFERRED[question]
    return offer[0] if offer else ""


# --- free-text answers --------------------------------------------------------

_NODE_BUILTINS = {
    "assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants",
    "crypto", "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2",
    "https", "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode",
    "querystring", "readline", "repl", "stream", "string_decoder", "sys", "timers", "tls",
    "trace_events", "tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib",
    "node_modules", "favicon.ico",
}


def npm_name_problem(name: Any) -> str:
    """Why `name` is not a valid new npm package name ("" when it is)."""
    name = str(name)
    head = f"projectName '{name}'"
    if not name:
        return "projectName must not be empty"
    if len(name) > 214:
        return f"{head} is longer than 214 characters"
    if name != name.strip():
        return f"{head} must not start or end with spaces"
    if name.lower() != name:
        return f"{head} must be lowercase"
    if name in _NODE_BUILTINS:
        return f"{head} is a reserved name (a Node.js core module or npm name)"
    match = re.fullmatch(r"(?:@([^/]*)/)?([^/]*)", name)
    if not match:
        return f"{head} may contain one '/' only, as in '@scope/name'"
    for part in filter(lambda p: p is not None, match.groups()):
        if not re.fullmatch(r"[a-z0-9-][a-z0-9._-]*", part):
            return (
                f"{head} may use only a-z, 0-9, '-', '.' and '_', and must not start with '.' or '_'"
            )
    return ""


def npm_name(folder: Any) -> str:
    """A valid npm package name made from a folder name (the projectName default)."""
    name = re.sub(r"[^a-z0-9._-]+", "-", str(folder).lower()).lstrip("._-").rstrip("-")[:214]
    return name if name and not npm_name_problem(name) else "stackwright-app"


def root_dir_problem(root_dir: Any) -> str:
    """Why `root_dir` is not a usable rootDir ("" when it is)."""
    value = str(root_dir)
    head = f"rootDir '{value}'"
    hint = "use a relative folder such as '.' or 'apps/api'"
    if value == ".":
        return ""
    if not value:
        return f"rootDir must not be empty; {hint}"
    if "\\" in value:
        return f"{head} must use '/' and no backslashes; {hint}"
    if value.startswith("/") or re.match(r"[A-Za-z]:", value):
        return f"{head} must be relative to stackwright.json, not absolute; {hint}"
    segments = value.split("/")
    if ".." in segments:
        return f"{head} must not leave the project with '..'; {hint}"
    if "" in segments or "." in segments:
        return f"{head} has an empty or '.' segment; {hint}"
    return ""


def release_version(commit: Any) -> str:
    """The template release (from its git tag, e.g. 'v1.2.0-3-gabc') as MAJOR.MINOR.PATCH."""
    match = re.match(r"v?(\d+)\.(\d+)\.(\d+)", str(commit or ""))
    return ".".join(str(int(p)) for p in match.groups()) if match else "0.0.0"


def is_release(commit: Any) -> bool:
    """Whether `_commit` is a release tag ('v1.2.0'), not an unreleased commit ('v1.2.0-3-gabc', 'abc1234')."""
    return re.fullmatch(r"v?[0-9]+\.[0-9]+\.[0-9]+", str(commit or "")) is not None


def update_command(commit: Any) -> str:
    """The `copier update` that takes a project generated from `commit` to the template's newest state.

    From a release, Copier's default target is the newest release. From an unreleased commit
    that target can be older than the commit (Copier then refuses: "Downgrades are not
    supported"), so such a project follows the template's latest commit instead.
    """
    return "copier update --trust --defaults" + ("" if is_release(commit) else " --vcs-ref=HEAD")


# How the generated README names a schema value: the one table of display names.
DISPLAY_NAMES = {
    "express": "Express", "nestjs": "NestJS", "nextjs": "Next.js", "hono": "Hono",
    "node": "Node.js", "deno": "Deno", "bun": "Bun",
}


def display_name(value: str) -> str:
    """A framework or runtime as people write it ('nextjs' -> 'Next.js')."""
    return DISPLAY_NAMES[value]


def with_article(name: str, capital: bool = False) -> str:
    """'a' or 'an' before a display name, by its first sound ('an Express', 'a NestJS').

    Every name in DISPLAY_NAMES is said as it is spelt, so a vowel letter is a vowel sound.
    `capital` starts a sentence ('An Express').
    """
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {name}"


# --- paths and packages, for the rendered files ------------------------------


def _in_root(context: Any, relpath: str) -> str:
    root = context.get("rootDir", ".")
    return relpath if root in ("", ".") else posixpath.join(root, relpath)


def _layout_path(context: Any, key: str) -> str:
    """Path of a file relative to the project: 'model:<name>' for models, else a layout key."""
    if key.startswith("model:"):
        model = key[len("model:") :]
        relpath = model_file(context["architecture"], context["databaseAdapter"], model)
        if context["databaseAdapter"] == "prisma":
            return relpath
    elif key in LAYOUTS[context["architecture"]]:
        relpath = LAYOUTS[context["architecture"]][key]
    else:
        return key  # at the project root, whatever rootDir is
    return _in_root(context, relpath)


@pass_context
def place(context: Any, key: str) -> str:
    """Path of a layout file (or 'model:<name>') for the chosen architecture and rootDir."""
    return _layout_path(context, key)


@pass_context
def import_path(context: Any, from_key: str, to_key: str) -> str:
    """ESM import specifier (NodeNext: '.js' suffix) from one layout file to another."""
    source, target = _layout_path(context, from_key), _layout_path(context, to_key)
    rel = posixpath.relpath(target, posixpath.dirname(source))
    rel = rel if rel.startswith(".") else f"./{rel}"
    return re.sub(r"\.ts$", _import_suffix(context), rel)


@pass_context
def relative_dir(context: Any, from_key: str, to_key: str) -> str:
    """The folder of one layout file, relative to the folder of another (Prisma's `output`)."""
    source, target = _layout_path(context, from_key), _layout_path(context, to_key)
    return posixpath.relpath(posixpath.dirname(target), posixpath.dirname(source))


def _import_suffix(context: Any) -> str:
    """What relative imports end in ('.js', '.ts' or ''): the framework's, else the runtime's."""
    return FRAMEWORKS[context["framework"]].get("import_suffix", RUNTIMES[context["runtime"]]["import_suffix"])


@pass_context
def import_extension(context: Any) -> str:
    """The extension relative imports end in, without its dot ('js', 'ts' or ''): Prisma's
    generator writes its client's imports with it."""
    return _import_suffix(context).lstrip(".")


@functools.cache
def constant_values(name: str) -> list[str]:
    """The values of a `export const NAME = [...] as const` list in the bundles' constants.ts,
    where they are defined (Prisma enums repeat them)."""
    source = (LAYERS_DIR / "bundles" / "constants.ts.jinja").read_text()
    found = re.search(rf"export const {name} = \[(.*?)\] as const;", source, re.S)
    return re.findall(r'"([^"]+)"', found.group(1))


def camel(value: str) -> str:
    """'email-verification' -> 'emailVerification' (a Prisma enum value's name)."""
    head, *rest = value.split("-")
    return head + "".join(part.capitalize() for part in rest)


def table_of(model: str) -> str:
    """A model's table name (the same for every SQL dialect and adapter: Prisma's models @@map
    onto the Drizzle variant's tables)."""
    return table_name("pg", model)


def prisma_format(text: str) -> str:
    """Lay out a Prisma schema as `prisma format` does: in each block, the field lines between
    blank lines (comments aside) put names, then types, then attributes in columns; a
    generator's or datasource's keys line up their `=`."""
    out: list[str] = []
    run: list[tuple[int, list[str]]] = []  # (index in out, cells) of the current group

    def flush() -> None:
        if run and all(cells[1:2] == ["="] for _, cells in run):
            width = max(len(cells[0]) for _, cells in run)
            for index, cells in run:
                out[index] = f"  {cells[0].ljust(width)} = {cells[2]}"
        elif run:
            widths = [max((len(c[i]) for _, c in run if len(c) > i), default=0) for i in range(2)]
            for index, cells in run:
                padded = [cell.ljust(widths[i]) if i < len(cells) - 1 else cell for i, cell in enumerate(cells)]
                out[index] = "  " + " ".join(padded)
        run.clear()

    for line in text.strip("\n").split("\n"):
        body = line.strip()
        if not line.startswith("  ") or not body or body.startswith("@@"):
            flush()
        elif not body.startswith("//"):
            if " = " in body:
                key, _, value = body.partition(" = ")
                cells = [key, "=", value]
            else:
                name, _, rest = body.partition(" ")
                kind, _, attributes = rest.partition(" ")
                cells = [cell for cell in (name, kind, attributes) if cell]
            run.append((len(out), cells))
        out.append(line.rstrip())
    flush()
    return "\n".join(out)


@pass_context
def compiled_path(context: Any, key: str) -> str:
    """Where `tsc -p tsconfig.build.json` writes a source file: dist/ mirrors the source folder."""
    source = posixpath.relpath(_layout_path(context, key), _layout_path(context, "src"))
    return posixpath.join("dist", re.sub(r"\.ts$", ".js", source))


@pass_context
def dependencies(context: Any, kind: str) -> dict[str, str]:
    """{package: exact version} for 'runtime' or 'dev', sorted like npm writes them."""
    names = [
        *VERSIONS["runtimeDependencies"][context["runtime"]][kind],
        *VERSIONS["frameworkDependencies"][context["framework"]][kind],
    ]
    pinned = VERSIONS["packages"]
    if has_database(context):
        stack = VERSIONS["adapterDependencies"][f"{context['databaseEngine']}/{context['databaseAdapter']}"]
        names += stack[kind]
        pinned = {**pinned, **stack.get("packages", {})}  # a stack that needs other versions
    return {name: pinned[name] for name in sorted(set(names))}


def _import_order(line: str) -> tuple[int, int, str]:
    """Biome's import order: node: builtins, packages, then paths, farthest first."""
    source = re.search(r'from "([^"]+)"', line)
    spec = source.group(1) if source else line
    if spec.startswith("node:"):
        return (0, 0, spec)
    if not spec.startswith("."):
        return (1, 0, spec)
    return (2, -spec.count("../"), spec.translate(_BIOME_RANK))


# Biome orders '.' before '_' before '-' before letters ('./comment.js' < './comment-like.js').
_BIOME_RANK = str.maketrans({".": " ", "_": "!", "-": "#"})


def sort_imports(block: str) -> str:
    """Sort single-line import statements the way Biome's organizeImports does.

    Relative paths differ between layouts, so their order does too.
    """
    lines = [line for line in block.strip("\n").split("\n") if line.strip()]
    return "\n".join(sorted(lines, key=_import_order))


def named_import(names: list[str], source: str) -> str:
    """`import { a, b } from "source";` as Biome formats it: on one line when it fits in
    biome.json's 100 columns, else one name per line. Paths differ between layouts, so the
    length does too."""
    line = f'import {{ {", ".join(names)} }} from "{source}";'
    if len(line) <= 100:
        return line
    return "import {\n" + "".join(f"  {name},\n" for name in names) + f'}} from "{source}";'


def db_name(project_name: Any) -> str:
    """A database name made from the npm package name ('@acme/my-api' -> 'my_api')."""
    return re.sub(r"[^a-z0-9_]+", "_", str(project_name).split("/")[-1].lower()).strip("_") or "app"


def package_manager_field(manager: str) -> str:
    """Value of package.json's packageManager field ("" for npm, which needs none)."""
    version = VERSIONS["packageManagers"].get(manager)
    return f"{manager}@{version}" if version else ""


# One row per package manager: the lockfile its first install writes, the plain install (no
# lockfile yet, or on purpose: CI defaults of pnpm and Yarn refuse to create one), and the
# install that follows the committed lockfile exactly and fails when package.json no longer
# matches it (what CI runs once the lockfile is committed).
INSTALLS: dict[str, dict[str, str]] = {
    "npm": {"lockfile": "package-lock.json", "install": "npm install", "frozen": "npm ci"},
    "pnpm": {
        "lockfile": "pnpm-lock.yaml",
        "install": "pnpm install --no-frozen-lockfile",
        "frozen": "pnpm install --frozen-lockfile",
    },
    "yarn": {"lockfile": "yarn.lock", "install": "yarn install --no-immutable", "frozen": "yarn install --immutable"},
    "bun": {"lockfile": "bun.lock", "install": "bun install", "frozen": "bun install --frozen-lockfile"},
}


def install_command(manager: str) -> str:
    """How the chosen package manager installs a fresh project (and writes its lockfile)."""
    return INSTALLS[manager]["install"]


def frozen_install_command(manager: str) -> str:
    """How the chosen package manager installs exactly what the committed lockfile says."""
    return INSTALLS[manager]["frozen"]


def lockfile(manager: str) -> str:
    """The lockfile the chosen package manager writes."""
    return INSTALLS[manager]["lockfile"]


# Dependencies whose install scripts a generated project needs: esbuild (under tsx, vitest
# and drizzle-kit) checks its platform binary in its postinstall. pnpm 10+ and Yarn 4.14+
# run no dependency's install script unless allowed (pnpm 11+ fails the install with
# ERR_PNPM_IGNORED_BUILDS), so pnpm-workspace.yaml (allowBuilds) and, for Yarn,
# package.json (dependenciesMeta) allow exactly these. npm 11.16+ lists the scripts that
# package.json's `allowScripts` does not cover after every install, and npm 12 skips them,
# so npm projects list the same. Bun trusts esbuild.
BUILD_SCRIPT_DEPENDENCIES = ["esbuild"]
# Install scripts a project turns down, by database adapter (pnpm-workspace.yaml and npm's
# allowScripts list them as false, so neither asks): Prisma's fetch its native engines and generate a client.
# Its CLI fetches an engine when a command first needs one, and the project's own postinstall
# generates the client.
DECLINED_BUILD_SCRIPTS = {"prisma": ["@prisma/client", "@prisma/engines", "prisma"]}


@pass_context
def declined_build_scripts(context: Any) -> list[str]:
    """The install scripts the current answers' project turns down (DECLINED_BUILD_SCRIPTS)."""
    return DECLINED_BUILD_SCRIPTS.get(context.get("databaseAdapter"), []) if has_database(context) else []


def run_command(manager: str, script: str) -> str:
    """How the chosen package manager runs a package.json script."""
    return f"{manager} run {script}"


def _reuse_compiled_strings(environment: Environment) -> None:
    """Compile each templated string once per run.

    Copier compiles a question's help, choices, default, validator and `when`,
    and every path part, each time it renders them, and it renders them again
    for every question asked: hundreds of compiles of the same few strings. A
    compiled template depends only on its source (globals are bound at render),
    so the code object can be reused. Extensions' preprocess hooks still run on
    every use: Copier's `yield` resets its state there.
    """
    compile_source = environment.compile
    cache: dict[str, Any] = {}

    def compile_once(  # Environment.compile's signature
        source: Any, name: Any = None, filename: Any = None, raw: bool = False, defer_init: bool = False
    ) -> Any:
        if not isinstance(source, str) or name is not None or filename is not None or raw or defer_init:
            return compile_source(source, name, filename, raw, defer_init)
        if source not in cache:
            cache[source] = compile_source(source)
        else:
            environment.preprocess(source)
        return cache[source]

    environment.compile = compile_once  # type: ignore[method-assign]


class _FragmentBytecodeCache(FileSystemBytecodeCache):
    """Compiled fragments kept between runs (in Jinja's per-user temp cache folder).

    Keyed by the fragment's name inside the template, not by its file path:
    Copier renders from a fresh temporary clone each run. Jinja recompiles when
    the source's checksum differs, and the Jinja and Copier versions are part of
    the key, so a stale entry is never used.
    """

    def __init__(self) -> None:
        super().__init__(pattern="stackwright-%s.jinja-cache")
        self.versions = f"{importlib.metadata.version('jinja2')}|{importlib.metadata.version('copier')}"

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha1(f"{name}|{self.versions}".encode()).hexdigest()


class StackwrightExtension(Extension):
    """Adds Stackwright's globals and filters to Copier's Jinja environment."""

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        _reuse_compiled_strings(environment)
        if environment.bytecode_cache is None:
            environment.bytecode_cache = _FragmentBytecodeCache()
        environment.globals.update(
            choices=choices,
            bundle_names=lambda: json.dumps(list(BUNDLES)),
            model_choices=model_choices,
            all_model_items=all_model_items,
            selected_models=selected_models,
            dropped_tables=dropped_tables,
            file_plan=file_plan,
            planned=planned,
            default_for=default_for,
            place=place,
            import_path=import_path,
            compiled_path=compiled_path,
            relative_dir=relative_dir,
            import_extension=import_extension,
            constant_values=constant_values,
            dependencies=dependencies,
            versions=VERSIONS,
            schema_text=SCHEMA_PATH.read_text,
            package_manager_field=package_manager_field,
            run_command=run_command,
            runtimes=RUNTIMES,
            frameworks=FRAMEWORKS,
            install_command=install_command,
            frozen_install_command=frozen_install_command,
            lockfile=lockfile,
            update_command=update_command,
            build_script_dependencies=BUILD_SCRIPT_DEPENDENCIES,
            declined_build_scripts=declined_build_scripts,
        )
        environment.filters.update(
            npm_name=npm_name,
            npm_name_problem=npm_name_problem,
            root_dir_problem=root_dir_problem,
            release_version=release_version,
            display_name=display_name,
            is_release=is_release,
            with_article=with_article,
            sort_imports=sort_imports,
            named_import=named_import,
            prisma_format=prisma_format,
            camel=camel,
            table_of=table_of,
            db_name=db_name,
            models_problem=models_problem,
            drop_tables_problem=drop_tables_problem,
        )
