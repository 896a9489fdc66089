"""Build registry/<slug>.json from the same fragments Copier renders.

    .venv/bin/python scripts/build_registry.py [OUT_DIR]      (default: registry/)

Each entry is rendered from the template's fragments with Copier's Jinja
environment for that bundle, template name, stack and architecture; its files
are the ones the bundle adds to a project that has the same stack and no bundle.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from copier import run_copy
from jinja2 import FileSystemLoader
from jinja2.sandbox import SandboxedEnvironment

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "extensions"))

from jinja_extension import StackwrightExtension
from stackwright.bundles import BUNDLES, bundle_models
from stackwright.file_plan import plan_files
from stackwright.packages import VERSIONS
from stackwright.questions import BUILT, NO_DATABASE, built_values


def data_layers() -> list[tuple[str, str]]:
    """(engine, adapter) pairs this release builds."""
    return [
        (engine, adapter)
        for engine in BUILT["databaseEngine"]
        if engine != NO_DATABASE
        for adapter in built_values("databaseAdapter", engine)
    ]


def app_stacks() -> list[tuple[str, str, list[str]]]:
    """(runtime, framework, architectures) this release builds."""
    return [
        (runtime, framework, built_values("architecture", framework))
        for runtime in BUILT["runtime"]
        for framework in built_values("framework", runtime)
    ]


STACKS = data_layers()


def template_names(slug: str, adapter: str, engine: str) -> dict[str, list[str]]:
    """{template name: its model items}: 'index' is every model of the bundle, then one per model."""
    models = bundle_models(slug, adapter, engine)
    names = {"index": [f"{slug}/{m}" for m in models]}
    names.update({m: [f"{slug}/{m}"] for m in models})
    return names


def answers_for(
    slug: str | None,
    engine: str,
    adapter: str,
    architecture: str,
    items: list[str],
    runtime: str = "node",
    framework: str = "express",
) -> dict:
    """Copier answers that select one registry entry (slug None: the same stack, no bundle):
    a bundle's models, without the domain APIs (whose files, and tables, are not the registry's)."""
    return {
        "projectName": "app",
        "rootDir": ".",
        "packageManager": "npm",
        "runtime": runtime,
        "language": "typescript",
        "framework": framework,
        "architecture": architecture,
        "databaseEngine": engine,
        "databaseAdapter": adapter,
        "bundles": [slug] if slug else [],
        "models": items,
        "apis": [],
    }


def render_files(template: Path, answers: dict, scratch: Path) -> dict[str, str]:
    """{relative path: text} of a project rendered with the answers by `copier copy`."""
    destination = Path(tempfile.mkdtemp(dir=scratch))
    run_copy(str(template), str(destination), data=answers, defaults=True, unsafe=True, quiet=True)
    files = {p.relative_to(destination).as_posix(): p.read_text() for p in destination.rglob("*") if p.is_file()}
    shutil.rmtree(destination)
    return files


class FragmentRenderer:
    """Renders planned files from the template's fragments with its Jinja extension.

    The same fragments and plan as `copier copy`, without asking the questions or
    writing a project for each entry: fast for a large matrix. Copier's settings
    that matter here: a sandbox, trailing newlines kept. tests/test_registry.py
    checks that `copier copy` writes the same text.
    """

    def __init__(self, template: Path):
        self.env = SandboxedEnvironment(
            loader=FileSystemLoader(template), extensions=[StackwrightExtension], keep_trailing_newline=True
        )

    def added_files(self, answers: dict, base: dict) -> dict[str, str]:
        """{path: text} of the files that `answers` plan and `base` does not."""
        base_paths = {f["path"] for f in plan_files(base)}
        return {
            f["path"]: self.env.get_template(f["fragment"]).render(**answers, model=f["model"])
            for f in plan_files(answers)
            if f["path"] not in base_paths
        }


def bundle_entry(renderer: FragmentRenderer, slug: str) -> dict:
    """The registry document of one bundle."""
    runtimes: dict = {}
    for runtime, framework, architectures in app_stacks():
        databases: dict = {}
        for engine, adapter in STACKS:
            templates: dict = {}
            for architecture in architectures:
                base = answers_for(None, engine, adapter, architecture, [], runtime, framework)
                for name, items in template_names(slug, adapter, engine).items():
                    answers = answers_for(slug, engine, adapter, architecture, items, runtime, framework)
                    added = renderer.added_files(answers, base)
                    files = [{"type": "file", "path": path, "content": added[path]} for path in sorted(added)]
                    templates.setdefault(name, {"architectures": {}})["architectures"][architecture] = {"files": files}
            deps = VERSIONS["adapterDependencies"][f"{engine}/{adapter}"]
            databases.setdefault(engine, {"orms": {}})["orms"][adapter] = {
                "dependencies": {"runtime": list(deps["runtime"]), "dev": list(deps["dev"])},
                "templates": templates,
            }
        runtimes.setdefault(runtime, {"frameworks": {}})["frameworks"][framework] = {"databases": databases}
    return {"slug": slug, "runtimes": runtimes}


def plain_copy(scratch: Path) -> Path:
    """The working tree without git, so Copier renders it in place (and quickly)."""
    template = scratch / "template-src"
    shutil.copytree(
        REPO,
        template,
        ignore=shutil.ignore_patterns(".git", ".venv", ".cache", "__pycache__", "node_modules", "registry", "golden"),
    )
    return template


def build(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        renderer = FragmentRenderer(plain_copy(scratch))
        for slug in BUNDLES:
            path = out_dir / f"{slug}.json"
            path.write_text(json.dumps(bundle_entry(renderer, slug), indent=2) + "\n")
            written.append(path)
    return written


if __name__ == "__main__":
    for path in build(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "registry"):
        print(f"wrote {path}")
