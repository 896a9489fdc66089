"""The layered template: every fragment is used, no fragment branches over stacks, and
scripts/plan.py names the fragment of a generated file."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import boundaries
import pytest
from build_registry import app_stacks, data_layers
from conftest import REPO, copied

from stackwright.apis import APIS
from stackwright.bundles import BUNDLES, bundle_models
from stackwright.file_plan import plan_files
from stackwright.paths import PARTIAL_PREFIX
from stackwright.questions import BUILT

LAYERS = REPO / "template" / "layers"
ALL_BUNDLES = list(BUNDLES)


def every_built_answers():
    """Answers for every built stack x data layer x package manager, with and without models."""
    layers = [("none", None), *data_layers()]
    for (runtime, framework, architectures), (engine, adapter), manager in itertools.product(
        app_stacks(), layers, BUILT["packageManager"]
    ):
        for architecture, bundles in itertools.product(architectures, [[], ALL_BUNDLES]):
            bundles = bundles if adapter else []
            yield {
                "rootDir": ".",
                "packageManager": manager,
                "runtime": runtime,
                "framework": framework,
                "architecture": architecture,
                "databaseEngine": engine,
                "databaseAdapter": adapter,
                "bundles": bundles,
                "models": [f"{b}/{m}" for b in bundles for m in bundle_models(b, adapter, engine)],
                "apis": list(APIS),  # each where it is built (the plan leaves out a refused one)
            }


def test_every_fragment_is_used_and_every_file_has_one_fragment():
    # Parts that fragments include or import (_shared/, _readme.md.jinja) make no file themselves.
    fragments = {
        p.relative_to(REPO).as_posix()
        for p in LAYERS.rglob("*.jinja")
        if not any(part.startswith(PARTIAL_PREFIX) for part in p.relative_to(LAYERS).parts)
    }
    used = set()
    for answers in every_built_answers():
        plan = plan_files(answers)  # raises when two fragments make one path
        assert len({item["path"] for item in plan}) == len(plan)
        used |= {item["fragment"] for item in plan}
    assert fragments - used == set(), "fragments no built combination uses"


def test_prisma_schema_files_sit_at_the_project_root_whatever_the_root_dir():
    """Prisma reads its schema beside package.json (prisma.config.ts): an API's schema files
    too, when the sources are in a sub-folder (a Prisma project under rootDir once had the
    auth API's three in apps/api/prisma/schema, and its client lacked their models)."""
    planned = [
        item["path"]
        for answers in every_built_answers()
        if answers["databaseAdapter"] == "prisma"
        for item in plan_files({**answers, "rootDir": "apps/api"})
        if item["path"].endswith(".prisma")
    ]
    assert any("mail-outbox" in path for path in planned), planned
    assert [path for path in planned if not path.startswith("prisma/schema/")] == []


STACK_BRANCH = re.compile(r"\b(runtime|framework)\s*(==|!=|\bin\b)")


def test_no_fragment_branches_over_runtimes_or_frameworks():
    branching = [
        p.relative_to(LAYERS).as_posix() for p in LAYERS.rglob("*.jinja") if STACK_BRANCH.search(p.read_text())
    ]
    assert branching == [], "a runtime or framework difference belongs in its layer folder"


def test_plan_script_names_the_fragment_of_each_generated_file(copie):
    answers = {"architecture": "mvc", "databaseEngine": "postgresql", "databaseAdapter": "drizzle"}
    project = copied(copie.copy(extra_answers=answers))
    generated = sorted(
        p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file() and p.name != ".copier-answers.yml"
    )
    script = [sys.executable, str(REPO / "scripts" / "plan.py"), str(project)]
    listed = subprocess.run(script, capture_output=True, text=True, check=True).stdout.splitlines()
    assert sorted(line.split("  <-  ")[0].rstrip() for line in listed) == generated
    one = subprocess.run([*script, "src/routes/index.ts"], capture_output=True, text=True, check=True).stdout
    assert one.split("<-")[1].strip() == "template/layers/frameworks/express/routes.ts.jinja"
    missing = subprocess.run([*script, "src/mine.ts"], capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and "src/mine.ts" in missing.stderr


JINJA_TAG = re.compile(r"\{[%{].*?[%}]\}", re.DOTALL)


def test_no_fragment_outside_an_apis_folder_names_that_api():
    """Shared fragments wire the APIs in loops over their manifests (api_wiring, api_parts,
    api_scripts): adding an API is one folder, with no edit elsewhere."""
    named = set()
    for path in LAYERS.rglob("*.jinja"):
        relative = path.relative_to(LAYERS).as_posix()
        owner = relative.split("/")[1] if relative.startswith("apis/") else None
        for tag in JINJA_TAG.findall(path.read_text()):
            named |= {(relative, api) for api in APIS if api != owner and re.search(rf"['\"]{api}['\"]", tag)}
    assert named == set()


# Every framework and layout, on Drizzle and PostgreSQL (the default), and the other data
# layers where their files differ (Mongoose's models, Prisma's clients).
BOUNDARY_CASES = {
    "express-feature": {"architecture": "feature"},
    "express-mvc": {"architecture": "mvc"},
    "hono-feature": {"runtime": "bun", "framework": "hono", "architecture": "feature"},
    "nestjs-modular": {"framework": "nestjs", "architecture": "modular"},
    "nextjs-file-api": {"framework": "nextjs", "architecture": "file-api"},
    "express-mvc-mongoose": {"architecture": "mvc", "databaseEngine": "mongodb", "databaseAdapter": "mongoose"},
    "nestjs-prisma-mongodb": {
        "framework": "nestjs",
        "architecture": "modular",
        "databaseEngine": "mongodb",
        "databaseAdapter": "prisma",
    },
    "nextjs-prisma-mysql": {
        "framework": "nextjs",
        "architecture": "file-api",
        "databaseEngine": "mysql",
        "databaseAdapter": "prisma",
    },
}


@pytest.mark.parametrize("name", sorted(BOUNDARY_CASES))
def test_generated_projects_keep_their_boundaries(copie, name):
    """No import cycle (type-only imports included), no two top-level folders that import each
    other, and a ground floor (shared/, common/, lib/, utils/) that imports nothing above it."""
    answers = {**BOUNDARY_CASES[name], "bundles": ["auth", "banking-app", "blog-app"], "apis": ["auth", "bank", "blog"]}
    project = copied(copie.copy(extra_answers=answers))
    root, architecture = boundaries.load_project(str(project))
    report = boundaries.analyse(root, architecture)
    assert report["_files"] > 20 and report["_edges"] > 50, "the analysis no longer reads the project"
    assert report["_unresolved"] == []
    assert report["cycles"] == []
    assert report["mutual_folder_pairs"] == []
    assert report["upward_imports"] == []
    if architecture != "mvc":  # mvc spreads an API over its layers: no module to enter
        assert other_apis_entering_auth(report["_graph"], architecture) <= AUTH_PUBLIC_FILES


# What the other APIs may import of auth: its public file, over HTTP the framework's sign-in
# middleware, guard or module, and (where auth's module holds its tables) the users table
# their own tables reference.
AUTH_PUBLIC_FILES = {"auth.public.ts", "authenticate.ts", "auth.guard.ts", "auth.module.ts", "user.table.ts"}


def other_apis_entering_auth(graph: dict[str, set[str]], architecture: str) -> set[str]:
    """The files of auth's module that the bank's and the blog's modules import."""
    module = {"modular": "src/{api}"}.get(architecture, "src/modules/{api}")
    others = {module.format(api=api) for api in ("bank", "blog")}
    auth = module.format(api="auth")
    entered = {
        target.rsplit("/", 1)[-1]
        for source, targets in graph.items()
        if boundaries.unit_of(source, architecture) in others
        for target in targets
        if boundaries.unit_of(target, architecture) == auth
    }
    assert entered, "the bank and the blog no longer import auth: the check reads nothing"
    return entered
