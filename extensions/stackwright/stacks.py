"""What differs between runtimes and between frameworks, beyond their layer folders.

Adding a runtime or a framework is one row here plus its folder in template/layers.
"""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context

# What differs between runtimes beyond their layer folders. `layers`: the runtime's
# folders under template/layers/runtimes (node-compatible: what Node and Bun share);
# `import_suffix`: of relative imports (Deno resolves only the real .ts name);
# `test_module`: where tests import describe, it, expect and the hooks from; `test_aliases`: the
# names that module gives the hooks, where they differ; `expect_module`: where `expect` comes from
# when the test module has none (Deno's own tests use Deno.test; the API tests, shared with Node
# and Bun, use its node:test with Jest's expect);
# `test_runner`, `linter`, `builds`: what the generated README says of its scripts;
# `graceful_on`: the signals its server shuts down gracefully on, as the README says;
# `prisma_runtime`: the runtime Prisma's client generator writes for;
# `ci_node`: the Node.js versions CI runs on (on Bun and Deno, Node runs only the package manager);
# `unseen_entries`: files its tools start that knip cannot see started (knip.jsonc);
# `knip_reads_scripts`: knip finds the files its package.json scripts run (it knows no `deno run`);
# `flushes_logs`: its server writes out the waiting log lines itself (no exit event ends it).
RUNTIMES: dict[str, dict[str, Any]] = {
    "node": {
        "knip_reads_scripts": True,
        "layers": ["node-compatible", "node"],
        "import_suffix": ".js",
        "test_module": "vitest",
        "prisma_runtime": "nodejs",
        "test_runner": "Vitest",
        "linter": "Biome",
        "builds": True,
        "graceful_on": "SIGTERM and SIGINT",
        "ci_node": ["engines floor", "lts/*"],
        # The container image (images.py): its final stage's base, its unprivileged user (by
        # number: a name may not resolve on the host), how it evaluates the health probe, and
        # what it copies from the build stage.
        "image": {"base": "node:{nodeLts}-slim", "user": "node", "uid": "1000:1000", "eval": ["node", "-e"]},
        "image_files": ["dist"],
        "memory": {"request": "256Mi", "limit": "512Mi"},
    },
    "bun": {
        "knip_reads_scripts": True,
        "layers": ["node-compatible", "bun"],
        "import_suffix": ".js",
        "test_module": "bun:test",
        "prisma_runtime": "bun",
        "test_runner": "`bun test`",
        "unseen_entries": ["{tests}/**/*.test.ts"],
        "linter": "Biome",
        "builds": False,
        "graceful_on": "SIGTERM and SIGINT",
        "ci_node": ["lts/*"],
        "image": {
            "base": "oven/bun:{bun}-slim",
            "user": "bun",
            "uid": "1000:1000",
            "eval": ["bun", "-e"],
            # Its binary alone, for the build stage (which runs on Node.js, like every package manager).
            "binary": ["oven/bun:{bun}-slim", "/usr/local/bin/bun"],
        },
        "image_files": ["tsconfig.json", "{src}"],
        "memory": {"request": "256Mi", "limit": "512Mi"},
    },
    "deno": {
        "layers": ["deno"],
        "knip_reads_scripts": False,
        "unseen_entries": ["{tests}/**/*.test.ts"],
        "import_suffix": ".ts",
        "test_module": "node:test",
        "test_aliases": {"beforeAll": "before", "afterAll": "after"},
        "expect_module": "expect",
        "prisma_runtime": "deno",
        "test_runner": "`deno test`",
        "flushes_logs": True,
        "linter": "`deno lint` and `deno fmt`",
        "builds": False,
        # Not SIGINT: in `dev`, Deno's watcher owns Ctrl-C and passes it on as a SIGTERM.
        "graceful_on": "SIGTERM (and Ctrl-C in `dev`, which Deno's watcher passes on as a SIGTERM)",
        "ci_node": ["lts/*"],
        "image": {
            "base": "denoland/deno:debian-{deno}",
            "user": "deno",
            "uid": "1993:1993",
            "eval": ["deno", "eval"],
            "binary": ["denoland/deno:bin-{deno}", "/deno"],
        },
        "image_files": ["deno.json", "{src}"],
        "memory": {"request": "256Mi", "limit": "512Mi"},
    },
}
# What differs between frameworks beyond their layer folders. `test_client`: how their
# tests send requests (README); `decorators`: Nest's dependency injection needs TypeScript's
# legacy decorators and Biome's parameter-decorator parsing; `own_tooling`: runtime folders
# the framework replaces with its own (Next.js brings its dev server, build and tsconfig,
# in its on-node overlay); `import_suffix`: of relative imports, where the framework's
# bundler resolves them (overrides the runtime's); `ci_env`: variables of the CI job;
# `build_output`: where `build` writes (default dist/); `generated`: further files the
# framework writes, which .gitignore lists (and so Biome ignores); `leaves_out`: layout files
# of shared layers the framework has no use for; `builds_services`: its modules build the
# services and their repositories as providers (apis.unneeded_api_files); `routes_by_record`:
# each route names its record (`authEndpoint.signIn`), where the others mount each API's list
# of records and answer its 405s;
# `client_address_header`: its handlers read the client's address from the edge's header;
# `dev_tools`: the packages its `dev_command` runs; `flushes_logs`: as the runtimes'.
FRAMEWORKS: dict[str, dict[str, Any]] = {
    # `edge`: the folder under template/layers/edge of its edge adapter (Hono has its middleware).
    # `lists_routes: False`: its router cannot list what it serves (Express 5 keeps no mount
    # paths), so tests/routes.test.ts checks its routes by their answers only.
    "express": {"test_client": "Supertest", "edge": "node-http", "lists_routes": False},
    # `controllers: False`: its handlers sit in its routes files (README's "Project layout").
    "hono": {"test_client": "`app.request`", "controllers": False},
    "nestjs": {
        "test_client": "`@nestjs/testing` and Supertest",
        "decorators": True,
        "edge": "node-http",
        # Nest's modules build the services (dependency injection): no composition root file,
        # and an API's factory only where it holds its settings or its worker.
        "leaves_out": ["services.ts"],
        "builds_services": True,
        # Nest's CLI runs `dev` with SWC (nest-cli.json, .swcrc), which emits the decorator
        # metadata that injection by class needs (tsx's esbuild emits none); without a shell
        # between it and the app, so a stop signal reaches the app.
        "dev_command": "nest start --watch --no-shell",
        "dev_tools": ["@nestjs/cli", "@swc/cli", "@swc/core"],
        "routes_by_record": True,
        "client_address_header": True,
    },
    "nextjs": {
        "test_client": "route handlers called through a router of their folders",
        # Its own tracer (@opentelemetry/api's global): its spans carry a request's raw path, so
        # start-telemetry.ts gives it one that makes none.
        "tracer": "next.js",
        "own_tooling": ["node"],
        "edge": "node-http",
        # Its route handlers get a Request of Next's making, which the edge never sees: the
        # access line cannot name the signed-in user.
        "logs_user": False,
        "routes_by_record": True,
        "client_address_header": True,
        # Next bundles each route apart: a module's state lives on globalThis, and a route reads
        # the process's one database (db.ts), not the one a test server was given.
        "routes_apart": True,
        # Its edge answers TRACE and TRACK (a WHATWG Request cannot carry them) with the 405.
        "edge_answers_405": True,
        "import_suffix": "",
        "ci_env": {"NEXT_TELEMETRY_DISABLED": "1"},
        "build_output": ".next/ and dist/",
        # Next's build, and its custom server (src/server.ts) bundled into dist/.
        "image_files": ["{project}next.config.ts", "{project}.next", "dist"],
        "generated": [".next/", "next-env.d.ts", "*.tsbuildinfo"],
        # What its server writes at run time (an emptyDir under a read-only root, deploy/kubernetes).
        "writes": ["{project}.next/cache"],
        "memory": {"request": "384Mi", "limit": "768Mi"},
    },
}


@pass_context
def test_imports(context: Any, names: list[str]) -> str:
    """The import lines that give a test file `names` (describe, it, expect, the hooks) on the chosen runtime."""
    runtime = RUNTIMES[context["runtime"]]
    aliases, expect_module = runtime.get("test_aliases", {}), runtime.get("expect_module")
    lines = []
    if expect_module and "expect" in names:
        lines.append(f'import {{ expect }} from "{expect_module}";')
        names = [name for name in names if name != "expect"]
    imported = sorted((aliases.get(name, name), name) for name in names)
    specifiers = ", ".join(name if source == name else f"{source} as {name}" for source, name in imported)
    if specifiers:  # not when `expect` alone was asked for and has a module of its own
        lines.append(f'import {{ {specifiers} }} from "{runtime["test_module"]}";')
    return "\n".join(lines)


@pass_context
def statement_spans(context: Any) -> str:
    """How the project's database statements get spans of their own (telemetry.ts): "pool" by
    the pool's hooks (pg, mysql2 under Drizzle: database-faults.ts), "adapter" around Prisma's
    driver adapter on MySQL (it opens its own pool), "" where the driver offers no hook (MongoDB)."""
    engine, adapter = context["databaseEngine"], context.get("databaseAdapter")
    if engine == "postgresql" or (engine == "mysql" and adapter == "drizzle"):
        return "pool"
    return "adapter" if engine == "mysql" else ""
