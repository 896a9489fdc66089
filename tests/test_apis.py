"""The `apis` question: which projects serve a domain API, and the one-line refusals."""

from __future__ import annotations

import pytest
from conftest import REPO, copied, copier_cli

from stackwright.apis import API_BUILT

# The auth API's own files (the rest of the API's layers are shared with later APIs).
AUTH_FILES = ["src/modules/auth/auth.service.ts", "src/modules/auth/auth.repository.ts", "tests/auth.test.ts"]


def test_a_project_with_every_auth_model_gets_the_auth_api_by_default(copie):
    result = copie.copy()
    project = copied(result)
    assert result.answers["apis"] == ["auth"]
    for path in AUTH_FILES:
        assert (project / path).is_file(), path
    assert "JWT_SECRET=" in (project / ".env.example").read_text()


@pytest.mark.parametrize(
    "answers",
    [
        {"models": ["auth/user", "auth/session"]},  # not every auth model
        {"framework": "hono", "runtime": "deno"},  # not built there yet
        {"apis": []},  # the models alone, asked for
    ],
    ids=["some-models", "not-built", "asked-for-none"],
)
def test_otherwise_the_models_come_alone(copie, answers):
    result = copie.copy(extra_answers=answers)
    project = copied(result)
    assert result.answers["apis"] == []
    assert not any((project / path).exists() for path in AUTH_FILES)
    assert "JWT_SECRET" not in (project / ".env.example").read_text()
    assert result.answers["bundles"] == ["auth"] and result.answers["models"], "the models are generated"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (["models=[auth/user]"], "apis: auth needs every auth model (add auth/session, auth/refresh-token, auth/otp)"),
        (["runtime=deno", "framework=hono"], "apis: auth is not built yet on deno/hono"),
        (["runtime=bun", "framework=express"], "apis: auth is not built yet on bun/express"),
        (["databaseEngine=mongodb", "databaseAdapter=mongoose"], "apis: auth is not built yet on mongodb/mongoose"),
    ],
    ids=["missing-models", "other-runtime", "other-stack", "other-data-layer"],
)
def test_an_api_that_cannot_be_served_is_refused_in_one_line(tmp_path, data, reason):
    options = [arg for item in [*data, "apis=[auth]"] for arg in ("--data", item)]
    done = copier_cli("copy", "--trust", "--defaults", "--vcs-ref=HEAD", *options, str(REPO), str(tmp_path / "api"))
    assert done.returncode != 0
    assert reason in done.stderr, done.stderr
    assert not (tmp_path / "api").exists(), "a refused answer writes nothing"


def test_every_built_place_is_a_value_the_schema_allows():
    from stackwright.questions import schema_enum

    built = API_BUILT["auth"]
    runtimes, frameworks = zip(*(pair.split("/") for pair in built["stack"]), strict=True)
    assert set(runtimes) <= set(schema_enum("runtime")) and set(frameworks) <= set(schema_enum("framework"))
    engines, adapters = zip(*(pair.split("/") for pair in built["data"]), strict=True)
    assert set(engines) <= set(schema_enum("databaseEngine")) and set(adapters) <= set(schema_enum("databaseAdapter"))
