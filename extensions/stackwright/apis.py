"""The domain APIs: which projects serve one, and the `apis` question.

An API serves the models of one bundle (../shared/design/domain-api.md is its contract),
so it needs every model of that bundle. API_BUILT says on which stacks this release
generates it; elsewhere the choice is refused with the reason, and the models come alone.
"""

from __future__ import annotations

import json
from typing import Any

from jinja2 import pass_context

from .bundles import bundle_models, model_keys

# API -> the bundle whose models it serves.
APIS: dict[str, str] = {"auth": "auth", "bank": "banking-app", "blog": "blog-app"}
# API -> the APIs it builds on: the bank and the blog serve signed-in users.
API_NEEDS: dict[str, list[str]] = {"bank": ["auth"], "blog": ["auth"]}

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
# Where each API is built.
API_BUILT: dict[str, dict[str, list[str]]] = {
    "auth": {"stack": EVERY_STACK, "data": EVERY_DATA_LAYER},
    "bank": {"stack": EVERY_STACK, "data": EVERY_DATA_LAYER},
    "blog": {"stack": EVERY_STACK, "data": EVERY_DATA_LAYER},
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
    """selected_apis() for the current answers (fragments: `{% if 'auth' in apis_of() %}`)."""
    return selected_apis(context)
