"""Where each file lives for each architecture, and the paths between files.

Keys of LAYOUTS are fragment names (template/layers/**/<name>.jinja); model files are
placed by model_file(). Fragments use place() and import_path() rather than spelling a
path, so one fragment serves every architecture and rootDir.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Collection
from typing import Any

from jinja2 import pass_context

from .apis import API_FOLDERS, MANIFESTS, selected_apis
from .bundles import BUNDLES, MODEL_MODULES
from .paths import PARTIAL_PREFIX
from .stacks import FRAMEWORKS, RUNTIMES

# Where a fragment's file lives in each architecture, relative to rootDir. Keys
# are fragment names (template/layers/**/<name>.jinja), which are also what
# place() and import_path() take; a fragment not listed here keeps its path in
# its layer folder, relative to the project root.
_COMMON = {
    "src": "src",
    # The typed client of the APIs (a package of its own, beside the sources): its folder.
    "client": "client",
    "client/package.json": "client/package.json",
    # Prisma's generated client (prisma-client generator), in the sources so tsc checks its use.
    "generated/prisma/client.ts": "src/generated/prisma/client.ts",
    "tests": "tests",
    "app.ts": "src/app.ts",
    "server.ts": "src/server.ts",
    # Hono on Bun: how Bun.serve sends the app's answers (server.ts and the tests' server alike).
    "bun-serve.ts": "src/bun-serve.ts",
    # Where the server builds its edge (rate limits in the database): beside it, above all else.
    "server-edge.ts": "src/server-edge.ts",
    # Where the server registers OpenTelemetry's SDK (traces and metrics), beside it.
    "start-telemetry.ts": "src/start-telemetry.ts",
    # What `dev` and `test` run through: an embedded PostgreSQL when DATABASE_URL is not set.
    "embedded-postgres.ts": "src/embedded-postgres.ts",
    "health.test.ts": "tests/health.test.ts",
    "env.test.ts": "tests/env.test.ts",
    "edge.test.ts": "tests/edge.test.ts",
    # What every domain API's tests run on.
    "test-server.ts": "tests/support/test-server.ts",
    "api-client.ts": "tests/support/api-client.ts",
    "routes.test.ts": "tests/routes.test.ts",
    "served-edge.test.ts": "tests/served-edge.test.ts",
    "database-faults.test.ts": "tests/database-faults.test.ts",
    "tcp-proxy.ts": "tests/support/tcp-proxy.ts",
    # A stand-in OpenTelemetry collector: what the server exports, as received.
    "otlp-collector.ts": "tests/support/otlp-collector.ts",
}


LAYOUTS: dict[str, dict[str, str]] = {
    "mvc": {
        **_COMMON,
        # `dev` checks the environment with it before it starts watching.
        "check-env.ts": "src/config/check-env.ts",
        "database-faults.ts": "src/utils/database-faults.ts",
        "shutdown.ts": "src/utils/shutdown.ts",
        "env.ts": "src/config/env.ts",
        "database.ts": "src/db/database.ts",
        "migrate.ts": "src/db/migrate.ts",
        "constraints.ts": "src/db/constraints.ts",
        "schema.ts": "src/db/schema/index.ts",
        "relations.ts": "src/db/schema/relations.ts",
        "timestamps.ts": "src/db/schema/timestamps.ts",
        "constants.ts": "src/config/constants.ts",
        "types.ts": "src/types/index.ts",
        "models.ts": "src/models/index.ts",
        "sync-indexes.ts": "src/scripts/sync-indexes.ts",
        # `client:generate`: the typed client's document and types (client/).
        "write-client.ts": "src/scripts/write-client.ts",
        "indexes.ts": "src/db/indexes.ts",
        "immutable-ledger.ts": "src/db/immutable-ledger.ts",
        "http-error.ts": "src/utils/http-error.ts",
        "error-codes.ts": "src/utils/error-codes.ts",
        "edge.ts": "src/utils/edge.ts",
        "logger.ts": "src/utils/logger.ts",
        "telemetry.ts": "src/utils/telemetry.ts",
        "rate-limits.ts": "src/utils/rate-limits.ts",
        "api-docs.ts": "src/utils/api-docs.ts",
        "rate-limit-store.ts": "src/db/rate-limit-store.ts",
        # Drizzle: the shared rate limits' table, beside the models.
        "rate-limit.api-table.ts": "src/db/rate-limit.api-table.ts",
        "http-edge.ts": "src/utils/http-edge.ts",
        "edge.middleware.ts": "src/middlewares/edge.middleware.ts",
        "error-handler.ts": "src/middlewares/error-handler.ts",
        "not-found.ts": "src/middlewares/not-found.ts",
        "routes.ts": "src/routes/index.ts",
        "health.routes.ts": "src/routes/health.routes.ts",
        "health.controller.ts": "src/controllers/health.controller.ts",
        # The domain APIs: services, repositories, HTTP.
        "domain-error.ts": "src/utils/domain-error.ts",
        "validation.ts": "src/utils/validation.ts",
        "pagination.ts": "src/utils/pagination.ts",
        "openapi.ts": "src/routes/openapi.ts",
        "endpoint.ts": "src/utils/endpoint.ts",
        "api-endpoints.ts": "src/routes/api-endpoints.ts",
        "repository-support.ts": "src/repositories/repository-support.ts",
        "api.routes.ts": "src/routes/api.routes.ts",
        # The composition root: it builds every service (create-*.ts beside it), so it sits
        # above the services and the repositories it joins.
        "services.ts": "src/composition/index.ts",
        "endpoint-router.ts": "src/utils/endpoint-router.ts",
    },
    "feature": {
        **_COMMON,
        # `dev` checks the environment with it before it starts watching.
        "check-env.ts": "src/shared/config/check-env.ts",
        "database-faults.ts": "src/shared/database/database-faults.ts",
        "shutdown.ts": "src/shared/shutdown.ts",
        "env.ts": "src/shared/config/env.ts",
        "database.ts": "src/database/database.ts",
        "migrate.ts": "src/shared/database/migrate.ts",
        "constraints.ts": "src/database/constraints.ts",
        "schema.ts": "src/database/schema.ts",
        "relations.ts": "src/database/relations.ts",
        "timestamps.ts": "src/shared/database/timestamps.ts",
        "constants.ts": "src/shared/constants.ts",
        "types.ts": "src/shared/types.ts",
        "models.ts": "src/database/models.ts",
        "sync-indexes.ts": "src/database/sync-indexes.ts",
        # `client:generate`: the typed client's document and types (client/).
        "write-client.ts": "src/scripts/write-client.ts",
        "indexes.ts": "src/shared/database/indexes.ts",
        "immutable-ledger.ts": "src/shared/database/immutable-ledger.ts",
        "http-error.ts": "src/shared/errors/http-error.ts",
        "error-codes.ts": "src/shared/errors/error-codes.ts",
        "edge.ts": "src/shared/edge/edge.ts",
        "logger.ts": "src/shared/logger.ts",
        "telemetry.ts": "src/shared/telemetry.ts",
        "rate-limits.ts": "src/shared/edge/rate-limits.ts",
        "api-docs.ts": "src/shared/edge/api-docs.ts",
        "rate-limit-store.ts": "src/database/rate-limit-store.ts",
        # Drizzle: the shared rate limits' table, beside the models.
        "rate-limit.api-table.ts": "src/database/rate-limit.api-table.ts",
        "http-edge.ts": "src/shared/middlewares/http-edge.ts",
        "edge.middleware.ts": "src/shared/middlewares/edge.middleware.ts",
        "error-handler.ts": "src/shared/middlewares/error-handler.ts",
        "not-found.ts": "src/shared/middlewares/not-found.ts",
        "routes.ts": "src/modules/index.ts",
        "health.routes.ts": "src/modules/health/health.routes.ts",
        "health.controller.ts": "src/modules/health/health.controller.ts",
        # The domain APIs: shared pieces in src/shared, each API in its module.
        "domain-error.ts": "src/shared/errors/domain-error.ts",
        "validation.ts": "src/shared/validation.ts",
        "pagination.ts": "src/shared/pagination.ts",
        # What serves every API (the route registry, the mounts, the OpenAPI document): src/api/.
        "openapi.ts": "src/api/openapi.ts",
        "endpoint.ts": "src/shared/endpoint.ts",
        "api-endpoints.ts": "src/api/api-endpoints.ts",
        "endpoint-router.ts": "src/shared/endpoint-router.ts",
        "api.routes.ts": "src/api/api.routes.ts",
        "services.ts": "src/services.ts",
        "repository-support.ts": "src/shared/database/repository-support.ts",
    },
    # NestJS: one folder per Nest module; each model sits in its feature module's folder.
    "modular": {
        **_COMMON,
        # `dev` checks the environment with it before it starts watching.
        "check-env.ts": "src/config/check-env.ts",
        "database-faults.ts": "src/common/database-faults.ts",
        "shutdown.ts": "src/common/shutdown.ts",
        "server.ts": "src/main.ts",
        "app.module.ts": "src/app.module.ts",
        "env.ts": "src/config/env.ts",
        "config.module.ts": "src/config/config.module.ts",
        "database.ts": "src/database/database.ts",
        "database.module.ts": "src/database/database.module.ts",
        "database.token.ts": "src/common/database.token.ts",
        "migrate.ts": "src/database/migrate.ts",
        "constraints.ts": "src/database/constraints.ts",
        "schema.ts": "src/database/schema.ts",
        "relations.ts": "src/database/relations.ts",
        "timestamps.ts": "src/common/timestamps.ts",
        "models.ts": "src/database/models.ts",
        "sync-indexes.ts": "src/database/sync-indexes.ts",
        # `client:generate`: the typed client's document and types (client/).
        "write-client.ts": "src/scripts/write-client.ts",
        "indexes.ts": "src/database/indexes.ts",
        "immutable-ledger.ts": "src/common/immutable-ledger.ts",
        "constants.ts": "src/common/constants.ts",
        "types.ts": "src/common/types.ts",
        "all-exceptions.filter.ts": "src/common/all-exceptions.filter.ts",
        "error-codes.ts": "src/common/error-codes.ts",
        "edge.ts": "src/common/edge.ts",
        "logger.ts": "src/common/logger.ts",
        "telemetry.ts": "src/common/telemetry.ts",
        "rate-limits.ts": "src/common/rate-limits.ts",
        "api-docs.ts": "src/common/api-docs.ts",
        "rate-limit-store.ts": "src/database/rate-limit-store.ts",
        # Drizzle: the shared rate limits' table, beside the models.
        "rate-limit.api-table.ts": "src/database/rate-limit.api-table.ts",
        "http-edge.ts": "src/common/http-edge.ts",
        "nest-logger.ts": "src/common/nest-logger.ts",
        "nest-edge.ts": "src/common/nest-edge.ts",
        "health.module.ts": "src/health/health.module.ts",
        "health.controller.ts": "src/health/health.controller.ts",
        # The domain APIs: shared pieces in src/common and src/api, each API in its module.
        "domain-error.ts": "src/common/domain-error.ts",
        "validation.ts": "src/common/validation.ts",
        "pagination.ts": "src/common/pagination.ts",
        "openapi.ts": "src/api/openapi.ts",
        "endpoint.ts": "src/common/endpoint.ts",
        "api-endpoints.ts": "src/api/api-endpoints.ts",
        "api.module.ts": "src/api/api.module.ts",
        "repository-support.ts": "src/common/repository-support.ts",
        "route.decorator.ts": "src/common/route.decorator.ts",
    },
    # Next.js (app router, API only): the route folders under src/app are the API. Next's
    # own config files sit in its project folder (rootDir), where `next` looks for them.
    "file-api": {
        "src": "src",
        # The typed client of the APIs (a package of its own, beside the sources): its folder.
        "client": "client",
        "client/package.json": "client/package.json",
        # `dev` checks the environment with it before it starts watching.
        "check-env.ts": "src/lib/check-env.ts",
        "database-faults.ts": "src/lib/database-faults.ts",
        "shutdown.ts": "src/lib/shutdown.ts",
        "tests": "tests",
        "generated/prisma/client.ts": "src/generated/prisma/client.ts",
        "health.test.ts": "tests/health.test.ts",
        "env.test.ts": "tests/env.test.ts",
        "edge.test.ts": "tests/edge.test.ts",
        "test-server.ts": "tests/support/test-server.ts",
        "api-client.ts": "tests/support/api-client.ts",
        "routes.test.ts": "tests/routes.test.ts",
        "served-edge.test.ts": "tests/served-edge.test.ts",
        "database-faults.test.ts": "tests/database-faults.test.ts",
        "tcp-proxy.ts": "tests/support/tcp-proxy.ts",
        "otlp-collector.ts": "tests/support/otlp-collector.ts",
        # Next's custom server: the process, and the edge it puts before Next's handler.
        "server.ts": "src/server.ts",
        "next-edge.ts": "src/lib/next-edge.ts",
        "health.route.ts": "src/app/health/route.ts",
        "ready.route.ts": "src/app/health/ready/route.ts",
        "not-found.route.ts": "src/app/[[...notFound]]/route.ts",
        "next.config.ts": "next.config.ts",
        "tsconfig.json": "tsconfig.json",
        "http.ts": "src/lib/http.ts",
        "error-codes.ts": "src/lib/error-codes.ts",
        "edge.ts": "src/lib/edge.ts",
        "logger.ts": "src/lib/logger.ts",
        "telemetry.ts": "src/lib/telemetry.ts",
        "rate-limits.ts": "src/lib/rate-limits.ts",
        "api-docs.ts": "src/lib/api-docs.ts",
        "rate-limit-store.ts": "src/db/rate-limit-store.ts",
        # Drizzle: the shared rate limits' table, beside the models.
        "rate-limit.api-table.ts": "src/db/rate-limit.api-table.ts",
        "http-edge.ts": "src/lib/http-edge.ts",
        "lifecycle.ts": "src/lib/lifecycle.ts",
        "env.ts": "src/lib/env.ts",
        "db.ts": "src/db/client.ts",
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
        # `client:generate`: the typed client's document and types (client/).
        "write-client.ts": "src/scripts/write-client.ts",
        "indexes.ts": "src/db/indexes.ts",
        "immutable-ledger.ts": "src/db/immutable-ledger.ts",
        # The domain APIs: shared pieces in src/lib, each API's services in its module, and
        # one route.ts per path under src/app/api/v1.
        "domain-error.ts": "src/lib/domain-error.ts",
        "validation.ts": "src/lib/validation.ts",
        "pagination.ts": "src/lib/pagination.ts",
        "openapi.ts": "src/openapi.ts",
        "endpoint.ts": "src/lib/endpoint.ts",
        "api-endpoints.ts": "src/api-endpoints.ts",
        "api.ts": "src/lib/api.ts",
        "services.ts": "src/services.ts",
        "server-edge.ts": "src/server-edge.ts",
        "embedded-postgres.ts": "src/embedded-postgres.ts",
        # Next bundles each route apart: the services of the process, made once on first use.
        "current-services.ts": "src/current-services.ts",
        "openapi.route.ts": "src/app/api/v1/openapi.json/route.ts",
        "repository-support.ts": "src/db/repository-support.ts",
    },
}


# Where a domain API's files go in each architecture, by the kind of file (the first pattern
# its fragment name matches; {api} is the API's folder name). mvc spreads an API over its
# layer folders; the others keep it in one module folder. An API's manifest (`places`)
# names the files that go elsewhere.
_API_TESTS = [("*.test.ts", "tests"), ("*-probe.ts", "tests/support")]
API_FILE_RULES: dict[str, list[tuple[str, str]]] = {
    "mvc": [
        *_API_TESTS,
        ("*.ports.ts", "src/services"),
        ("*.service.ts", "src/services"),
        # A service's answers from its records, beside it.
        ("*.views.ts", "src/services"),
        # A service's seed data (`db:seed`), beside it.
        ("*.seed.ts", "src/services"),
        ("create-*.ts", "src/composition"),
        ("*.schemas.ts", "src/validators"),
        ("*.repository.ts", "src/repositories"),
        ("*.controller.ts", "src/controllers"),
        ("*.routes.ts", "src/routes"),
        ("*", "src/utils"),
    ],
    "feature": [*_API_TESTS, ("*", "src/modules/{api}")],
    "modular": [*_API_TESTS, ("*", "src/{api}")],
    "file-api": [*_API_TESTS, ("*", "src/modules/{api}")],
}


def _api_file_place(api: str, architecture: str, name: str) -> str:
    """Where one fragment of an API's folder goes in an architecture."""
    place = (MANIFESTS[api].get("places") or {}).get(name, {})
    if architecture in place or "*" in place:
        return str(place.get(architecture, place.get("*")))
    folder = next(folder for pattern, folder in API_FILE_RULES[architecture] if fnmatch.fnmatch(name, pattern))
    # In the API's own folder, a file of one concern goes to that concern's sub-folder.
    concern = next((c for c, names in (MANIFESTS[api].get("concerns") or {}).items() if name in names), None)
    if concern and "{api}" in folder:
        folder = f"{folder}/{concern}"
    return f"{folder.format(api=api)}/{name}"


# Each API's fragment names (one name may have a fragment per framework or data layer).
_API_FRAGMENTS = {
    api: sorted(
        {
            p.name.removesuffix(".jinja")
            for p in (API_FOLDERS / api).rglob("*.jinja")
            if not p.name.startswith(PARTIAL_PREFIX)
        }
    )
    for api in MANIFESTS
}

for _api, _manifest in MANIFESTS.items():
    for _concern, _names in (_manifest.get("concerns") or {}).items():
        if _unknown := sorted(set(_names) - set(_API_FRAGMENTS[_api])):
            raise ValueError(f"concern {_concern} of the {_api} API names no fragment of it: {_unknown}")


def _api_layout_entries(architecture: str) -> dict[str, str]:
    """The layout entries of every API's files (fragment name -> path) in an architecture."""
    entries: dict[str, str] = {}
    for api, names in _API_FRAGMENTS.items():
        for name in names:
            if name in entries or name in LAYOUTS[architecture]:
                raise ValueError(f"{name} of the {api} API has the name of another layout file")
            entries[name] = _api_file_place(api, architecture, name)
    return entries


for _architecture, _layout in LAYOUTS.items():
    _layout.update(_api_layout_entries(_architecture))


def model_dialect(engine: str, adapter: str) -> str:
    """The models layer folder with a stack's model files: pg, mysql, mongoose, prisma-sql or prisma-mongodb."""
    if adapter == "mongoose":
        return "mongoose"
    if adapter == "prisma":
        return "prisma-mongodb" if engine == "mongodb" else "prisma-sql"
    return {"postgresql": "pg", "mysql": "mysql"}[engine]


# The domain API whose bundle first names each model (the user: auth's): in NestJS's layout a
# model's table sits in that API's module, which owns it.
MODEL_APIS: dict[str, str] = {}
for _api, _manifest in MANIFESTS.items():
    for _model in BUNDLES[_manifest["bundle"]]:
        MODEL_APIS.setdefault(_model, _api)

# Where model files live per architecture: Drizzle's and Mongoose's folder ({module}: the
# model's feature module, MODEL_MODULES; {api}: its API's module, MODEL_APIS; {home}: its API's
# module where that API is chosen, else its feature module); Drizzle names them <model>.table.ts
# inside a module and <model>.ts inside a schema folder, Mongoose <model>.model.ts.
MODEL_FOLDERS: dict[str, dict[str, str]] = {
    "mvc": {"drizzle": "src/db/schema", "mongoose": "src/models"},
    "feature": {"drizzle": "src/modules/{home}", "mongoose": "src/modules/{home}"},
    "modular": {"drizzle": "src/{api}", "mongoose": "src/{api}"},
    "file-api": {"drizzle": "src/db/schema", "mongoose": "src/models"},
}


# Prisma keeps its schema beside package.json, one file per model, whatever the architecture.
PRISMA_SCHEMA_FOLDER = "prisma/schema"


def model_file(architecture: str, adapter: str, model: str, apis: Collection[str] = ()) -> str:
    """Where a model's file lives, relative to rootDir (Prisma's: to the project), with the
    domain APIs `apis` chosen."""
    if adapter == "prisma":
        return f"{PRISMA_SCHEMA_FOLDER}/{model}.prisma"
    template = MODEL_FOLDERS[architecture][adapter]
    api = MODEL_APIS[model]
    folder = template.format(module=MODEL_MODULES[model], api=api, home=api if api in apis else MODEL_MODULES[model])
    if adapter == "mongoose":
        return f"{folder}/{model}.model.ts"
    return f"{folder}/{model}.table.ts" if "{" in template else f"{folder}/{model}.ts"


def _in_root(context: Any, relpath: str) -> str:
    root = context.get("rootDir", ".")
    return relpath if root in ("", ".") else posixpath.join(root, relpath)


def layout_path(context: Any, key: str) -> str:
    """Path of a file relative to the project: 'model:<name>' for models, else a layout key."""
    if key.startswith("model:"):
        model = key[len("model:") :]
        relpath = model_file(context["architecture"], context["databaseAdapter"], model, selected_apis(context))
    elif key in LAYOUTS[context["architecture"]]:
        relpath = LAYOUTS[context["architecture"]][key]
    else:
        return key  # at the project root, whatever rootDir is
    if relpath.startswith(f"{PRISMA_SCHEMA_FOLDER}/"):
        return relpath  # Prisma's schema files, a model's or an API's: at the project root
    return _in_root(context, relpath)


@pass_context
def place(context: Any, key: str) -> str:
    """Path of a layout file (or 'model:<name>') for the chosen architecture and rootDir."""
    return layout_path(context, key)


@pass_context
def import_path(context: Any, from_key: str, to_key: str) -> str:
    """ESM import specifier (NodeNext: '.js' suffix) from one layout file to another."""
    source, target = layout_path(context, from_key), layout_path(context, to_key)
    rel = posixpath.relpath(target, posixpath.dirname(source))
    rel = rel if rel.startswith(".") else f"./{rel}"
    return re.sub(r"\.ts$", _import_suffix(context), rel)


@pass_context
def alias_path(context: Any, key: str) -> str:
    """The `@/` import specifier of a layout file (its path under the sources, tsconfig's `paths`)."""
    rel = posixpath.relpath(layout_path(context, key), layout_path(context, "src"))
    return "@/" + re.sub(r"\.ts$", _import_suffix(context), rel)


@pass_context
def relative_dir(context: Any, from_key: str, to_key: str) -> str:
    """The folder of one layout file, relative to the folder of another (Prisma's `output`)."""
    source, target = layout_path(context, from_key), layout_path(context, to_key)
    return posixpath.relpath(posixpath.dirname(target) or ".", posixpath.dirname(source) or ".")


def _import_suffix(context: Any) -> str:
    """What relative imports end in ('.js', '.ts' or ''): the framework's, else the runtime's."""
    return FRAMEWORKS[context["framework"]].get("import_suffix", RUNTIMES[context["runtime"]]["import_suffix"])


@pass_context
def import_extension(context: Any) -> str:
    """The extension relative imports end in, without its dot ('js', 'ts' or ''): Prisma's
    generator writes its client's imports with it."""
    return _import_suffix(context).lstrip(".")


@pass_context
def compiled_path(context: Any, key: str) -> str:
    """Where `tsc -p tsconfig.build.json` writes a source file: dist/ mirrors the source folder."""
    source = posixpath.relpath(layout_path(context, key), layout_path(context, "src"))
    return posixpath.join("dist", re.sub(r"\.ts$", ".js", source))
