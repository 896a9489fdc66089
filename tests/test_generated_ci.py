"""The generated GitHub Actions workflow, .github/workflows/ci.yml: valid for GitHub, and in
step with the project it ships in (package manager, scripts, Node versions, database service,
environment and migrations) for every package manager and database, with and without models.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from conftest import render, search

from stackwright.bundles import BUNDLES
from stackwright.layouts import LAYOUTS
from stackwright.names import db_name
from stackwright.packages import VERSIONS, package_manager_field, run_command
from stackwright.stacks import RUNTIMES

CHECKER = Path(sys.executable).parent / "check-jsonschema"
WORKFLOW = ".github/workflows/ci.yml"

PACKAGE_MANAGERS = ["npm", "pnpm", "yarn", "bun"]
ADAPTERS = {"postgresql": "drizzle", "mysql": "drizzle", "mongodb": "mongoose"}
BUNDLE_NAMES = list(BUNDLES)

# (lockfile, install from it exactly, plain install): generated projects ship no lockfile, so CI
# installs plainly (CI defaults of pnpm and Yarn refuse to create one) until the user commits one.
INSTALL = {
    "npm": ("package-lock.json", "npm ci", "npm install"),
    "pnpm": ("pnpm-lock.yaml", "pnpm install --frozen-lockfile", "pnpm install --no-frozen-lockfile"),
    "yarn": ("yarn.lock", "yarn install --immutable", "yarn install --no-immutable"),
    "bun": ("bun.lock", "bun install --frozen-lockfile", "bun install"),
}
IMAGES = {"postgresql": ("postgres:",), "mysql": ("mysql:", "mariadb:"), "mongodb": ("mongo:",)}
PORTS = {"postgresql": 5432, "mysql": 3306, "mongodb": 27017}
MIGRATIONS = {"drizzle": ["db:generate", "db:migrate"], "mongoose": ["db:sync-indexes"]}
ZIZMOR = Path(sys.executable).parent / "zizmor"
DEPENDABOT = ".github/dependabot.yml"
# Every built runtime x framework with its architectures, taken in turn across the cases.
STACKS = [
    ("node", "express", ["feature", "mvc"]),
    ("bun", "express", ["mvc", "feature"]),
    ("bun", "hono", ["feature", "mvc"]),
    ("deno", "hono", ["mvc", "feature"]),
    ("node", "nestjs", ["modular"]),
    ("node", "nextjs", ["file-api"]),
]
SCRIPT_RUN = re.compile(r"\b(npm|pnpm|yarn|bun) run ([^\s;&|]+)")


def all_cases() -> dict[str, dict]:
    """Every package manager with no database and with each engine, with and without models."""
    cases: dict[str, dict] = {}
    for i, pm in enumerate(PACKAGE_MANAGERS):
        runtime, framework, architectures = STACKS[i % len(STACKS)]
        cases[f"{pm}-none"] = {
            "packageManager": pm,
            "databaseEngine": "none",
            "architecture": architectures[i % len(architectures)],
            "runtime": runtime,
            "framework": framework,
        }
        for j, (engine, adapter) in enumerate(ADAPTERS.items()):
            runtime, framework, architectures = STACKS[(i + j + 1) % len(STACKS)]
            base = {
                "packageManager": pm,
                "databaseEngine": engine,
                "databaseAdapter": adapter,
                "architecture": architectures[(i + j) % len(architectures)],
                "runtime": runtime,
                "framework": framework,
            }
            cases[f"{pm}-{engine}-models"] = {**base, "bundles": [BUNDLE_NAMES[(i + j) % len(BUNDLE_NAMES)]]}
            cases[f"{pm}-{engine}-no-models"] = {**base, "bundles": [], "models": []}
    # A scoped name and a rootDir: the database name and the script paths change.
    cases["pnpm-mysql-models"].update(projectName="@acme/shop-api", rootDir="apps/api")
    return cases


CASES = all_cases()


@pytest.fixture(scope="session")
def renders(tmp_path_factory) -> Path:
    """A folder shared by the xdist workers of this run, so each case is rendered once."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "generated-ci"


def rendered(renders: Path, case: str) -> Path:
    """The project of a case, rendered by whichever worker asks first."""
    renders.mkdir(parents=True, exist_ok=True)
    project, done = renders / case, renders / f"{case}.done"
    with open(renders / f"{case}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(project, ignore_errors=True)
            render(project, **CASES[case])
            done.touch()
    return project


class Generated:
    """A rendered project with its workflow and the files the workflow must agree with."""

    def __init__(self, project: Path, answers: dict):
        self.project, self.answers = project, answers
        self.pm = answers["packageManager"]
        self.engine = answers["databaseEngine"]
        self.adapter = answers.get("databaseAdapter")
        self.text = (project / WORKFLOW).read_text()
        self.workflow = yaml.safe_load(self.text)
        self.workflow["on"] = self.workflow.pop(True)  # YAML 1.1 reads the key `on` as true
        self.job = self.workflow["jobs"]["check"]
        assert set(self.workflow["jobs"]) == {"check", "kubernetes"}
        self.steps = self.job["steps"]
        self.manifest = yaml.safe_load((project / "package.json").read_text())
        self.scripts = self.manifest["scripts"]
        layout = LAYOUTS[answers["architecture"]]
        root = answers.get("rootDir", ".")
        self.env_module = (project / root / layout["env.ts"]).read_text()

    def index(self, predicate) -> int:
        """Position of the only step that satisfies predicate."""
        found = [i for i, step in enumerate(self.steps) if predicate(step)]
        assert len(found) == 1, f"expected one matching step, found {len(found)} in {self.steps}"
        return found[0]

    def runs(self, command: str) -> int:
        return self.index(lambda step: step.get("run", "").strip() == command)

    def uses(self, action: str) -> int:
        return self.index(lambda step: step.get("uses", "").split("@")[0] == action)

    def install(self) -> int:
        return self.index(lambda step: step.get("name") == "Install dependencies")

    def script_runs(self) -> list[tuple[str, str]]:
        """(package manager, script) of every `<pm> run <script>` in the steps, in order."""
        return [(m[1], m[2]) for step in self.steps for m in SCRIPT_RUN.finditer(step.get("run", ""))]


@pytest.fixture(params=list(CASES))
def generated(request, renders) -> Generated:
    return Generated(rendered(renders, request.param), CASES[request.param])


def has_models(answers: dict) -> bool:
    return answers["databaseEngine"] != "none" and bool(answers.get("bundles", ["auth"]))


# --- per combination ------------------------------------------------------------------


def test_rendered_yaml_has_no_template_artefacts(generated):
    text = generated.text
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert "\t" not in text and "{%" not in text and "{#" not in text
    assert re.findall(r"(?<!\$)\{\{", text) == [], "a Jinja expression was left unrendered"
    lines = text.split("\n")[:-1]
    for number, line in enumerate(lines, 1):
        assert line == line.rstrip(), f"line {number} has trailing spaces"
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, f"line {number} is indented by {indent}"
        if not line:  # blank lines only separate top-level sections
            assert lines[number - 2] and lines[number][:1].isalpha(), f"stray blank line at {number}"


def test_triggers_and_actions(generated):
    assert set(generated.workflow["on"]) == {"push", "pull_request", "workflow_dispatch"}
    pins = {name: pin for name, pin in VERSIONS["actions"].items() if not name.startswith("$")}
    for step in generated.steps:
        if "uses" in step:
            # Pinned by commit, as versions.json pins it, with its version in a comment.
            name = step["uses"].split("@")[0]
            sha, version = pins[name].split(" # ")
            assert re.fullmatch(r"[0-9a-f]{40}", sha) and re.fullmatch(r"v\d+\.\d+\.\d+", version)
            assert step["uses"] == f"{name}@{sha}"
            assert f"uses: {name}@{sha} # {version}\n" in generated.text
    checkout = generated.steps[generated.uses("actions/checkout")]
    assert checkout["with"] == {"persist-credentials": False}


def test_dependabot_bumps_the_package_managers_ecosystem_and_the_actions(generated):
    config = yaml.safe_load((generated.project / DEPENDABOT).read_text())
    ecosystems = [update["package-ecosystem"] for update in config["updates"]]
    assert ecosystems == ["bun" if generated.pm == "bun" else "npm", "github-actions"]
    assert all(update["cooldown"]["default-days"] >= 7 for update in config["updates"])


def test_node_versions_are_the_engines_floor_and_the_current_lts(generated):
    if generated.answers.get("runtime", "node") != "node":
        # Bun and Deno run the project; Node.js runs only the package manager.
        assert "node" not in generated.manifest.get("engines", {})
        assert generated.job["strategy"]["matrix"]["node"] == ["lts/*"]
        return
    engines = generated.manifest["engines"]["node"]
    assert engines == VERSIONS["node"] and engines.startswith(">=")
    assert generated.job["strategy"]["matrix"]["node"] == [engines.removeprefix(">="), "lts/*"]
    setup = generated.steps[generated.uses("actions/setup-node")]
    assert setup["with"]["node-version"] == "${{ matrix.node }}"
    assert setup["with"]["package-manager-cache"] is False  # no lockfile to key a cache on until one is committed


def test_installs_from_the_lockfile_once_one_is_committed(generated):
    pm, steps = generated.pm, generated.steps
    install = generated.install()
    assert generated.uses("actions/checkout") < generated.uses("actions/setup-node") < install
    lockfile, frozen, plain = INSTALL[pm]
    script = [line.strip() for line in steps[install]["run"].strip().splitlines()]
    assert script[:3] == [f"if [ -f {lockfile} ]; then", frozen, "else"], script
    assert script[-2:] == [plain, "fi"] and len(script) == 6, script
    assert script[3].startswith('echo "::warning title=No lockfile::') and lockfile in script[3], script
    assert subprocess.run(["bash", "-n", "-c", steps[install]["run"]], check=False).returncode == 0
    # The commands themselves run for real, in both states, in test_package_managers.py.
    field = package_manager_field(pm)
    assert generated.manifest.get("packageManager", "") == field
    runtime_setups = {"bun": "oven-sh/setup-bun", "deno": "denoland/setup-deno"}
    runtime = generated.answers.get("runtime", "node")
    if runtime in runtime_setups:  # the runtime itself, at the pinned version, before the install
        setup = steps[generated.uses(runtime_setups[runtime])]
        assert generated.uses(runtime_setups[runtime]) < install
        if runtime != pm:  # a Bun project that bun installs: one setup-bun, for both
            assert setup["with"] == {f"{runtime}-version": VERSIONS["runtimes"][runtime]}
    setups = {step.get("uses", "").split("@")[0] for step in steps} & {"oven-sh/setup-bun"}
    setups -= {runtime_setups.get(runtime)} if runtime != pm else set()
    corepack = [i for i, step in enumerate(steps) if "corepack enable" in step.get("run", "")]
    if pm == "bun":
        assert setups == {"oven-sh/setup-bun"} and not corepack
        setup = steps[generated.uses("oven-sh/setup-bun")]
        assert setup["with"] == {"bun-version-file": "package.json"}
        assert generated.uses("oven-sh/setup-bun") < install
    elif pm in ("pnpm", "yarn"):  # Corepack runs the version package.json's field names
        assert not setups and len(corepack) == 1 and corepack[0] < install and field
    else:
        assert not setups and not corepack and field == ""


def test_runs_typecheck_lint_and_test_with_scripts_that_exist(generated):
    invoked = generated.script_runs()
    assert invoked, "the workflow runs no package.json script"
    for pm, script in invoked:
        assert pm == generated.pm, f"`{pm} run {script}` in a {generated.pm} project"
        assert script in generated.scripts, f"`{pm} run {script}`: package.json has no such script"
    order = [generated.runs(run_command(generated.pm, s)) for s in ("typecheck", "lint", "test")]
    assert generated.install() < order[0] < order[1] < order[2]
    # The stacks that build (Node's) build last, as their deploy would.
    assert ("build" in generated.scripts) == RUNTIMES[generated.answers["runtime"]]["builds"]
    if "build" in generated.scripts:
        assert generated.runs(run_command(generated.pm, "build")) == len(generated.steps) - 1


def test_migrates_exactly_when_there_are_models(generated):
    pm, adapter = generated.pm, generated.adapter
    expected = MIGRATIONS[adapter] if has_models(generated.answers) else []
    # db:seed (the auth API's development data) is no migration: CI never runs it.
    assert {s for s in generated.scripts if s.startswith("db:") and s != "db:seed"} == set(expected)
    assert [s for _pm, s in generated.script_runs() if s.startswith("db:")] == expected
    warnings = [
        i for i, step in enumerate(generated.steps) if "::warning title=Uncommitted migrations" in step.get("run", "")
    ]
    if not expected:
        assert warnings == []
        return
    positions = [generated.runs(run_command(pm, s)) for s in expected]
    assert generated.install() < positions[0]
    assert positions == sorted(positions) and positions[-1] < generated.runs(run_command(pm, "test"))
    if adapter == "drizzle":
        # Warn, after db:generate, when it wrote migrations into drizzle-kit's folder that are not committed.
        out = search(r'out:\s*"(?:\./)?([^"]+)"', (generated.project / "drizzle.config.ts").read_text()).group(1)
        assert len(warnings) == 1 and warnings[0] > positions[0]
        check = generated.steps[warnings[0]]["run"]
        assert f"git status --porcelain -- {out}\n" in check or f"git status --porcelain -- {out})" in check
    else:
        assert warnings == []


def required_env(env_module: str) -> set[str]:
    """Variables of the env module's schema that have no default and are not optional."""
    keys = list(re.finditer(r"^  ([A-Z][A-Z0-9_]*): z\.", env_module, re.MULTILINE))
    ends = [k.start() for k in keys[1:]] + [env_module.index("});", keys[-1].start())]
    blocks = {k.group(1): env_module[k.start() : end] for k, end in zip(keys, ends, strict=True)}
    return {name for name, block in blocks.items() if ".default(" not in block and ".optional()" not in block}


def test_database_service_and_url_match_the_engine(generated):
    engine, job = generated.engine, generated.job
    env = job.get("env") or {}
    assert required_env(generated.env_module) <= set(env), "CI must set every variable without a default"
    if engine == "none":
        assert "services" not in job and "DATABASE_URL" not in env
        assert "DATABASE_URL" not in generated.env_module
        return
    compose = yaml.safe_load((generated.project / "docker-compose.yml").read_text())
    # The database; the app (and its migrations) run only under the `app` profile.
    (local,) = [service for service in compose["services"].values() if "profiles" not in service]
    app = compose["services"]["app"]
    assert app["profiles"] == ["app"] and app["build"] == "."
    assert {"condition": "service_healthy"} in app["depends_on"].values()
    # The telemetry profile's collector takes OTLP/HTTP; the app exports to it only when asked.
    collector = compose["services"]["otel-collector"]
    assert collector["profiles"] == ["telemetry"] and "4318:4318" in collector["ports"]
    assert app["environment"]["OTEL_EXPORTER_OTLP_ENDPOINT"] == "${OTEL_EXPORTER_OTLP_ENDPOINT:-}"
    port = PORTS[engine]
    if engine == "mongodb":
        # A single-node replica set (transactions need one), which a service container cannot
        # run: a step starts compose's image with compose's --replSet before anything else.
        assert "services" not in job
        start = generated.steps[0]["run"]
        assert f"docker run --detach --name mongodb --publish {port}:{port} {local['image']} " in start
        replica_set = local["command"][local["command"].index("--replSet") + 1]
        assert f"--replSet {replica_set}" in start and "isWritablePrimary" in start and "exit 1" in start
        assert f"replicaSet={replica_set}" in env["DATABASE_URL"]
        service: dict = {}
    else:
        (service,) = job["services"].values()
        assert service["image"].startswith(IMAGES[engine])
        assert service["image"] == local["image"], "CI and docker-compose.yml should run the same database"
        assert f"{port}:{port}" in [str(p) for p in service["ports"]]
        assert "--health-cmd" in service["options"] and "--health-retries" in service["options"]

    url = urlsplit(env["DATABASE_URL"])
    protocol = search(r"protocol: /(.+?)/,", generated.env_module).group(1)
    assert re.search(protocol, url.scheme), f"{url.scheme} is refused by the env module's /{protocol}/"
    assert url.hostname in ("localhost", "127.0.0.1") and url.port == port
    # PostgreSQL's is commented out: without it, `dev` runs an embedded PostgreSQL.
    example = search(r"^(# )?DATABASE_URL=(.+)$", (generated.project / ".env.example").read_text(), re.MULTILINE)
    assert env["DATABASE_URL"] == example.group(2)
    assert bool(example.group(1)) == (engine == "postgresql")
    database = url.path.lstrip("/")
    assert database == db_name(generated.manifest["name"])
    service_env = service.get("env") or {}
    if engine == "postgresql":
        assert (url.username, url.password) == (service_env["POSTGRES_USER"], service_env["POSTGRES_PASSWORD"])
        assert service_env["POSTGRES_DB"] == database
    elif engine == "mysql":
        assert (url.username, url.password) == ("root", service_env["MYSQL_ROOT_PASSWORD"])
        assert service_env["MYSQL_DATABASE"] == database


# --- the schema and zizmor, once over every rendered workflow --------------------------


def test_zizmor_finds_nothing_in_the_generated_workflows_or_stackwrights_own(renders, tmp_path):
    if not ZIZMOR.exists():
        pytest.fail(f"{ZIZMOR} is missing: run ./scripts/bootstrap (requirements.txt pins zizmor)")
    folders = [rendered(renders, case) / ".github" for case in reversed(CASES)]
    own = Path(__file__).resolve().parent.parent / ".github"
    # A copy with its checkout unpinned shows that zizmor really flags what it must.
    broken = tmp_path / "broken" / ".github"
    shutil.copytree(folders[0], broken)
    workflow = broken / "workflows" / "ci.yml"
    workflow.write_text(re.sub(r"actions/checkout@\S+", "actions/checkout@v7", workflow.read_text()))

    def zizmor(*paths: Path) -> subprocess.CompletedProcess:
        command = [str(ZIZMOR), "--offline", "--min-severity", "medium", "--format", "plain", *map(str, paths)]
        return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)

    done = zizmor(own, *folders)
    assert done.returncode == 0, done.stdout + done.stderr
    flagged = zizmor(broken)
    assert flagged.returncode != 0 and "unpinned-uses" in flagged.stdout, flagged.stdout + flagged.stderr


def test_every_workflow_matches_githubs_schema(renders, tmp_path):
    if not CHECKER.exists():
        pytest.fail(f"{CHECKER} is missing: run ./scripts/bootstrap (requirements.txt pins check-jsonschema)")
    # Last in the file and in reverse order: the other workers render the cases from the start.
    files = [rendered(renders, case) / WORKFLOW for case in reversed(CASES)]
    # A broken copy in the same run shows that the check really rejects what GitHub would.
    broken = tmp_path / "broken.yml"
    broken.write_text(files[0].read_text().replace("runs-on:", "run-on:"))
    done = subprocess.run(
        [str(CHECKER), "--builtin-schema", "vendor.github-workflows", *map(str, files), str(broken)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 1, report
    flagged = set(re.findall(r"^\s+(\S+?)::\$", report, re.MULTILINE))
    assert flagged == {str(broken)}, report
