"""Golden snapshots: a broad sample of generated projects, byte for byte.

They pin the output of the template across refactors: a change to a fragment
that alters a generated file shows up here as a diff against tests/golden/.
When the change is intended, rewrite the snapshots and review the diff:

    .venv/bin/python tests/test_golden.py
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
sys.path.insert(0, str(HERE.parent / "scripts"))

from build_registry import plain_copy, render_files
from conftest import auth_bundle_unless_named

# name -> answers. Every architecture x data layer, bundle subsets, every package
# manager and a rootDir; each further stack adds its own rows.
SAMPLES: dict[str, dict] = {
    **{
        f"node-express-{arch}-{db}": {"architecture": arch, **layer}
        for arch in ("mvc", "feature")
        for db, layer in {
            "none": {"databaseEngine": "none"},
            "pg": {"databaseEngine": "postgresql", "databaseAdapter": "drizzle"},
            "mysql": {"databaseEngine": "mysql", "databaseAdapter": "drizzle"},
            "mongoose": {"databaseEngine": "mongodb", "databaseAdapter": "mongoose"},
        }.items()
    },
    "node-express-feature-pg-all-bundles-pnpm": {
        "databaseEngine": "postgresql",
        "databaseAdapter": "drizzle",
        "bundles": ["auth", "banking-app", "blog-app"],
        "packageManager": "pnpm",
    },
    "node-express-mvc-mysql-all-bundles-yarn": {
        "architecture": "mvc",
        "databaseEngine": "mysql",
        "databaseAdapter": "drizzle",
        "bundles": ["auth", "banking-app", "blog-app"],
        "packageManager": "yarn",
    },
    "node-express-feature-mongoose-all-bundles-bun": {
        "databaseEngine": "mongodb",
        "databaseAdapter": "mongoose",
        "bundles": ["auth", "banking-app", "blog-app"],
        "packageManager": "bun",
    },
    "node-express-mvc-pg-blog-post-rootdir": {
        "architecture": "mvc",
        "databaseEngine": "postgresql",
        "databaseAdapter": "drizzle",
        "bundles": ["blog-app"],
        "models": ["blog-app/post"],
        "rootDir": "apps/api",
    },
    "node-express-feature-mysql-banking-ledger": {
        "databaseEngine": "mysql",
        "databaseAdapter": "drizzle",
        "bundles": ["banking-app"],
        "models": ["banking-app/ledger", "banking-app/account"],
    },
    "node-express-feature-none-rootdir-pnpm": {
        "databaseEngine": "none",
        "rootDir": "services/api",
        "packageManager": "pnpm",
    },
    "bun-express-feature-pg-bun": {
        "runtime": "bun",
        "packageManager": "bun",
        "databaseEngine": "postgresql",
        "databaseAdapter": "drizzle",
    },
    "bun-hono-mvc-mysql-all-bundles-bun": {
        "runtime": "bun",
        "framework": "hono",
        "architecture": "mvc",
        "packageManager": "bun",
        "databaseEngine": "mysql",
        "databaseAdapter": "drizzle",
        "bundles": ["auth", "banking-app", "blog-app"],
    },
    "bun-hono-feature-none-yarn": {
        "runtime": "bun",
        "framework": "hono",
        "packageManager": "yarn",
        "databaseEngine": "none",
    },
    "deno-hono-feature-mongoose-all-bundles": {
        "runtime": "deno",
        "databaseEngine": "mongodb",
        "databaseAdapter": "mongoose",
        "bundles": ["auth", "banking-app", "blog-app"],
    },
    "deno-hono-mvc-pg-rootdir-pnpm": {
        "runtime": "deno",
        "architecture": "mvc",
        "packageManager": "pnpm",
        "rootDir": "apps/api",
        "databaseEngine": "postgresql",
        "databaseAdapter": "drizzle",
    },
    "node-nestjs-modular-pg-all-bundles": {
        "framework": "nestjs",
        "architecture": "modular",
        "databaseEngine": "postgresql",
        "databaseAdapter": "drizzle",
        "bundles": ["auth", "banking-app", "blog-app"],
    },
    "node-nestjs-modular-mongoose-auth-pnpm": {
        "framework": "nestjs",
        "architecture": "modular",
        "packageManager": "pnpm",
        "databaseEngine": "mongodb",
        "databaseAdapter": "mongoose",
    },
    "node-nextjs-file-api-mysql-all-bundles-rootdir": {
        "framework": "nextjs",
        "architecture": "file-api",
        "rootDir": "apps/api",
        "databaseEngine": "mysql",
        "databaseAdapter": "drizzle",
        "bundles": ["auth", "banking-app", "blog-app"],
    },
    "node-nextjs-file-api-mongoose-blog-bun": {
        "framework": "nextjs",
        "architecture": "file-api",
        "packageManager": "bun",
        "databaseEngine": "mongodb",
        "databaseAdapter": "mongoose",
        "bundles": ["blog-app"],
    },
    "node-nextjs-file-api-none": {"framework": "nextjs", "architecture": "file-api", "databaseEngine": "none"},
    "node-nestjs-modular-none-rootdir-yarn": {
        "framework": "nestjs",
        "architecture": "modular",
        "packageManager": "yarn",
        "databaseEngine": "none",
        "rootDir": "apps/api",
    },
}

SRC_PATH_MARK = "<template>"


def render_sample(template: Path, name: str, scratch: Path) -> dict[str, str]:
    """{relative path: text} of one sample; the template's temporary path is masked."""
    # A sample that names no bundle is an auth-only variant.
    answers = auth_bundle_unless_named({"projectName": f"golden-{name}", **SAMPLES[name]})
    files = render_files(template, answers, scratch)
    return {path: text.replace(str(template), SRC_PATH_MARK) for path, text in files.items()}


def snapshot(name: str) -> dict[str, str]:
    """One JSON file per sample ({path: [lines]}, so git diffs show lines)."""
    lines = json.loads((GOLDEN / f"{name}.json").read_text())
    return {path: "".join(text) for path, text in lines.items()}


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    return plain_copy(tmp_path_factory.mktemp("golden"))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_output_matches_golden_snapshot(template: Path, tmp_path: Path, name: str) -> None:
    rendered = render_sample(template, name, tmp_path)
    expected = snapshot(name)
    assert sorted(rendered) == sorted(expected), f"{name}: the set of generated files changed"
    changed = [path for path in sorted(rendered) if rendered[path] != expected[path]]
    assert not changed, f"{name}: these files changed (rewrite with python tests/test_golden.py): {changed}"


def write_snapshots() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        template = plain_copy(scratch)
        shutil.rmtree(GOLDEN, ignore_errors=True)
        GOLDEN.mkdir()
        for name in sorted(SAMPLES):
            files = render_sample(template, name, scratch)
            lines = {path: files[path].splitlines(keepends=True) for path in sorted(files)}
            (GOLDEN / f"{name}.json").write_text(json.dumps(lines, indent=1) + "\n")
            print(f"wrote {GOLDEN / name}.json")


if __name__ == "__main__":
    write_snapshots()
