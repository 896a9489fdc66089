"""The bundles and models questions: what each choice generates, and how bundles compose."""

from __future__ import annotations

import json

import yaml
from conftest import REPO, copied, copier_cli

from stackwright.bundles import BUNDLES, models_problem


def model_files(project):
    return sorted(p.name for p in project.rglob("*") if p.name.endswith((".table.ts", ".model.ts")))


def answers_file(project):
    return yaml.safe_load((project / ".copier-answers.yml").read_text())


def test_default_is_every_bundle_with_all_its_models(copie):
    project = copied(copie.copy())
    assert answers_file(project)["bundles"] == list(BUNDLES)
    assert answers_file(project)["apis"] == ["auth", "bank", "blog"]
    assert {"auth/user", "auth/otp", "banking-app/account", "blog-app/post"} <= set(answers_file(project)["models"])
    assert {"otp.table.ts", "account.table.ts", "post.table.ts"} <= set(model_files(project))
    assert (project / "drizzle.config.ts").is_file()
    assert {"db:generate", "db:migrate"} <= set(json.loads((project / "package.json").read_text())["scripts"])


def test_bundles_share_one_user_model(copie):
    project = copied(copie.copy(extra_answers={"bundles": ["auth", "banking-app", "blog-app"], "architecture": "mvc"}))
    schema_dir = project / "src/db/schema"  # mvc: one <model>.ts per model, each once
    models = sorted(p.stem for p in schema_dir.glob("*.ts"))
    expected = {m for ms in BUNDLES.values() for m in ms} | {"index", "relations", "timestamps"}
    assert set(models) == expected
    entry = (schema_dir / "index.ts").read_text()
    assert entry.count('"./user.js"') == 1


def test_a_single_model_gives_that_models_files_only(copie):
    project = copied(copie.copy(extra_answers={"bundles": ["auth"], "models": ["auth/session"]}))
    assert model_files(project) == ["session.table.ts"]
    entry = (project / "src/database/schema.ts").read_text()
    assert "session.table.js" in entry and "user.table.js" not in entry


def test_mongoose_has_no_like_models(copie):
    project = copied(
        copie.copy(extra_answers={"databaseEngine": "mongodb", "databaseAdapter": "mongoose", "bundles": ["blog-app"]})
    )
    assert model_files(project) == ["category.model.ts", "comment.model.ts", "post.model.ts", "user.model.ts"]
    assert "db:sync-indexes" in json.loads((project / "package.json").read_text())["scripts"]


def test_no_bundle_gives_the_connection_only(copie):
    project = copied(copie.copy(extra_answers={"bundles": [], "models": []}))
    assert model_files(project) == []
    assert not (project / "drizzle.config.ts").exists()
    assert (project / "src/database/database.ts").is_file()


def test_every_chosen_bundle_needs_one_of_its_models():
    assert models_problem(["auth/user"], ["auth"]) == ""
    assert "blog-app" in models_problem(["auth/user"], ["auth", "blog-app"])


def test_a_bundle_without_models_is_refused_on_the_command_line(tmp_path):
    done = copier_cli(
        "copy",
        "--trust",
        "--defaults",
        "--vcs-ref=HEAD",
        "--data",
        "bundles=[auth, blog-app]",
        "--data",
        "models=[auth/user]",
        str(REPO),
        str(tmp_path / "api"),
    )
    assert done.returncode != 0
    assert "models: choose at least one model of blog-app" in done.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "api").exists()
