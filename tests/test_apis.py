"""The `apis` question: which projects serve a domain API, and the one-line refusals."""

from __future__ import annotations

import re

import pytest
from conftest import API_TEST_FILES, REPO, copied, copier_cli

from stackwright.apis import API_BUILT


def api_files(api: str) -> list[str]:
    """The files only `api` generates (feature layout): its service, its repository, its tests."""
    tests = [f"tests/{name}" for name in API_TEST_FILES[api]]
    return [f"src/modules/{api}/{api}.service.ts", f"src/modules/{api}/{api}.repository.ts", *tests]


# The auth API's own files (the rest of the API's layers are shared with later APIs).
AUTH_FILES = api_files("auth")


def test_a_project_with_every_auth_model_gets_the_auth_api_by_default(copie):
    result = copie.copy(extra_answers={"bundles": ["auth"]})
    project = copied(result)
    assert result.answers["apis"] == ["auth"]
    for path in AUTH_FILES:
        assert (project / path).is_file(), path
    assert "JWT_SECRET=" in (project / ".env.example").read_text()


def test_env_example_lines_and_readme_fences_stand_alone(copie):
    """A fragment that ends without a newline glues the next one's text onto its last line:
    a value (`MAIL_KEY=# Sign-in ...`, which a user who copies the file gets as the variable)
    or a code fence (```` ``` A front end ````, which leaves the README's code block open)."""
    project = copied(copie.copy(extra_answers={"bundles": ["auth", "banking-app", "blog-app"]}))
    for line in (project / ".env.example").read_text().splitlines():
        assert re.fullmatch(r"|#.*|[A-Z][A-Z0-9_]*=(?!\s*#).*", line), line
    fences = [line for line in (project / "README.md").read_text().splitlines() if line.lstrip().startswith("```")]
    assert fences and len(fences) % 2 == 0, fences
    assert all(re.fullmatch(r"\s*```[a-z]*", line) for line in fences), [f for f in fences if " " in f.strip()]


@pytest.mark.parametrize(
    "answers",
    [
        {"bundles": ["auth"], "models": ["auth/user", "auth/session"]},  # not every auth model
        {"bundles": ["auth"], "apis": []},  # the models alone, asked for
    ],
    ids=["some-models", "asked-for-none"],
)
def test_otherwise_the_models_come_alone(copie, answers):
    result = copie.copy(extra_answers=answers)
    project = copied(result)
    assert result.answers["apis"] == []
    assert not any((project / path).exists() for path in AUTH_FILES)
    assert "JWT_SECRET" not in (project / ".env.example").read_text()
    assert result.answers["bundles"] == ["auth"] and result.answers["models"], "the models are generated"


BANK_FILES = api_files("bank")


@pytest.mark.parametrize(("bundle", "api"), [("banking-app", "bank"), ("blog-app", "blog")])
def test_an_api_comes_with_its_bundle_and_the_auth_api_and_alone(copie, bundle, api):
    result = copie.copy(extra_answers={"bundles": ["auth", bundle]})
    project = copied(result)
    assert result.answers["apis"] == ["auth", api]
    for path in [*AUTH_FILES, *api_files(api)]:
        assert (project / path).is_file(), path
    others = [other for other in ("bank", "blog") if other != api]
    assert not any((project / path).exists() for other in others for path in api_files(other))


def test_without_the_auth_bundle_the_bank_api_is_not_offered(copie):
    result = copie.copy(extra_answers={"bundles": ["banking-app"]})
    project = copied(result)
    assert result.answers["apis"] == []
    assert not any((project / path).exists() for path in BANK_FILES)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (
            ["bundles=[auth]", "models=[auth/user]", "apis=[auth]"],
            "apis: auth needs every auth model (add auth/session, auth/refresh-token, auth/otp)",
        ),
        (["bundles=[blog-app]", "apis=[auth]"], "apis: auth needs the auth bundle; choose it, or leave auth out"),
        (
            ["bundles=[auth, banking-app]", "apis=[bank]"],
            "apis: bank needs the auth API too; choose it, or leave bank out",
        ),
        (
            ["bundles=[banking-app]", "apis=[bank]"],
            "apis: bank needs the auth API (auth needs the auth bundle; choose it, or leave auth out)",
        ),
        (
            ["bundles=[auth, blog-app]", "apis=[blog]"],
            "apis: blog needs the auth API too; choose it, or leave blog out",
        ),
    ],
    ids=[
        "missing-models",
        "missing-bundle",
        "bank-without-auth",
        "bank-without-auth-bundle",
        "blog-without-auth",
    ],
)
def test_an_api_that_cannot_be_served_is_refused_in_one_line(tmp_path, data, reason):
    options = [arg for item in data for arg in ("--data", item)]
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


def test_where_an_api_is_not_built_it_is_refused_with_where_it_is(monkeypatch):
    """Every stack builds the auth API today; the refusal stays for the next APIs (and layers)."""
    from stackwright import apis

    monkeypatch.setitem(apis.API_BUILT, "auth", {"stack": ["node/express"], "data": ["postgresql/drizzle"]})
    answers = {
        "runtime": "bun",
        "framework": "hono",
        "databaseEngine": "postgresql",
        "databaseAdapter": "drizzle",
        "bundles": ["auth"],
        "models": ["auth/user", "auth/session", "auth/refresh-token", "auth/otp"],
    }
    expected = "apis: auth is not built yet on bun/hono (built on node/express); leave it out for the models alone"
    assert apis.api_refusal("auth", answers) == expected
    assert apis.api_refusal("auth", {**answers, "runtime": "node", "framework": "express"}) == ""
