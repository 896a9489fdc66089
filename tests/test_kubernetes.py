"""The generated Kubernetes manifests (deploy/kubernetes), proven offline: there is no cluster here.

For every runtime and framework (each with a data layer, taken in turn, and every API):
`kubectl kustomize` renders the base; every object validates strictly against the Kubernetes
1.33 schemas (kubernetes-validate ships them); checkov's Kubernetes checks find nothing (a check
is skipped only in the manifest, with its reason); and the manifests agree with the image (its
user, the start command's runtime for the mail worker, the migration's script) and with the
server's variables (.env.example, the shutdown's defaults). A broken manifest fails both tools.
"""

from __future__ import annotations

import fcntl
import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, render

from stackwright.bundles import BUNDLES

VENV = Path(sys.executable).parent
KUBERNETES_VALIDATE = VENV / "kubernetes-validate"
# checkov pins packages of its own that pytest's cannot share: a venv of its own, made at its
# first use (checkov_tool), so scripts/bootstrap stays quick for who only generates projects.
CHECKOV_VENV = VENV.parent / "checkov"
CHECKOV = CHECKOV_VENV / "bin" / "checkov"
CHECKOV_REQUIREMENTS = REPO / "requirements-checkov.txt"
KUBERNETES_VERSION = "1.33.0"

ARCHITECTURES = {"express": "feature", "hono": "mvc", "nestjs": "modular", "nextjs": "file-api"}
DATA = [
    {"databaseEngine": "postgresql", "databaseAdapter": "drizzle"},
    {"databaseEngine": "mysql", "databaseAdapter": "prisma"},
    {"databaseEngine": "mongodb", "databaseAdapter": "mongoose"},
    {"databaseEngine": "postgresql", "databaseAdapter": "prisma"},
    {"databaseEngine": "mysql", "databaseAdapter": "drizzle"},
    {"databaseEngine": "none"},
]
STACKS = [
    ("node", "express", "npm"),
    ("node", "nestjs", "pnpm"),
    ("node", "nextjs", "npm"),
    ("bun", "express", "bun"),
    ("bun", "hono", "bun"),
    ("deno", "hono", "yarn"),
]
CASES = {
    f"{runtime}-{framework}-{DATA[n]['databaseEngine']}": {
        "runtime": runtime,
        "framework": framework,
        "architecture": ARCHITECTURES[framework],
        "packageManager": manager,
        **DATA[n],
        **({"bundles": list(BUNDLES)} if DATA[n]["databaseEngine"] != "none" else {}),
    }
    for n, (runtime, framework, manager) in enumerate(STACKS)
}
# The shutdown's defaults in production (shutdown.ts): the grace period must exceed their sum.
SHUTDOWN_SECONDS = (5000 + 10000) / 1000


def rendered(project: Path, scratch: Path) -> Path:
    """`kubectl kustomize deploy/kubernetes`, written to a file."""
    done = subprocess.run(
        ["kubectl", "kustomize", str(project / "deploy" / "kubernetes")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = scratch / "rendered.yaml"
    out.write_text(done.stdout)
    return out


def validation_failures(*manifests: Path) -> str:
    """kubernetes-validate's complaints, strict, against KUBERNETES_VERSION ('' when all pass)."""
    done = subprocess.run(
        [str(KUBERNETES_VALIDATE), "-k", KUBERNETES_VERSION, "--strict", "--quiet", *map(str, manifests)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return "" if done.returncode == 0 else done.stdout + done.stderr


def checkov_summaries(*manifests: Path) -> dict[Path, dict]:
    """checkov's Kubernetes checks on the files, offline, in one run (its start is most of its
    time): per file, its passed and failed checks' counts and the failed ones' ids; parsing
    errors are counted across all of them."""
    args = [arg for path in manifests for arg in ("-f", str(path))]
    done = subprocess.run(
        [str(checkov_tool()), *args, "--framework", "kubernetes", "--skip-download", "-o", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(done.stdout)
    checks = {kind: report["results"][kind] for kind in ("passed_checks", "failed_checks")}
    summaries = {}
    for path in manifests:
        of_file = {kind: [c for c in found if c["file_abs_path"] == str(path)] for kind, found in checks.items()}
        summaries[path] = {
            "passed": len(of_file["passed_checks"]),
            "failed": len(of_file["failed_checks"]),
            "parsing_errors": report["summary"]["parsing_errors"],
            "failed_checks": sorted({f"{c['check_id']} {c['resource']}" for c in of_file["failed_checks"]}),
        }
    return summaries


def objects(manifests: Path) -> dict[str, dict]:
    """The rendered objects by `Kind/name`."""
    return {f"{o['kind']}/{o['metadata']['name']}": o for o in yaml.safe_load_all(manifests.read_text()) if o}


@functools.cache
def checkov_tool() -> Path:
    """checkov in its venv, made or brought to requirements-checkov.txt first (once across the
    xdist workers); a failed install fails the test with pip's output."""
    wanted = CHECKOV_REQUIREMENTS.read_text()
    stamp = CHECKOV_VENV / ".requirements.txt"
    with open(VENV.parent / ".checkov.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists() or stamp.read_text() != wanted:
            steps = [
                [sys.executable, "-m", "venv", str(CHECKOV_VENV)],
                [str(CHECKOV_VENV / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check"]
                + ["-r", str(CHECKOV_REQUIREMENTS)],
            ]
            for step in steps:
                done = subprocess.run(step, capture_output=True, text=True, timeout=900, check=False)
                if done.returncode != 0:
                    pytest.fail(f"{' '.join(step)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
            stamp.write_text(wanted)
    return CHECKOV


def tools_present() -> None:
    if not KUBERNETES_VALIDATE.exists():
        pytest.fail(f"{KUBERNETES_VALIDATE} is missing: run ./scripts/bootstrap")
    checkov_tool()


def test_manifests_render_validate_and_pass_checkov(tmp_path):
    """Every case in one test: each tool runs once over all their manifests."""
    tools_present()
    projects = {
        case: render(tmp_path / case / "api", projectName=f"k8s-{case}", **CASES[case]) for case in sorted(CASES)
    }
    manifests = {case: rendered(project, tmp_path / case) for case, project in projects.items()}
    assert not validation_failures(*manifests.values())
    summaries = checkov_summaries(*manifests.values())
    failures = []
    for case, project in projects.items():
        try:
            summary = summaries[manifests[case]]
            assert summary["failed"] == 0 and summary["parsing_errors"] == 0, summary
            assert summary["passed"] > 50, summary
            the_manifests_agree_with_the_project(case, project, manifests[case])
        except AssertionError as error:
            failures.append(f"--- {case}: {error}")
    assert not failures, "\n".join(failures)


def the_manifests_agree_with_the_project(case: str, project: Path, manifests: Path) -> None:
    answers = CASES[case]
    found = objects(manifests)
    name = f"k8s-{case}"
    server = found[f"Deployment/{name}"]
    pod = server["spec"]["template"]["spec"]
    container = pod["containers"][0]
    # The image's user (the Dockerfile's USER) runs every container, with nothing to write but its emptyDirs.
    user = re.search(r"(?m)^USER (\d+):(\d+)$", (project / "Dockerfile").read_text())
    assert user, "the Dockerfile names no numeric USER"
    assert (pod["securityContext"]["runAsUser"], pod["securityContext"]["runAsGroup"]) == tuple(map(int, user.groups()))
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["automountServiceAccountToken"] is False
    assert pod["terminationGracePeriodSeconds"] > SHUTDOWN_SECONDS
    # Two servers at least, spread across nodes; the autoscaler alone sets their number.
    assert "replicas" not in server["spec"] and found[f"HorizontalPodAutoscaler/{name}"]["spec"]["minReplicas"] == 2
    assert pod["topologySpreadConstraints"][0]["topologyKey"] == "kubernetes.io/hostname"
    assert {p["httpGet"]["path"] for p in (container["livenessProbe"], container["startupProbe"])} == {"/health"}
    assert container["readinessProbe"]["httpGet"]["path"] == "/health/ready"
    # Every variable of the ConfigMap is one the server reads (.env.example names them all).
    config = next(o for key, o in found.items() if key.startswith(f"ConfigMap/{name}-config"))
    example = {line.split("=", 1)[0] for line in (project / ".env.example").read_text().splitlines() if "=" in line}
    example |= {
        line[2:].split("=", 1)[0]
        for line in (project / ".env.example").read_text().splitlines()
        if line.startswith("# ")
    }
    assert set(config["data"]) <= example, set(config["data"]) - example
    assert config["data"]["NODE_ENV"] == "production"

    scripts = json.loads((project / "package.json").read_text())["scripts"]
    if answers["databaseEngine"] != "none":
        job = found[f"Job/{name}-migrate"]["spec"]["template"]["spec"]["containers"][0]
        assert job["command"][-1] in scripts, job["command"]
    worker = found.get(f"Deployment/{name}-mail-worker")
    assert (worker is not None) == ("bundles" in answers)
    if worker:
        assert config["data"]["MAIL_WORKER"] == "off"
        command = worker["spec"]["template"]["spec"]["containers"][0]["command"]
        # The start command's runtime and flags, then the worker's file as the image holds it.
        start = scripts["start"].split()
        assert command[:-1] == start[:-1], (command, start)
        entry = command[-1]
        if entry.startswith("dist/"):
            # Built: the build script compiles or bundles it there (tsc's rootDir, esbuild's outbase).
            source = entry.removeprefix("dist/").removesuffix(".js") + ".ts"
            assert any(project.glob(f"**/src/{source}")), entry
            assert "esbuild" not in scripts["build"] or "mail-worker" in scripts["build"], scripts["build"]
        else:
            assert (project / entry).is_file(), entry


def test_a_broken_manifest_fails_both_tools(tmp_path):
    tools_present()
    project = render(tmp_path / "api", projectName="k8s-broken", **CASES["node-express-postgresql"])
    manifests = rendered(project, tmp_path)
    text = manifests.read_text()
    misspelled = tmp_path / "misspelled.yaml"
    misspelled.write_text(text.replace("terminationGracePeriodSeconds", "terminationGracePeriodSecond", 1))
    assert "terminationGracePeriodSecond" in validation_failures(misspelled)
    writable = tmp_path / "writable.yaml"
    writable.write_text(text.replace("readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", 1))
    assert not validation_failures(writable)
    assert any(check.startswith("CKV_K8S_22 ") for check in checkov_summaries(writable)[writable]["failed_checks"])


def test_the_generated_ci_checks_the_manifests_with_the_suites_tools(tmp_path):
    """The generated workflow's `kubernetes` job, its steps run here: `pipx run --spec tool==version`
    becomes this venv's tool, which must be that version."""
    tools_present()
    project = render(tmp_path / "api", projectName="k8s-ci", **CASES["bun-hono-mysql"])
    job = yaml.safe_load((project / ".github/workflows/ci.yml").read_text())["jobs"]["kubernetes"]
    installed = {
        "kubernetes-validate": subprocess.run(
            [str(VENV / "python"), "-c", "import importlib.metadata as m; print(m.version('kubernetes-validate'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip(),
        "checkov": subprocess.run(
            [str(CHECKOV), "--version"], capture_output=True, text=True, check=True
        ).stdout.strip(),
    }
    local = {"kubernetes-validate": str(KUBERNETES_VALIDATE), "checkov": str(CHECKOV)}
    ran = []
    for step in job["steps"]:
        if "run" not in step:
            continue
        command = step["run"]
        for tool, version in re.findall(r"pipx run --spec ([\w-]+)==([\d.]+) [\w-]+", command):
            assert installed[tool] == version, (tool, installed[tool], version)
            command = command.replace(f"pipx run --spec {tool}=={version} {tool}", local[tool])
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=project,
            env={"PATH": "/usr/bin:/bin", "RUNNER_TEMP": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, (step["name"], done.stdout[-2000:], done.stderr[-2000:])
        ran.append(step["name"])
    assert ran == ["Render", "Validate", "Checkov"]
