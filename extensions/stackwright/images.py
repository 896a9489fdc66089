"""The container image's facts for the current answers: the Dockerfile's one source of
what differs between runtimes and frameworks (their rows in stacks.py)."""

from __future__ import annotations

import re
from typing import Any

from jinja2 import pass_context

from .apis import api_worker_scripts
from .layouts import compiled_path, place
from .packages import VERSIONS, exec_form
from .stacks import FRAMEWORKS, RUNTIMES


@pass_context
def container_image(context: Any) -> dict[str, Any]:
    """{'node': the Node.js image every package manager runs on, 'final': the runtime's row,
    'binaries': {stage name: [image, path]} the build stage copies a binary from,
    'manager_binary': the stage of the package manager's own binary (Bun) or None,
    'files': what the final stage copies from the build stage, 'env': the framework's variables
    of an unattended build, those its CI job sets too (Next.js: no telemetry)}."""
    root = context.get("rootDir", ".")
    fill = {
        "nodeLts": VERSIONS["nodeLts"],
        **VERSIONS["runtimes"],
        "src": place(context, "src"),
        "project": "" if root in ("", ".") else f"{root}/",
    }
    runtime = RUNTIMES[context["runtime"]]
    final = {key: value.format(**fill) if isinstance(value, str) else value for key, value in runtime["image"].items()}
    binaries = {}
    if "binary" in final:
        binaries[context["runtime"]] = [part.format(**fill) for part in final["binary"]]
    manager_binary = None
    if context["packageManager"] == "bun":
        binaries["bun"] = [part.format(**fill) for part in RUNTIMES["bun"]["image"]["binary"]]
        manager_binary = "bun"
    files = FRAMEWORKS[context["framework"]].get("image_files") or runtime["image_files"]
    return {
        "node": RUNTIMES["node"]["image"]["base"].format(**fill),
        "final": final,
        "binaries": binaries,
        "manager_binary": manager_binary,
        "files": [file.format(**fill) for file in files],
        "env": FRAMEWORKS[context["framework"]].get("ci_env") or {},
    }


# SIGTERM's defaults in production, the one source of the server's shutdown.ts and env.ts,
# .env.example, config.env and the grace period: new requests are served for the delay, then
# requests in flight get the timeout.
SHUTDOWN_DELAY_MS = 5_000
SHUTDOWN_TIMEOUT_MS = 10_000
SHUTDOWN_DEFAULTS = {"delay_ms": SHUTDOWN_DELAY_MS, "timeout_ms": SHUTDOWN_TIMEOUT_MS}
# The collector the README and docker-compose.yml point telemetry at: Jaeger, an OpenTelemetry
# Collector distribution with a trace viewer (OTLP/HTTP on 4318, the viewer on 16686).
TELEMETRY_COLLECTOR_IMAGE = "cr.jaegertracing.io/jaegertracing/jaeger:2.15.0"
# Kubernetes' grace period: past both, with room for the runtime to exit.
GRACE_MARGIN_S = 5


def kubernetes_name(project_name: Any) -> str:
    """A DNS-1123 label made from the npm package name ('@acme/my_api' -> 'my-api'), short
    enough for the suffixes of its objects ('-mail-worker', '-migrate')."""
    name = re.sub(r"[^a-z0-9-]+", "-", str(project_name).split("/")[-1].lower()).strip("-")[:40].rstrip("-")
    return name or "app"


@pass_context
def deployment(context: Any, start_script: str, project_name: str) -> dict[str, Any]:
    """The Kubernetes manifests' facts for the current answers (deploy/kubernetes): the objects'
    name, the image's user and group ids, the grace period, the folders a framework writes
    (each an emptyDir under a read-only root), its memory, and each API worker's command in the
    image (`start_script`'s runtime and flags, the worker's file in place of the server's)."""
    image = container_image(context)
    uid, _, gid = image["final"]["uid"].partition(":")
    framework = FRAMEWORKS[context["framework"]]
    runtime = RUNTIMES[context["runtime"]]
    start = exec_form(start_script)["argv"]
    root = context.get("rootDir", ".")
    project = "" if root in ("", ".") else f"{root}/"

    def in_image(key: str) -> list[str]:
        # Built, dist/ mirrors the sources (tsc's rootDir; Next's esbuild outbase).
        path = compiled_path(context, key) if runtime["builds"] else place(context, key)
        return [*start[:-1], path]

    return {
        "name": kubernetes_name(project_name),
        "uid": int(uid),
        "gid": int(gid or uid),
        "grace_seconds": (SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS) // 1000 + GRACE_MARGIN_S,
        "writes": ["/tmp", *(f"/app/{folder.format(project=project)}" for folder in framework.get("writes", []))],
        "memory": framework.get("memory") or runtime["memory"],
        "workers": {script: in_image(file) for script, file in api_worker_scripts(context).items()},
    }
