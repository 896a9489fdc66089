"""The version table and the package managers: what a generated project pins and how it installs.

extensions/versions.json is the one table of every package version a generated project
pins; INSTALLS is the one table of each package manager's install commands and lockfile.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from jinja2 import pass_context

from .apis import MANIFESTS, selected_apis
from .bundles import has_database
from .paths import VERSIONS_PATH

VERSIONS: dict[str, Any] = json.loads(VERSIONS_PATH.read_text())


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
        names += VERSIONS["engineDependencies"].get(context["databaseEngine"], {}).get(kind, [])
        pinned = {**pinned, **stack.get("packages", {})}  # a stack that needs other versions
    apis = selected_apis(context)
    for api in apis:
        names += (MANIFESTS[api].get("dependencies") or {}).get(kind, [])
    if apis:  # the APIs' tests check every answer against the OpenAPI document
        names += VERSIONS["apiDependencies"][kind]
        names += VERSIONS["apiEngineDependencies"].get(context["databaseEngine"], {}).get(kind, [])
    if apis and context["runtime"] in VERSIONS["apiRuntimeDependencies"]:
        names += VERSIONS["apiRuntimeDependencies"][context["runtime"]][kind]
    return {name: pinned[name] for name in sorted(set(names))}


@pass_context
def pinned_below(context: Any) -> dict[str, str]:
    """{package: exact version} pinned below the project's dependencies (versions.json's
    pinnedBelow, for the dependencies this project installs)."""
    installed = {**dependencies(context, "runtime"), **dependencies(context, "dev")}
    pins: dict[str, str] = {}
    for parent, below in VERSIONS["pinnedBelow"].items():
        if parent in installed:  # "$comment" never is
            pins.update({name: version or VERSIONS["packages"][name] for name, version in below.items()})
    return dict(sorted(pins.items()))


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
# The container image's final stage: the runtime dependencies only, with no install script (the
# build stage has run them: Prisma's client is generated there and copied over).
PRODUCTION_INSTALLS: dict[str, dict[str, str]] = {
    "npm": {"install": "npm install --omit=dev --ignore-scripts", "frozen": "npm ci --omit=dev --ignore-scripts"},
    "pnpm": {
        "install": "pnpm install --prod --ignore-scripts --no-frozen-lockfile",
        "frozen": "pnpm install --prod --ignore-scripts --frozen-lockfile",
    },
    # `workspaces focus` installs one workspace's dependencies; Yarn 4 ships it.
    "yarn": {
        "install": "YARN_ENABLE_SCRIPTS=false yarn workspaces focus --all --production",
        "frozen": "YARN_ENABLE_SCRIPTS=false YARN_ENABLE_IMMUTABLE_INSTALLS=true yarn workspaces focus --all --production",
    },
    "bun": {
        "install": "bun install --production --ignore-scripts",
        "frozen": "bun install --production --ignore-scripts --frozen-lockfile",
    },
}


def install_command(manager: str) -> str:
    """How the chosen package manager installs a fresh project (and writes its lockfile)."""
    return INSTALLS[manager]["install"]


def frozen_install_command(manager: str) -> str:
    """How the chosen package manager installs exactly what the committed lockfile says."""
    return INSTALLS[manager]["frozen"]


def production_install_command(manager: str, frozen: bool) -> str:
    """How the chosen package manager installs the runtime dependencies only (the image's)."""
    return PRODUCTION_INSTALLS[manager]["frozen" if frozen else "install"]


def exec_form(script: str) -> dict[str, Any]:
    """A package.json script as a Dockerfile's exec form: {'env': leading NAME=value pairs,
    'argv': the command's words}, a `${NAME:-default}` word given its default (an exec form
    runs no shell, so the signal reaches the server itself)."""
    words = shlex.split(script)
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    argv = [re.sub(r"\$\{[A-Z_][A-Z0-9_]*:-([^}]*)\}", r"\1", word) for word in words]
    return {"env": env, "argv": argv}


def exec_words(argv: list[str]) -> str:
    """A Dockerfile exec form's JSON array (plain JSON: Jinja's tojson escapes quotes and '>')."""
    return json.dumps(argv)


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
# NestJS's SWC compiler (`dev`): @swc/core's script only checks that its native binary (an
# optional dependency of its own) loads, and fetches a WASM build when it does not.
FRAMEWORK_DECLINED_BUILD_SCRIPTS = {"nestjs": ["@swc/core"]}
# The APIs' docs page (swagger-ui-dist) brings @scarf/scarf, whose install script reports the
# install to its vendor: turned down.
API_DECLINED_BUILD_SCRIPTS = ["@scarf/scarf"]


@pass_context
def declined_build_scripts(context: Any) -> list[str]:
    """The install scripts the current answers' project turns down (DECLINED_BUILD_SCRIPTS)."""
    names = DECLINED_BUILD_SCRIPTS.get(context.get("databaseAdapter"), []) if has_database(context) else []
    framework = FRAMEWORK_DECLINED_BUILD_SCRIPTS.get(context.get("framework"), [])
    return [*(API_DECLINED_BUILD_SCRIPTS if selected_apis(context) else []), *framework, *names]


# How a runtime's scripts run the Prisma CLI: Deno runs its entry file, the others its bin.
PRISMA_CLI = {"deno": "deno run -A node_modules/prisma/build/index.js"}


@pass_context
def prisma_cli(context: Any) -> str:
    """The Prisma CLI's command for the current runtime."""
    return PRISMA_CLI.get(context["runtime"], "prisma")


def run_command(manager: str, script: str) -> str:
    """How the chosen package manager runs a package.json script."""
    return f"{manager} run {script}"
