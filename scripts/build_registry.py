"""Build registry/<slug>.json from the same fragments Copier renders.

    .venv/bin/python scripts/build_registry.py [OUT_DIR]      (default: registry/)

Each entry is produced by rendering the template with Copier for that bundle,
template name, stack and architecture; its files are the ones the bundle adds
to a project that has the same stack and no bundle.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from copier import run_copy

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "extensions"))

import stackwright  # noqa: E402  (the extension: bundles, models, versions)

STACKS = [("postgresql", "drizzle"), ("mysql", "drizzle"), ("mongodb", "mongoose")]
ARCHITECTURES = ["mvc", "feature"]
RUNTIME, FRAMEWORK = "node", "express"


def template_names(slug: str, adapter: str) -> dict[str, list[str]]:
    """{template name: its model items}: 'index' is every model of the bundle, then one per model."""
    models = stackwright.bundle_models(slug, adapter)
    names = {"index": [f"{slug}/{m}" for m in models]}
    names.update({m: [f"{slug}/{m}"] for m in models})
    return names


def answers_for(slug: str | None, engine: str, adapter: str, architecture: str, items: list[str]) -> dict:
    """Copier answers that select one registry entry (slug None: the same stack, no bundle)."""
    return {
        "projectName": "app",
        "runtime": RUNTIME,
        "framework": FRAMEWORK,
        "architecture": architecture,
        "databaseEngine": engine,
        "databaseAdapter": adapter,
        "bundles": [slug] if slug else [],
        "models": items,
    }


def render_files(template: Path, answers: dict, scratch: Path) -> dict[str, str]:
    """{relative path: text} of a project rendered with the answers."""
    destination = Path(tempfile.mkdtemp(dir=scratch))
    run_copy(str(template), str(destination), data=answers, defaults=True, unsafe=True, quiet=True)
    files = {
        p.relative_to(destination).as_posix(): p.read_text()
        for p in destination.rglob("*")
        if p.is_file()
    }
    shutil.rmtree(destination)
    return files


def bundle_entry(template: Path, slug: str, scratch: Path) -> dict:
    """The registry document of one bundle."""
    databases: dict = {}
    for engine, adapter in STACKS:
        stack = f"{engine}/{adapter}"
        templates: dict = {}
        for architecture in ARCHITECTURES:
            base = render_files(template, answers_for(None, engine, adapter, architecture, []), scratch)
            for name, items in template_names(slug, adapter).items():
                answers = answers_for(slug, engine, adapter, architecture, items)
                rendered = render_files(template, answers, scratch)
                files = [
                    {"type": "file", "path": path, "content": rendered[path]}
                    for path in sorted(set(rendered) - set(base))
                ]
                templates.setdefault(name, {"architectures": {}})["architectures"][architecture] = {"files": files}
        deps = stackwright.VERSIONS["adapterDependencies"][stack]
        databases[engine] = {
            "orms": {
                adapter: {
                    "dependencies": {"runtime": list(deps["runtime"]), "dev": list(deps["dev"])},
                    "templates": templates,
                }
            }
        }
    return {
        "slug": slug,
        "runtimes": {RUNTIME: {"frameworks": {FRAMEWORK: {"databases": databases}}}},
    }


def plain_copy(scratch: Path) -> Path:
    """The working tree without git, so Copier renders it in place (and quickly)."""
    template = scratch / "template-src"
    shutil.copytree(
        REPO, template, ignore=shutil.ignore_patterns(".git", ".venv", ".cache", "__pycache__", "node_modules", "registry", "golden")
    )
    return template


def build(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        template = plain_copy(scratch)
        for slug in stackwright.BUNDLES:
            path = out_dir / f"{slug}.json"
            path.write_text(json.dumps(bundle_entry(template, slug, scratch), indent=2) + "\n")
            written.append(path)
    return written


if __name__ == "__main__":
    for path in build(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "registry"):
        print(f"wrote {path}")
