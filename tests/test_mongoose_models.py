"""Mongoose models of the data-model bundles, checked without a MongoDB server.

Every bundle x template x architecture is generated, type-checked and linted; then
tests/mongoose/check-models.ts runs (one tsx process per variant) with
`bufferCommands` off and reports each model's schema, validation, defaults,
indexes and ledger guards as JSON. The expected values below come from the spec
(data model tables, Errors, Limits); a model that drifts from them fails here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import install_node_modules, render, run, type_check_together

from stackwright.bundles import BUNDLES, RELATIONAL_ONLY
from stackwright.layouts import LAYOUTS, model_file

CHECK_SCRIPT = Path(__file__).parent / "mongoose" / "check-models.ts"
ALL_BUNDLES = ["auth", "banking-app", "blog-app"]
ARCHITECTURES = ["mvc", "feature"]

DAY = 24 * 60 * 60
TTL_7_DAYS = 7 * DAY
TTL_5_MINUTES = 5 * 60


def _idx(fields: list[tuple[str, object]], **options: object) -> tuple[list[tuple[str, object]], dict]:
    return fields, options


EXPECTED: dict[str, dict] = {
    "user": {
        "name": "User",
        "required": {"name": "Name is required", "email": "Email is required"},
        "defaults": {
            "role": "user",
            "provider": "local",
            "avatar": {},
            "isEmailVerified": False,
            "failedLoginAttempts": 0,
            "isDeleted": False,
            "deletedAt": None,
            "reActivateAvailableAt": None,
        },
        "select_false": {"password"},
        "immutable": set(),
        "maxlength": {"name": 100, "email": 255, "password": 255, "providerId": 255},
        "enums": {"role": ["user", "admin"], "provider": ["local", "google", "github"]},
        "refs": {},
        "normalized": {"name": "MiXeD.Case@Example.COM", "email": "mixed.case@example.com"},
        "indexes": [
            _idx([("email", 1)], unique=True),
            _idx([("role", 1)]),
            _idx([("isDeleted", 1)]),
            _idx([("provider", 1), ("providerId", 1)]),
        ],
    },
    "session": {
        "name": "Session",
        "required": {
            "userId": "User ID is required",
            "tokenHash": "Token hash is required",
            "expiresAt": "Expiration time is required",
        },
        "defaults": {"isActive": True, "lastUsedAt": "Date"},
        "fn_defaults": {"lastUsedAt": "fn:now"},
        "select_false": set(),
        "immutable": set(),
        "maxlength": {"tokenHash": 255, "ip": 45, "userAgent": 512},
        "enums": {},
        "refs": {"userId": "User"},
        "normalized": {},
        "indexes": [
            _idx([("tokenHash", 1)], unique=True),
            _idx([("isActive", 1)]),
            _idx([("userId", 1)]),
            _idx([("userId", 1), ("isActive", 1)]),
            _idx([("userId", 1), ("lastUsedAt", -1)]),
            _idx([("createdAt", 1)], expireAfterSeconds=TTL_7_DAYS),
        ],
    },
    "refresh-token": {
        "name": "RefreshToken",
        "required": {
            "userId": "User ID is required",
            "tokenHash": "Token hash is required",
            "expiresAt": "Expiration time is required",
        },
        "defaults": {"isRevoked": False},
        "select_false": {"tokenHash", "replacedByTokenHash"},
        "immutable": set(),
        "maxlength": {"replacedByTokenHash": 255},
        "enums": {},
        "refs": {"userId": "User"},
        "normalized": {},
        "indexes": [
            _idx([("userId", 1)]),
            _idx([("tokenHash", 1)]),
            _idx([("isRevoked", 1)]),
            _idx([("createdAt", 1)], expireAfterSeconds=TTL_7_DAYS),
        ],
    },
    "otp": {
        "name": "Otp",
        "required": {
            "email": "Email is required",
            "otpHashCode": "OTP hash code is required",
            "nextResendAllowedAt": "Next resend allowed at is required",
            "type": "OTP type is required",
            "expiresAt": "Expiration time is required",
        },
        "defaults": {"isUsed": False, "attempts": 0, "maxAttempts": 5},
        "select_false": {"otpHashCode"},
        "immutable": set(),
        "maxlength": {"email": 255, "otpHashCode": 255},
        "enums": {"type": ["signin", "email-verification", "password-reset", "password-change"]},
        "refs": {},
        "normalized": {"email": "mixed.case@example.com"},
        "indexes": [
            _idx([("email", 1), ("type", 1)]),
            _idx([("createdAt", 1)], expireAfterSeconds=TTL_5_MINUTES),
        ],
    },
    "account": {
        "name": "Account",
        "required": {"userId": "User ID is required", "type": "Account type is required"},
        # balanceCents: the bank API's cached balance (not in the spec), in integer cents.
        "defaults": {"currency": "NPR", "status": "active", "systemAccount": False, "balanceCents": 0},
        "select_false": {"systemAccount"},
        "immutable": {"systemAccount"},
        "maxlength": {},
        "enums": {
            "type": ["savings", "current"],
            "currency": ["NPR", "INR", "USD"],
            "status": ["active", "frozen", "closed"],
        },
        "refs": {"userId": "User"},
        "normalized": {},
        "indexes": [_idx([("userId", 1)]), _idx([("status", 1)]), _idx([("type", 1)])],
    },
    "transaction": {
        "name": "Transaction",
        "required": {
            "fromAccountId": "Source account is required",
            "toAccountId": "Destination account is required",
            "amount": "Amount is required",
            "idempotencyKey": "Idempotency key is required",
        },
        "defaults": {"status": "pending"},
        "select_false": set(),
        "immutable": set(),
        # failureCode: why a failed transaction failed (the bank API's, not in the spec).
        "maxlength": {"idempotencyKey": 255, "failureCode": 40},
        "enums": {"status": ["pending", "completed", "failed", "reversed"]},
        "min": {"amount": 0.01},
        "refs": {"fromAccountId": "Account", "toAccountId": "Account"},
        "normalized": {},
        "indexes": [
            _idx([("fromAccountId", 1)]),
            _idx([("toAccountId", 1)]),
            _idx([("status", 1)]),
            _idx([("idempotencyKey", 1)], unique=True),
            _idx([("fromAccountId", 1), ("toAccountId", 1)]),
        ],
    },
    "ledger": {
        "name": "Ledger",
        "required": {
            "accountId": "Account ID is required",
            "transactionId": "Transaction ID is required",
            "entryType": "Entry type is required",
            "amount": "Amount is required",
        },
        "defaults": {},
        "select_false": set(),
        "immutable": {"accountId", "transactionId", "entryType", "amount"},
        "maxlength": {},
        "enums": {"entryType": ["debit", "credit"]},
        "min": {"amount": 0.01},
        "refs": {"accountId": "Account", "transactionId": "Transaction"},
        "normalized": {},
        "indexes": [_idx([("accountId", 1), ("transactionId", 1)])],
    },
    "category": {
        "name": "Category",
        "required": {"name": "Category name is required", "slug": "Slug is required"},
        "defaults": {},
        "select_false": set(),
        "immutable": set(),
        "maxlength": {},
        "enums": {},
        "refs": {},
        "normalized": {"name": "MiXeD.Case@Example.COM", "slug": "MiXeD.Case@Example.COM"},
        "indexes": [
            _idx([("name", 1)], unique=True),
            _idx([("slug", 1)], unique=True),
            _idx([("slug", 1), ("name", 1)], unique=True),
        ],
    },
    "post": {
        "name": "Post",
        "required": {
            "title": "Title is required",
            "slug": "Slug is required",
            "content": "Content is required",
            "author": "Author is required",
        },
        "defaults": {
            "tags": [],
            "featuredImage": None,
            "views": 0,
            "likes": [],
            "likeCount": 0,
            "status": "draft",
        },
        "select_false": set(),
        "immutable": set(),
        "maxlength": {},
        "enums": {"status": ["draft", "published", "archived"]},
        "refs": {"author": "User", "category": "Category", "likes": "User"},
        "normalized": {},
        "indexes": [
            _idx([("author", 1), ("slug", 1)], unique=True),
            # Unique on its own too, as in SQL: GET /posts/{slug} names one post.
            _idx([("slug", 1)], unique=True),
            _idx([("category", 1)]),
            _idx([("title", "text"), ("content", "text")]),
            _idx([("createdAt", -1)]),
        ],
    },
    "comment": {
        "name": "Comment",
        "required": {
            "post": "Post is required",
            "author": "Author is required",
            "content": "Content is required",
        },
        "defaults": {"parentComment": None, "likes": []},
        "select_false": set(),
        "immutable": set(),
        "maxlength": {"content": 500},
        "enums": {},
        "refs": {"post": "Post", "author": "User", "parentComment": "Comment", "likes": "User"},
        "normalized": {"content": "MiXeD.Case@Example.COM"},
        "indexes": [
            _idx([("post", 1), ("createdAt", -1)]),
            _idx([("parentComment", 1)]),
            _idx([("author", 1)]),
        ],
    },
}

LEDGER_GUARDED = [
    # The spec's list (Errors 1) ...
    "findOneAndDelete",
    "findOneAndReplace",
    "findOneAndUpdate",
    "updateOne",
    "updateMany",
    "deleteOne",
    "deleteMany",
    # ... and the other ways to change or delete a stored entry.
    "findByIdAndUpdate",
    "findByIdAndDelete",
    "replaceOne",
    "bulkWrite",
    "document.save",
    "document.deleteOne",
    "document.updateOne",
]


def _variants() -> list[tuple[str, list[str], list[str] | None, str]]:
    """(architecture, bundles, models answer or None for the index template, id): each bundle's
    index once, and its last model alone (a model needs none of the others to build), the
    architectures taken in turn (they only place the files), and all bundles together in every
    architecture, where every model meets all of _check_model's checks."""
    singles: list[tuple[list[str], list[str] | None, str]] = []
    for bundle in ALL_BUNDLES:
        singles.append(([bundle], None, f"{bundle}-index"))
        model = [model for model in BUNDLES[bundle] if model not in RELATIONAL_ONLY][-1]
        singles.append(([bundle], [f"{bundle}/{model}"], f"{bundle}-{model}"))
    out = [
        (ARCHITECTURES[i % len(ARCHITECTURES)], bundles, models, f"{ARCHITECTURES[i % len(ARCHITECTURES)]}-{name}")
        for i, (bundles, models, name) in enumerate(singles)
    ]
    out += [(arch, ALL_BUNDLES, None, f"{arch}-all-bundles") for arch in ARCHITECTURES]
    return out


VARIANTS = _variants()


def _present(bundles: list[str], models: list[str] | None) -> list[str]:
    keys = {m.split("/")[-1] for m in models} if models else {m for b in bundles for m in BUNDLES[b]}
    return sorted(k for k in keys if k not in RELATIONAL_ONLY)


def _generate(dst: Path, arch: str, bundles: list[str], models: list[str] | None) -> Path:
    answers: dict[str, object] = {
        "projectName": "x",
        "architecture": arch,
        "databaseEngine": "mongodb",
        "databaseAdapter": "mongoose",
        "bundles": bundles,
    }
    if models is not None:
        answers["models"] = models
    project = render(dst, **answers)
    install_node_modules(project)
    return project


def _ledger_message(project: Path, arch: str) -> str | None:
    """The ledger's immutability message in constants.ts (there with the ledger model only)."""
    text = (project / LAYOUTS[arch]["constants.ts"]).read_text()
    match = re.search(r'LEDGER_IMMUTABLE_MESSAGE\s*=\s*"([^"]+)"', text)
    return match.group(1) if match else None


def _check_model(key: str, got: dict, ledger_message: str | None) -> None:
    exp = EXPECTED[key]
    paths: dict[str, dict] = got["paths"]
    assert got["modelName"] == exp["name"]
    assert got["registered"] and got["schemaExported"], "the model and its schema are exported"
    assert got["reusedOnReload"], "evaluating the module again reuses the compiled model"
    assert got["timestamps"] is True
    assert {"createdAt", "updatedAt"} <= set(paths)

    # Required fields without a default: exactly these, with the spec's messages.
    empty = got["emptyErrors"]
    assert {p: e["message"] for p, e in empty.items()} == exp["required"]
    assert all(e["kind"] == "required" for e in empty.values())

    # Enum and length rules: values and a failing validation.
    enums = {p: o["enum"]["values"] for p, o in paths.items() if "enum" in o}
    assert enums == exp["enums"]
    maxlength = {p: o["maxlength"][0] for p, o in paths.items() if "maxlength" in o}
    assert maxlength == exp["maxlength"]
    invalid = got["invalidErrors"]
    for path in enums:
        assert invalid[path]["kind"] == "enum", (path, invalid.get(path))
    for path in maxlength:
        assert invalid[path]["kind"] == "maxlength", (path, invalid.get(path))
        assert invalid[path]["message"] == paths[path]["maxlength"][1]
    mins = {p: o["min"][0] for p, o in paths.items() if "min" in o}
    assert mins == exp.get("min", {})
    for path in mins:
        assert invalid[path] == {"kind": "min", "message": "Amount must be positive"}

    defaults = {k: v for k, v in got["defaults"].items() if k != "_id"}
    assert defaults == exp["defaults"]
    for path, fn in exp.get("fn_defaults", {}).items():
        assert paths[path]["default"] == fn

    assert {p for p, o in paths.items() if o.get("select") is False} == exp["select_false"]
    immutable = {p for p, o in paths.items() if o.get("immutable")} - {"createdAt"}
    assert immutable == exp["immutable"]

    refs = {p: o.get("ref") or o.get("itemRef") for p, o in paths.items() if o.get("ref") or o.get("itemRef")}
    assert refs == exp["refs"]
    assert got["normalized"] == exp["normalized"]

    indexes = [(list(fields.items()), options) for fields, options in got["indexes"]]
    assert indexes == [(list(f), o) for f, o in exp["indexes"]]

    if key == "comment":
        assert got["blankComment"]["content"]["kind"] == "required"  # trimmed to empty
        assert got["comment500"] == {}
    if key in ("transaction", "ledger"):
        assert got["smallestAmount"] == {}
        assert got["negativeAmount"]["amount"]["kind"] == "min"
    if key == "transaction":
        assert got["sameAccounts"]["toAccountId"] == {
            "kind": "user defined",
            "message": "Source and destination accounts must differ",
        }
        assert "toAccountId" not in got["differentAccounts"]
    if key == "ledger":
        assert ledger_message and "ledger cannot be updated" in ledger_message.lower()
        assert got["guards"] == {op: ledger_message for op in LEDGER_GUARDED}
        # Unguarded operations reach the (absent) driver: the guards fired before any I/O.
        for op, message in got["controls"].items():
            assert "bufferCommands" in message and message != ledger_message, (op, message)


@pytest.mark.parametrize(("arch", "bundles", "models"), [v[:3] for v in VARIANTS], ids=[v[3] for v in VARIANTS])
def test_mongoose_models(tmp_path: Path, arch: str, bundles: list[str], models: list[str] | None) -> None:
    project = _generate(tmp_path / "x", arch, bundles, models)
    present = _present(bundles, models)
    apis = yaml.safe_load((project / ".copier-answers.yml").read_text())["apis"]
    for key in present:
        assert (project / model_file(arch, "mongoose", key, apis)).is_file()
    index = (project / LAYOUTS[arch]["models.ts"]).read_text()
    # One export per chosen model, besides an API's own (the auth API's mail outbox).
    exports = [line for line in index.splitlines() if line.startswith("export * from")]
    assert len([line for line in exports if ".api-model.js" not in line]) == len(present)

    run(["npx", "--no-install", "biome", "check", "."], cwd=project)  # tsc: the test below

    shutil.copy(CHECK_SCRIPT, project / "sw-check-models.ts")
    files = {key: model_file(arch, "mongoose", key, apis) for key in present}
    out = run(["npx", "--no-install", "tsx", "sw-check-models.ts", json.dumps(files)], cwd=project)
    report = json.loads(out.strip().splitlines()[-1])
    assert sorted(report) == present
    ledger_message = _ledger_message(project, arch)
    assert (ledger_message is not None) == ("ledger" in present), "the ledger's message goes with the ledger model"
    for key in present:
        _check_model(key, report[key], ledger_message)


def test_every_variant_type_checks(tmp_path: Path) -> None:
    """`tsc --noEmit` over every variant above in one program (one compiler start for all)."""
    # All bundles first: the one whose packages the program's own types come from.
    ordered = sorted(VARIANTS, key=lambda variant: variant[1] != ALL_BUNDLES)
    projects = [_generate(tmp_path / name, arch, bundles, models) for arch, bundles, models, name in ordered]
    type_check_together(tmp_path, projects)


def test_sync_indexes_script_reports_failures(tmp_path: Path) -> None:
    """db:sync-indexes: reads .env when present and exits non-zero with the real error."""
    project = _generate(tmp_path / "x", "mvc", ALL_BUNDLES, None)
    script = LAYOUTS["mvc"]["sync-indexes.ts"]
    manifest = json.loads((project / "package.json").read_text())
    assert manifest["scripts"]["db:sync-indexes"] == f"node --import tsx {script}"
    text = (project / script).read_text()
    assert "syncIndexes()" in text and "existsSync" in text and "loadEnvFile" in text

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    cmd = ["npx", "--no-install", "tsx", script]
    done = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "DATABASE_URL is not set" in done.stderr

    # A URL from .env is used: nothing listens on port 1, so the connection error is reported.
    (project / ".env").write_text("DATABASE_URL=mongodb://127.0.0.1:1/sw_sync_test\n")
    done = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "db:sync-indexes failed:" in done.stderr
    assert "ECONNREFUSED" in done.stderr or "127.0.0.1:1" in done.stderr, done.stderr
