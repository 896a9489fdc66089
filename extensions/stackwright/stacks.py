"""What differs between runtimes and between frameworks, beyond their layer folders.

Adding a runtime or a framework is one row here plus its folder in template/layers.
"""

from __future__ import annotations

from typing import Any

# What differs between runtimes beyond their layer folders. `layers`: the runtime's
# folders under template/layers/runtimes (node-compatible: what Node and Bun share);
# `import_suffix`: of relative imports (Deno resolves only the real .ts name);
# `test_module`: where tests import describe/it/expect from (Deno: Deno.test);
# `test_runner`, `linter`, `builds`: what the generated README says of its scripts;
# `prisma_runtime`: the runtime Prisma's client generator writes for;
# `ci_node`: the Node.js versions CI runs on (on Bun and Deno, Node runs only the package manager).
RUNTIMES: dict[str, dict[str, Any]] = {
    "node": {
        "layers": ["node-compatible", "node"],
        "import_suffix": ".js",
        "test_module": "vitest",
        "prisma_runtime": "nodejs",
        "test_runner": "Vitest",
        "linter": "Biome",
        "builds": True,
        "ci_node": ["engines floor", "lts/*"],
    },
    "bun": {
        "layers": ["node-compatible", "bun"],
        "import_suffix": ".js",
        "test_module": "bun:test",
        "prisma_runtime": "bun",
        "test_runner": "`bun test`",
        "linter": "Biome",
        "builds": False,
        "ci_node": ["lts/*"],
    },
    "deno": {
        "layers": ["deno"],
        "import_suffix": ".ts",
        "test_module": None,
        "prisma_runtime": "deno",
        "test_runner": "`deno test`",
        "linter": "`deno lint` and `deno fmt`",
        "builds": False,
        "ci_node": ["lts/*"],
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
        "test_client": "route handlers called directly",
        "own_tooling": ["node"],
        "import_suffix": "",
        "ci_env": {"NEXT_TELEMETRY_DISABLED": "1"},
        "build_output": ".next/",
        "generated": [".next/", "next-env.d.ts", "*.tsbuildinfo"],
    },
}
