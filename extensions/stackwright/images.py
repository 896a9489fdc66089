"""The container image's facts for the current answers: the Dockerfile's one source of
what differs between runtimes and frameworks (their rows in stacks.py)."""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context

from .layouts import place
from .packages import VERSIONS
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
