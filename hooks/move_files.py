"""Carry the user's edits to files that a release moved, and keep those of files it split.

Copier has no notion of a moved file: `copier update` writes the moved file at its new place
with the new release's text, and deletes the old one, edits and all (it removes what the old
release made and the new one does not). copier.yml runs this twice in every update:

    python hooks/move_files.py before SRC_PATH VERSION_FROM [PROJECT_DIR]
    python hooks/move_files.py after SRC_PATH VERSION_FROM [PROJECT_DIR]

`before` keeps the user's copy of each moved file whose old path is in the project, in
.git/stackwright-moved/. `after` renders the release the project came from (once) to learn
what the template wrote there, merges the user's changes into the file at its new path
(`git merge-file`: a conflict is left marked, and the conflict report that runs next names
it), and drops the kept copies. A project without such files costs nothing.

A file that a release split into others (SPLIT) has no one place for the user's edits: an
edited copy is put back where it was, named in the update's output, for the user to move
their edits into the new files; an unedited one is gone, as Copier leaves it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

# Drizzle's tables, by model and feature module: <model>.schema.ts (beside the request
# schemas, <api>.schemas.ts) became <model>.table.ts.
MODULES = [
    ("user", "users"),
    ("session", "auth"),
    ("refresh-token", "auth"),
    ("otp", "auth"),
    ("account", "accounts"),
    ("transaction", "transactions"),
    ("ledger", "ledgers"),
    ("category", "categories"),
    ("post", "posts"),
    ("comment", "comments"),
    ("post-like", "posts"),
    ("comment-like", "comments"),
]
# NestJS's layout (modular): each model's table moved from its feature folder to the module of
# the domain API that owns it (src/users/user.table.ts became src/auth/user.table.ts).
MODEL_APIS = {
    "user": "auth",
    "session": "auth",
    "refresh-token": "auth",
    "otp": "auth",
    "account": "bank",
    "transaction": "bank",
    "ledger": "bank",
    "category": "blog",
    "post": "blog",
    "comment": "blog",
    "post-like": "blog",
    "comment-like": "blog",
}
# Old path -> new path, relative to rootDir, per architecture: the files the release after
# 0.x moved so that generated projects keep their boundaries (see CHANGELOG). The suite
# checks each new path against the layouts, so this list cannot drift from them.
MOVED: dict[str, dict[str, str]] = {
    "feature": {
        "src/shared/database/database.ts": "src/database/database.ts",
        "src/shared/database/schema.ts": "src/database/schema.ts",
        "src/shared/database/relations.ts": "src/database/relations.ts",
        "src/shared/database/models.ts": "src/database/models.ts",
        "src/shared/database/sync-indexes.ts": "src/database/sync-indexes.ts",
        "src/shared/database/constraints.ts": "src/database/constraints.ts",
        "src/shared/openapi.ts": "src/api/openapi.ts",
        "src/modules/openapi.ts": "src/api/openapi.ts",
        "src/modules/api-endpoints.ts": "src/api/api-endpoints.ts",
        "src/modules/api.routes.ts": "src/api/api.routes.ts",
        "src/shared/mail/mailer.ts": "src/modules/auth/mail/mailer.ts",
        "src/shared/middlewares/authenticate.ts": "src/modules/auth/authenticate.ts",
        **{
            f"src/modules/{module}/{model}.schema.ts": f"src/modules/{module}/{model}.table.ts"
            for model, module in MODULES
        },
    },
    "mvc": {
        "src/config/database.ts": "src/db/database.ts",
        "src/utils/openapi.ts": "src/routes/openapi.ts",
        "src/utils/mailer.ts": "src/services/mailer.ts",
        "src/utils/password-hasher.ts": "src/services/password-hasher.ts",
        "src/utils/token-signer.ts": "src/services/token-signer.ts",
        "src/services/create-auth.ts": "src/composition/create-auth.ts",
        "src/services/create-bank.ts": "src/composition/create-bank.ts",
        "src/services/create-blog.ts": "src/composition/create-blog.ts",
    },
    "modular": {
        "src/database/timestamps.ts": "src/common/timestamps.ts",
        "src/database/repository-support.ts": "src/common/repository-support.ts",
        "src/database/immutable-ledger.ts": "src/common/immutable-ledger.ts",
        "src/common/openapi.ts": "src/api/openapi.ts",
        "src/common/mailer.ts": "src/auth/mail/mailer.ts",
        **{f"src/{module}/{model}.schema.ts": f"src/{MODEL_APIS[model]}/{model}.table.ts" for model, module in MODULES},
        **{
            f"src/{module}/{model}.{kind}.ts": f"src/{MODEL_APIS[model]}/{model}.{kind}.ts"
            for model, module in MODULES
            for kind in ("table", "model")
            if module != MODEL_APIS[model]
        },
    },
    "file-api": {
        "src/lib/db.ts": "src/db/client.ts",
        "src/lib/openapi.ts": "src/openapi.ts",
        "src/lib/mailer.ts": "src/modules/auth/mail/mailer.ts",
        # The caller of a request became the route builder of every route file.
        "src/app/api/v1/auth/caller.ts": "src/app/api/v1/record-route.ts",
    },
}


# Old path -> the files that took its parts, relative to rootDir, in every architecture (the API
# tests sit in tests/ in each): the release after 0.x split them by concern.
SPLIT: dict[str, list[str]] = {
    "tests/auth.test.ts": ["tests/sign-up.test.ts", "tests/users.test.ts"],
    "tests/mfa.test.ts": [
        "tests/mfa-authenticator-app.test.ts",
        "tests/mfa-recovery-codes.test.ts",
        "tests/mfa-second-step.test.ts",
    ],
    "tests/bank.test.ts": ["tests/accounts.test.ts", "tests/transfers.test.ts"],
    "tests/blog.test.ts": ["tests/posts.test.ts", "tests/comments.test.ts"],
    # NestJS (modular): the modules build the bank's and the blog's services as providers.
    "src/bank/create-bank.ts": ["src/bank/bank.module.ts"],
    "src/blog/create-blog.ts": ["src/blog/blog.module.ts"],
    # Next.js (file-api): the custom server's edge answers the methods a path lacks, which the
    # Next proxy (middleware) did; an edited proxy, kept, still runs.
    "src/proxy.ts": ["src/lib/next-edge.ts"],
}


def splits_in(project: Path) -> list[tuple[str, list[str]]]:
    """This project's split files, (old, news) relative to the project."""
    root = Path(str(json.loads((project / "stackwright.json").read_text()).get("rootDir", ".")))
    return [((root / old).as_posix(), [(root / new).as_posix() for new in news]) for old, news in SPLIT.items()]


# The feature layout's tables and Mongoose models: from their feature module to the module of
# the domain API that owns them, where the project has that API (without it, they stay).
def feature_model_moves(apis: list[str]) -> dict[str, str]:
    moves = {}
    for model, module in MODULES:
        if MODEL_APIS[model] in apis and module != MODEL_APIS[model]:
            for kind in ("table", "model"):
                moves[f"src/modules/{module}/{model}.{kind}.ts"] = f"src/modules/{MODEL_APIS[model]}/{model}.{kind}.ts"
                if kind == "table":  # the older name of a table's file, moved in one step
                    moves[f"src/modules/{module}/{model}.schema.ts"] = moves[f"src/modules/{module}/{model}.table.ts"]
    return moves


# Where an API's folder is, per architecture with one (mvc's folders are by kind).
API_FOLDERS = {"feature": "src/modules/{api}", "modular": "src/{api}", "file-api": "src/modules/{api}"}
APIS_DIR = Path(__file__).resolve().parents[1] / "template" / "layers" / "apis"


def concern_moves(architecture: str) -> dict[str, str]:
    """An API's files from the top of its folder to their concern's sub-folder (manifest
    `concerns`), but those the manifest places elsewhere (`places`)."""
    if architecture not in API_FOLDERS:
        return {}
    moves = {}
    for path in sorted(APIS_DIR.glob("*/api.yml")):
        manifest = yaml.safe_load(path.read_text())
        folder = API_FOLDERS[architecture].format(api=path.parent.name)
        places = manifest.get("places") or {}
        for concern, names in (manifest.get("concerns") or {}).items():
            for name in names:
                if not {architecture, "*"} & set(places.get(name) or {}):
                    moves[f"{folder}/{name}"] = f"{folder}/{concern}/{name}"
    return moves


def moves_in(project: Path) -> list[tuple[str, str]]:
    """This project's moved files, (old, new) relative to the project."""
    config = json.loads((project / "stackwright.json").read_text())
    root = Path(str(config.get("rootDir", ".")))
    pairs = {**MOVED.get(str(config.get("architecture")), {}), **concern_moves(str(config.get("architecture")))}
    if config.get("architecture") == "feature":
        answers = yaml.safe_load((project / ".copier-answers.yml").read_text()) or {}
        pairs.update(feature_model_moves(list(answers.get("apis") or [])))
    return [((root / old).as_posix(), (root / new).as_posix()) for old, new in pairs.items()]


def kept_copies(project: Path) -> Path:
    """Where `before` keeps the user's files: in the repository's git folder, which the update
    never reads."""
    git_dir = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"], cwd=project, capture_output=True, text=True, check=True
    ).stdout.strip()
    return Path(git_dir) / "stackwright-moved"


def render_release(src_path: str, commit: str, project: Path, into: Path) -> None:
    """The release the project came from, rendered with the project's answers."""
    from copier import run_copy

    answers = yaml.safe_load((project / ".copier-answers.yml").read_text()) or {}
    data = {key: value for key, value in answers.items() if not key.startswith("_")}
    run_copy(src_path, into, data=data, vcs_ref=commit, defaults=True, unsafe=True, quiet=True, overwrite=True)


def keep(project: Path) -> None:
    olds = [old for old, _ in [*moves_in(project), *splits_in(project)] if (project / old).is_file()]
    if not olds:
        return
    store = kept_copies(project)
    for old in olds:
        kept = store / old
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(project / old, kept)


def merge(project: Path, src_path: str, commit: str) -> None:
    store = kept_copies(project)
    moves = [(old, new) for old, new in moves_in(project) if (store / old).is_file()]
    splits = [(old, news) for old, news in splits_in(project) if (store / old).is_file()]
    if not moves and not splits:
        return
    with tempfile.TemporaryDirectory(prefix="stackwright-release-") as scratch:
        before = Path(scratch) / "project"
        render_release(src_path, commit, project, before)
        for old, news in splits:
            yours, base = store / old, before / old
            still_made = (project / old).is_file()  # a release that makes it still: nothing to keep
            if still_made or (base.is_file() and base.read_bytes() == yours.read_bytes()):
                continue
            (project / old).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(yours, project / old)
            print(f"{old}: kept with your edits; this release split it into {', '.join(news)}: move them there")
        for old, new in moves:
            base, yours = before / old, store / old
            if not (project / new).is_file() or not base.is_file():
                (project / old).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(yours, project / old)
                print(f"{old}: kept as it was ({new} has no release text to merge it into)")
                continue
            labels = ["-L", new, "-L", "last update", "-L", f"your {old}"]
            subprocess.run(["git", "merge-file", *labels, new, str(base), str(yours)], cwd=project, check=False)
            print(f"{old}: moved to {new} (your edits, if any, merged into it)")
    shutil.rmtree(store)


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4) or argv[0] not in ("before", "after"):
        print("usage: move_files.py before|after SRC_PATH VERSION_FROM [PROJECT_DIR]", file=sys.stderr)
        return 2
    stage, src_path, commit = argv[:3]
    project = Path(argv[3] if len(argv) == 4 else ".").resolve()
    if stage == "before":
        keep(project)
    else:
        merge(project, src_path, commit)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
