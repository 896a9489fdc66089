"""The domain APIs: which projects serve one, and the `apis` question.

Each API is one folder, template/layers/apis/<api>/, whose manifest (api.yml) names the
bundle whose models it serves (../shared/design/domain-api.md is its contract; it needs every
model of that bundle), the APIs it builds on, and where its files go. API_BUILT says on which
stacks this release generates it; elsewhere the choice is refused with the reason, and the
models come alone.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import yaml
from jinja2 import pass_context

from .bundles import bundle_models, model_keys
from .paths import LAYERS_DIR, ROOT
from .stacks import FRAMEWORKS

# What every API uses (validation, errors, OpenAPI, the test server): apis/shared/, no manifest.
SHARED_API_FOLDER = "shared"
API_FOLDERS = LAYERS_DIR / "apis"


def _read_manifests() -> dict[str, dict[str, Any]]:
    """Every API's manifest, each after the APIs it builds on (the order mounts and lists use)."""
    found = {path.parent.name: yaml.safe_load(path.read_text()) for path in sorted(API_FOLDERS.glob("*/api.yml"))}
    ordered: dict[str, dict[str, Any]] = {}
    while len(ordered) < len(found):
        ready = [api for api, m in found.items() if api not in ordered and set(m.get("needs") or []) <= set(ordered)]
        if not ready:
            raise ValueError(f"the APIs' needs form a cycle or name a missing API: {sorted(set(found) - set(ordered))}")
        ordered.update({api: found[api] for api in ready})
    return ordered


MANIFESTS = _read_manifests()
# API -> the bundle whose models it serves.
APIS: dict[str, str] = {api: m["bundle"] for api, m in MANIFESTS.items()}
# API -> the APIs it builds on: the bank and the blog serve signed-in users.
API_NEEDS: dict[str, list[str]] = {api: list(m.get("needs") or []) for api, m in MANIFESTS.items()}

# Every stack ("runtime/framework") and data layer ("engine/adapter") this release builds.
EVERY_STACK = ["node/express", "node/nestjs", "node/nextjs", "bun/hono", "bun/express", "deno/hono"]
EVERY_DATA_LAYER = [
    "postgresql/drizzle",
    "mysql/drizzle",
    "postgresql/prisma",
    "mysql/prisma",
    "mongodb/mongoose",
    "mongodb/prisma",
]
# Where each API is built: its manifest's `built` lists, or every stack and data layer.
API_BUILT: dict[str, dict[str, list[str]]] = {
    api: {
        "stack": (m.get("built") or {}).get("stack", EVERY_STACK),
        "data": (m.get("built") or {}).get("data", EVERY_DATA_LAYER),
    }
    for api, m in MANIFESTS.items()
}


def api_refusal(api: str, answers: Any) -> str:
    """Why `api` cannot be served with these answers ("" when it can): one line."""
    bundle = APIS[api]
    if bundle not in (answers.get("bundles") or []):
        return f"apis: {api} needs the {bundle} bundle; choose it, or leave {api} out"
    adapter, engine = answers.get("databaseAdapter"), answers.get("databaseEngine")
    chosen = set(model_keys(answers))
    missing = [f"{bundle}/{m}" for m in bundle_models(bundle, adapter, engine) if m not in chosen]
    if missing:
        return f"apis: {api} needs every {bundle} model (add {', '.join(missing)}), or leave {api} out for the models alone"
    for needed in API_NEEDS.get(api, []):
        why = api_refusal(needed, answers)
        if why:
            return f"apis: {api} needs the {needed} API ({why.removeprefix('apis: ')})"
    built = API_BUILT[api]
    here = {"stack": f"{answers.get('runtime')}/{answers.get('framework')}", "data": f"{engine}/{adapter}"}
    for part, value in here.items():
        if value not in built[part]:
            offered = ", ".join(built[part])
            return f"apis: {api} is not built yet on {value} (built on {offered}); leave it out for the models alone"
    return ""


@pass_context
def api_choices(context: Any) -> str:
    """Choices of the `apis` question (JSON): every API, refused ones with the reason."""
    offered: dict[str, Any] = {}
    for api in APIS:
        why = api_refusal(api, context)
        offered[api] = {"value": api, "validator": why} if why else api
    return json.dumps(offered)


@pass_context
def default_apis(context: Any) -> str:
    """Default of the `apis` question: every API these answers can serve."""
    return json.dumps([api for api in APIS if not api_refusal(api, context)])


def selected_apis(answers: Any) -> list[str]:
    """The APIs the answers generate (a refused one never is, nor one without the APIs it needs)."""
    chosen = answers.get("apis") or []
    return [
        api
        for api in APIS
        if api in chosen and not api_refusal(api, answers) and set(API_NEEDS.get(api, [])) <= set(chosen)
    ]


def apis_problem(chosen: Any) -> str:
    """The `apis` validator: an API chosen without one it builds on, in one line ("" when none)."""
    for api in chosen or []:
        missing = [needed for needed in API_NEEDS.get(api, []) if needed not in chosen]
        if missing:
            return f"apis: {api} needs the {', '.join(missing)} API too; choose it, or leave {api} out"
    return ""


@pass_context
def apis_of(context: Any) -> list[str]:
    """selected_apis() for the current answers (fragments: `{% for api in apis_of() %}`)."""
    return selected_apis(context)


@pass_context
def api_wiring(context: Any) -> list[dict[str, Any]]:
    """How shared fragments wire each chosen API, in mount order (its manifest, plus names).

    By convention an API `x` has `XService` in x.service.ts, `createX` in create-x.ts,
    `xEndpoints` in x.schemas.ts and `XModule` in x.module.ts (NestJS); its manifest adds
    `settings` (the type its factory takes after the database), `uses` (the services it takes
    after the database), `mounts` (its routers), `worker` (the function of create-x.ts that
    starts its background worker) and `seed` (the function of x.seed.ts that makes its seed data).
    """
    wiring = []
    for api in selected_apis(context):
        manifest = MANIFESTS[api]
        title = api[:1].upper() + api[1:]
        wiring.append(
            {
                "name": api,
                "service": f"{title}Service",
                "factory": f"create{title}",
                "endpoints": f"{api}Endpoints",
                "module": f"{title}Module",
                "settings": manifest.get("settings"),
                "uses": manifest.get("uses") or [],
                "mounts": manifest.get("mounts") or [],
                "worker": manifest.get("worker"),
                "seed": manifest.get("seed"),
            }
        )
    return wiring


@pass_context
def api_parts(context: Any, part: str) -> list[str]:
    """The chosen APIs' parts of a shared file: template/layers/apis/<api>/_<part>.jinja,
    for each API that has one (`{% for path in api_parts('env') %}{% include path %}`)."""
    paths = [API_FOLDERS / api / f"_{part}.jinja" for api in selected_apis(context)]
    return [f"template/layers/apis/{path.parent.name}/{path.name}" for path in paths if path.is_file()]


@pass_context
def api_scripts(context: Any) -> dict[str, str]:
    """The chosen APIs' package.json scripts: name -> the layout file it runs (manifest `scripts`)."""
    return {
        name: file for api in selected_apis(context) for name, file in (MANIFESTS[api].get("scripts") or {}).items()
    }


@pass_context
def api_worker_scripts(context: Any) -> dict[str, str]:
    """The chosen APIs' scripts that run their worker alone: name -> its layout file (manifest
    `worker_script`); a production image holds them beside the server (deploy/kubernetes)."""
    return {
        name: MANIFESTS[api]["scripts"][name]
        for api in selected_apis(context)
        for name in [MANIFESTS[api].get("worker_script")]
        if name
    }


@pass_context
def apis_with(context: Any, key: str) -> list[str]:
    """The chosen APIs whose manifest sets `key` (a need of theirs that a shared file meets)."""
    return [api for api in selected_apis(context) if MANIFESTS[api].get(key)]


@functools.cache
def _fragments_text(api: str, folder: str = "") -> str:
    """An API's fragments under `folder` (all of them by default), as one text."""
    return "\n".join(path.read_text() for path in sorted((API_FOLDERS / api / folder).rglob("*.jinja")))


def _calls(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b{name}\s*[(<]")


@pass_context
def storage_helper_used(context: Any, name: str) -> bool:
    """Whether a chosen API's repositories call the shared storage helper `name`: the shared
    repository-support.ts holds only those (no unused export for knip)."""
    return any(_calls(name).search(_fragments_text(api, "storage")) for api in selected_apis(context))


@pass_context
def named_by_dependents(context: Any, api: str, name: str) -> bool:
    """Whether the generated files of a chosen API built on `api` name `name` (what `api` offers
    them: auth.public.ts exports only that)."""
    from .file_plan import file_plan  # the plan reads the manifests: imported when rendering

    dependents = [other for other in selected_apis(context) if api in API_NEEDS[other]]
    word = re.compile(rf"\b{name}\b")
    return any(
        word.search((ROOT / planned["fragment"]).read_text())
        for planned in file_plan(context)
        for other in dependents
        if planned["fragment"].startswith(f"template/layers/apis/{other}/")
    )


@pass_context
def api_database_scripts(context: Any) -> list[str]:
    """The chosen APIs' scripts that open the database (manifest `database_scripts`)."""
    return [name for api in selected_apis(context) for name in MANIFESTS[api].get("database_scripts") or []]


# The suffix of an API's own tables (models) in its storage folder, per adapter: not a bundle's model.
API_TABLE_SUFFIXES = {"drizzle": ".api-table.ts", "mongoose": ".api-model.ts"}


def unneeded_api_files(context: Any) -> set[str]:
    """The chosen APIs' files no chosen file uses, as "<api>/<file name>": those for the APIs
    built on them (manifest `for_dependents`) where no chosen API builds on theirs; and where the
    framework's modules build the services (`builds_services`), an API's factory (create-<api>.ts)
    that holds nothing else (no `settings`, no `worker`)."""
    apis = selected_apis(context)
    modules_build = FRAMEWORKS[context["framework"]].get("builds_services", False)
    return {
        f"{api}/{name}"
        for api in apis
        if not any(api in API_NEEDS[other] for other in apis)
        for name in MANIFESTS[api].get("for_dependents") or []
    } | {
        f"{api}/create-{api}.ts"
        for api in apis
        if modules_build and not (MANIFESTS[api].get("settings") or MANIFESTS[api].get("worker"))
    }


def api_folders_of(context: Any) -> list[str]:
    """The API folders of the chosen APIs: `shared` (what every API uses), then one per API."""
    apis = selected_apis(context)
    return [SHARED_API_FOLDER, *apis] if apis else []


@pass_context
def api_tables(context: Any) -> list[str]:
    """The chosen APIs' own Drizzle tables or Mongoose models (storage/<adapter>/<name>.api-table.ts,
    .api-model.ts): the schema (models.ts) exports them, so migrations (index syncs) make them.
    Prisma's go in prisma/schema/ (manifest `places`), which Prisma reads whole."""
    adapter = context.get("databaseAdapter")
    suffix = API_TABLE_SUFFIXES.get(adapter)
    if not suffix:
        return []
    return [
        path.name.removesuffix(".jinja")
        for api in api_folders_of(context)
        for path in sorted((API_FOLDERS / api / "storage" / adapter).glob(f"*{suffix}.jinja"))
    ]
