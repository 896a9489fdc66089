"""`copier update` of generated projects: user edits survive, conflicts fail loudly,
answers change (bundles added or removed, renamed questions), migrations stay incremental.

Every scenario uses a throwaway template repository released from the working
tree (v1.0.0, then v2.0.0 with a change), never this repository's own tags.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import TemplateRepo, commit_all, copier_cli, generate, git, install_node_modules, query, run, type_check
from test_kubernetes import rendered

from stackwright.layouts import LAYOUTS, model_file

USER_MODEL = model_file("feature", "drizzle", "user", ["auth"])  # of the default answers (the auth API)


def update(project: Path, *data: str) -> subprocess.CompletedProcess[str]:
    """`copier update` as a user runs it, answering with the remembered answers and --data."""
    args = [arg for item in data for arg in ("--data", item)]
    return copier_cli("update", "--trust", "--defaults", *args, cwd=project)


def answers(project: Path) -> dict:
    return yaml.safe_load((project / ".copier-answers.yml").read_text())


def changed_files(project: Path) -> list[str]:
    return git(project, "status", "--porcelain").splitlines()


def add_lines(path: Path, lines: list[str], after: str | None = None) -> list[str]:
    """Add the user's lines to a file (after a given line, or at the end); returns them."""
    text = path.read_text()
    block = "".join(line + "\n" for line in lines)
    if after is None:
        path.write_text(text + block)
    else:
        assert after in text, f"{after!r} not in {path}"
        path.write_text(text.replace(after + "\n", after + "\n" + block, 1))
    return lines


@pytest.fixture
def template(tmp_path) -> TemplateRepo:
    repo = TemplateRepo(tmp_path)
    repo.release("v1.0.0")
    return repo


# --- 1. the user's own code survives ------------------------------------------------------------


@pytest.mark.parametrize(
    "stack",
    [
        {"architecture": "feature", "databaseEngine": "postgresql", "databaseAdapter": "drizzle"},
        {"architecture": "mvc", "databaseEngine": "mongodb", "databaseAdapter": "mongoose", "bundles": ["blog-app"]},
    ],
    ids=["feature-postgresql", "mvc-mongodb"],
)
def test_user_edits_survive_a_template_release(template, tmp_path, stack):
    project = generate(template, tmp_path / "api", **stack)
    assert json.loads((project / "stackwright.json").read_text())["version"] == "1.0.0"
    routes = LAYOUTS[stack["architecture"]]["health.routes.ts"]
    user_model = model_file(stack["architecture"], stack["databaseAdapter"], "user", ["auth"])

    # The user edits generated files (a route, a model, the README, .env.example)
    # and adds files of their own.
    kept = {
        routes: add_lines(
            project / routes,
            [
                '  router.get("/version", (_req, res) => {',
                '    res.json({ version: "1.4.2" });',
                "  });",
            ],
            after='  router.get("/ready", ready(checkDatabase));',
        ),
        user_model: add_lines(
            project / user_model,
            [
                "",
                "// Users are soft-deleted by the billing service.",
                'export const USER_RETENTION = "90 days";',
            ],
        ),
        "README.md": add_lines(project / "README.md", ["", "## Deploying", "", "Push to main; Fly deploys it."]),
        ".env.example": add_lines(project / ".env.example", ["STRIPE_KEY=sk_test_123"]),
        "src/billing/billing.service.ts": ['export const currency = "EUR";'],
        "docs/runbook.md": ["# Runbook", "", "Page the on-call engineer."],
    }
    for own in ("src/billing/billing.service.ts", "docs/runbook.md"):
        (project / own).parent.mkdir(parents=True, exist_ok=True)
        (project / own).write_text("\n".join(kept[own]) + "\n")
    commit_all(project, "the user's work")

    # The template changes elsewhere: a new middleware line in app.ts and a new README section.
    template.edit(
        "template/layers/frameworks/express/app.ts.jinja",
        lambda s: s.replace("app.use(express.json(", 'app.disable("x-powered-by");\n  app.use(express.json(', 1),
    )
    template.edit(
        "template/layers/base/README.md.jinja",
        lambda s: s.replace("## Run it\n", "## Upgrading\n\nRun `copier update`.\n\n## Run it\n", 1),
    )
    template.release("v2.0.0")

    done = update(project)
    assert done.returncode == 0, done.stderr
    for relpath, lines in kept.items():
        text = (project / relpath).read_text()
        missing = [line for line in lines if line and line not in text]
        assert not missing, f"{relpath} lost the user's lines {missing}"
    assert 'app.disable("x-powered-by");' in (project / LAYOUTS[stack["architecture"]]["app.ts"]).read_text()
    assert "## Upgrading" in (project / "README.md").read_text()
    assert not any("<<<<<<<" in p.read_text() for p in project.rglob("*") if p.is_file() and ".git" not in p.parts)
    assert json.loads((project / "stackwright.json").read_text())["version"] == "2.0.0"
    assert answers(project)["_commit"] == "v2.0.0"
    install_node_modules(project)  # the merged project still type-checks
    type_check(project)


# A user's edit inside a framework's own file, and a template release that changes another of
# that framework's files: (answers, edited file, line to add after, the user's lines,
# changed fragment, (old, new) text of the template's change).
FRAMEWORK_EDITS = {
    "nestjs": (
        {
            "framework": "nestjs",
            "architecture": "modular",
            "databaseEngine": "postgresql",
            "databaseAdapter": "drizzle",
        },
        LAYOUTS["modular"]["health.controller.ts"],
        "  constructor(@Inject(DATABASE) private readonly database: Database) {}",
        ["", '  @Get("version")', "  version() {", '    return { version: "1.4.2" };', "  }"],
        "template/layers/frameworks/nestjs/server.ts.jinja",
        ('logger.fatal({ err: error }, "start failed");', 'logger.fatal({ err: error }, "the server did not start");'),
    ),
    "nextjs": (
        # PostgreSQL: the dependency set (and install) of tests/test_stacks.py's Next.js case.
        {
            "framework": "nextjs",
            "architecture": "file-api",
            "databaseEngine": "postgresql",
            "databaseAdapter": "drizzle",
        },
        LAYOUTS["file-api"]["health.route.ts"],
        'export const GET = withErrors(() => Response.json({ status: "ok", uptime: process.uptime() }));',
        ["", "/** The user's own method on the route. */", "export const HEAD = withErrors(() => new Response(null));"],
        "template/layers/frameworks/nextjs/next.config.ts.jinja",
        ("poweredByHeader: false,", "poweredByHeader: false,\n  reactStrictMode: true,"),
    ),
}


@pytest.mark.parametrize("framework", list(FRAMEWORK_EDITS))
def test_user_edits_in_framework_files_survive_a_template_release(template, tmp_path, framework):
    stack, edited, after, lines, fragment, (old, new) = FRAMEWORK_EDITS[framework]
    project = generate(template, tmp_path / "api", **stack)
    add_lines(project / edited, lines, after=after)
    commit_all(project, "the user's route")
    template.edit(fragment, lambda s: s.replace(old, new, 1))
    template.release("v2.0.0")

    done = update(project)
    assert done.returncode == 0, done.stderr
    text = (project / edited).read_text()
    assert "\n".join(lines) in text, f"{edited} lost the user's lines"
    changed = [p for p in project.rglob("*.ts") if "node_modules" not in p.parts and new in p.read_text()]
    assert changed, "the template's change did not arrive"
    assert not any("<<<<<<<" in p.read_text() for p in project.rglob("*.ts") if "node_modules" not in p.parts)
    install_node_modules(project)  # the merged project still type-checks
    type_check(project)


# --- 2. conflicts are reported, not committed -----------------------------------------------------


def test_a_conflict_fails_the_update_and_lists_the_file(template, tmp_path):
    project = generate(template, tmp_path / "api")
    readme = project / "README.md"
    readme.write_text(readme.read_text().replace("# api\n", "# Payments API\n", 1))
    commit_all(project, "rename the title")
    template.edit(
        "template/layers/base/README.md.jinja",
        lambda s: s.replace("# {{ projectName }}", "# {{ projectName }} service", 1),
    )
    template.release("v2.0.0")

    done = update(project)
    assert done.returncode != 0
    report = [line for line in done.stderr.splitlines() if line.startswith(("README.md:", "copier update left"))]
    assert report[0] == "README.md: conflict markers at line 1", done.stderr
    assert report[1].startswith("copier update left unresolved conflicts in 1 file(s): README.md;")
    text = readme.read_text()
    assert "# Payments API" in text and "# api service" in text and "<<<<<<< before updating" in text
    # Git knows the file is unmerged, so it cannot be committed by accident with `commit -a`.
    assert "UU README.md" in changed_files(project)


def test_no_conflict_report_when_the_template_change_merges_cleanly(template, tmp_path):
    project = generate(template, tmp_path / "api")
    template.edit("template/layers/base/.env.example.jinja", lambda s: s + "LOG_LEVEL=info\n")
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stderr
    assert "unresolved conflicts" not in done.stderr
    assert "LOG_LEVEL=info" in (project / ".env.example").read_text()


# --- 3. an update without a template change is a no-op ----------------------------------------------


@pytest.mark.parametrize(
    "stack",
    [
        {},
        {"architecture": "mvc", "databaseEngine": "mysql", "databaseAdapter": "drizzle", "bundles": ["banking-app"]},
        {"databaseEngine": "mongodb", "databaseAdapter": "mongoose", "bundles": ["auth", "blog-app"]},
        {"databaseEngine": "none", "packageManager": "pnpm", "rootDir": "backend"},
    ],
    ids=["defaults", "mysql-mvc-banking", "mongoose-two-bundles", "no-database"],
)
def test_update_with_no_template_change_changes_nothing(template, tmp_path, stack):
    project = generate(template, tmp_path / "api", **stack)
    done = update(project)
    assert done.returncode == 0, done.stderr
    assert changed_files(project) == []


# --- 4. check-update ----------------------------------------------------------------------------------


def test_check_update_tells_when_a_newer_release_exists(template, tmp_path):
    project = generate(template, tmp_path / "api")
    current = copier_cli("check-update", "--output-format", "json", cwd=project)
    assert current.returncode == 0, current.stderr
    assert json.loads(current.stdout)["update_available"] is False
    template.edit("template/layers/base/.env.example.jinja", lambda s: s + "LOG_LEVEL=info\n")
    template.release("v1.1.0")
    newer = copier_cli("check-update", "--output-format", "json", cwd=project)
    assert json.loads(newer.stdout)["update_available"] is True
    assert json.loads(newer.stdout)["latest_version"] == "1.1.0"


# --- 5. changing answers through update -----------------------------------------------------------------


def test_adding_a_bundle_keeps_edits_and_regenerates_schema_and_relations(template, tmp_path):
    project = generate(template, tmp_path / "api")
    own = add_lines(project / USER_MODEL, ["// Indexed by email for the login form."])
    commit_all(project, "note in the user model")

    done = update(project, "bundles=[auth, blog-app]")
    assert done.returncode == 0, done.stderr
    assert answers(project)["bundles"] == ["auth", "blog-app"]
    assert "blog-app/post" in answers(project)["models"] and "auth/session" in answers(project)["models"]
    assert (project / model_file("feature", "drizzle", "post", answers(project)["apis"])).is_file()
    assert (project / model_file("feature", "drizzle", "session", answers(project)["apis"])).is_file()
    entry = (project / "src/database/schema.ts").read_text()
    assert "post.table.js" in entry and "session.table.js" in entry and "otp.table.js" in entry
    relations = (project / "src/database/relations.ts").read_text()
    assert "posts" in relations and "sessions" in relations
    assert own[0] in (project / USER_MODEL).read_text()


def test_adding_a_model_of_a_chosen_bundle(template, tmp_path):
    project = generate(template, tmp_path / "api", models=["auth/user", "auth/session"])
    assert not list(project.rglob("otp.table.ts"))
    done = update(project, "models=[auth/user, auth/session, auth/otp]")
    assert done.returncode == 0, done.stderr
    assert list(project.rglob("otp.table.ts"))
    assert "otp.table.js" in (project / "src/database/schema.ts").read_text()


def test_removing_a_bundle_is_refused_until_confirmed(template, tmp_path):
    project = generate(template, tmp_path / "api", bundles=["auth", "blog-app"])
    refused = update(project, "bundles=[auth]")
    assert refused.returncode != 0
    last = refused.stderr.strip().splitlines()[-1]
    assert "dropModelTables:" in last and "posts" in last and "categories" in last and "users" not in last, last
    assert changed_files(project) == []  # nothing touched

    post_table = project / model_file("feature", "drizzle", "post", answers(project)["apis"])
    assert post_table.is_file()
    done = update(project, "bundles=[auth]", "dropModelTables=true")
    assert done.returncode == 0, done.stderr
    assert not post_table.exists()
    assert answers(project)["models"] == ["auth/user", "auth/session", "auth/refresh-token", "auth/otp"]
    assert "post" not in (project / "src/database/schema.ts").read_text()


def test_removing_one_model_is_refused_with_its_table_named(template, tmp_path):
    project = generate(template, tmp_path / "api", databaseEngine="mysql", databaseAdapter="drizzle")
    refused = update(project, "models=[auth/user, auth/session, auth/refresh-token]")
    assert refused.returncode != 0
    assert "(otps)" in refused.stderr.strip().splitlines()[-1]


def test_removing_a_prisma_model_is_refused_with_its_table_named(template, tmp_path):
    project = generate(template, tmp_path / "api", databaseAdapter="prisma", bundles=["auth", "banking-app"])
    refused = update(project, "bundles=[auth]")
    assert refused.returncode != 0
    last = refused.stderr.strip().splitlines()[-1]
    assert "dropModelTables:" in last and "(accounts, transactions, ledgers)" in last, last
    assert changed_files(project) == []

    done = update(project, "bundles=[auth]", "dropModelTables=true")
    assert done.returncode == 0, done.stderr
    assert not (project / "prisma/schema/account.prisma").exists()
    assert (project / "prisma/schema/session.prisma").is_file()


def test_removing_mongoose_models_drops_no_collection_so_needs_no_confirmation(template, tmp_path):
    project = generate(
        template, tmp_path / "api", databaseEngine="mongodb", databaseAdapter="mongoose", bundles=["auth", "blog-app"]
    )
    done = update(project, "bundles=[auth]")
    assert done.returncode == 0, done.stderr
    assert not list(project.rglob("post.model.ts"))


def test_a_renamed_question_keeps_its_answer_through_a_migration(template, tmp_path):
    project = generate(template, tmp_path / "billing", projectName="@acme/billing-api")

    # Release v2 renames the question projectName to packageName everywhere...
    for path in [
        template.path / "copier.yml",
        *(template.path / "template").rglob("*"),
        *(template.path / "extensions").glob("*.py"),
    ]:
        if path.is_file() and "projectName" in path.read_text():
            path.write_text(path.read_text().replace("projectName", "packageName"))
    # ...and carries old answers forward with a `before` migration.
    config = yaml.safe_load((template.path / "copier.yml").read_text())
    config["_migrations"].append(
        {
            "version": "v2.0.0",
            "command": [
                "{{ _copier_python }}",
                "{{ _copier_conf.src_path }}/hooks/migrate_answers.py",
                "rename-question",
                "projectName",
                "packageName",
            ],
            "when": "{{ _stage == 'before' }}",
        }
    )
    (template.path / "copier.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    template.release("v2.0.0")

    done = update(project)
    assert done.returncode == 0, done.stderr
    remembered = answers(project)
    assert remembered.get("packageName") == "@acme/billing-api" and "projectName" not in remembered
    assert json.loads((project / "package.json").read_text())["name"] == "@acme/billing-api"
    assert changed_files(project) == [" M .copier-answers.yml", " M stackwright.json"]


def test_a_renamed_value_keeps_its_choice_through_a_migration(tmp_path):
    from migrate_answers import main as migrate_answers

    answers_file = tmp_path / ".copier-answers.yml"
    answers_file.write_text("# header\n_commit: v1.0.0\nbundles:\n- auth\n- blog-app\nmodels:\n- blog-app/post\n")
    assert migrate_answers(["rename-value", "bundles", "blog-app", "blog", str(answers_file)]) == 0
    assert answers_file.read_text().startswith("# header\n")
    assert yaml.safe_load(answers_file.read_text())["bundles"] == ["auth", "blog"]
    assert migrate_answers(["rename-value", "bundles", "x"]) == 2  # wrong arity: usage, nothing written


# --- 6. adding a bundle gives an incremental migration on the real databases ----------------------------

ROW_BEFORE_UPDATE = "insert into users (name, email) values ('Ada', 'ada@example.com')"


def sql(engine: str, url: str, statement: str, refused: bool = False) -> str:
    """Run a statement on the test database; it must succeed (or, with refused, fail)."""
    done = query(engine, url.rsplit("/", 1)[1], statement)
    if (done.returncode != 0) != refused:
        pytest.fail(f"{statement!r} {'succeeded' if refused else 'failed'}: {done.stderr}")
    return done.stdout.strip()


@pytest.mark.parametrize("engine", ["postgresql", "mysql"])
def test_adding_a_bundle_migrates_incrementally_and_keeps_rows(template, tmp_path, engine, request):
    url = request.getfixturevalue("postgres_url" if engine == "postgresql" else "mysql_url")
    env = {"DATABASE_URL": url}
    project = generate(template, tmp_path / "api", databaseEngine=engine, databaseAdapter="drizzle")
    install_node_modules(project)
    run(["npm", "run", "db:generate"], cwd=project)
    run(["npm", "run", "db:migrate"], cwd=project, env=env)
    sql(engine, url, ROW_BEFORE_UPDATE)
    commit_all(project, "first migration")
    first = sorted(p.name for p in (project / "drizzle").glob("*.sql"))

    done = update(project, "bundles=[auth, blog-app]")
    assert done.returncode == 0, done.stderr
    run(["npm", "run", "db:generate"], cwd=project)
    new = sorted(p for p in (project / "drizzle").glob("*.sql") if p.name not in first)
    assert len(new) == 1, f"expected one new migration, got {new}"
    migration = new[0].read_text().lower()
    created = sorted(
        line.split("`" if engine == "mysql" else '"')[1]
        for line in migration.splitlines()
        if line.startswith("create table")
    )
    assert created == ["categories", "comment_likes", "comments", "post_likes", "posts"]
    assert (
        "drop " not in migration and "alter table `users`" not in migration and 'alter table "users"' not in migration
    )
    run(["npm", "run", "db:migrate"], cwd=project, env=env)

    assert sql(engine, url, "select email from users") == "ada@example.com"
    # The new tables are really there, with their foreign keys: a post needs an existing category.
    author = sql(engine, url, "select id from users")
    sql(engine, url, "insert into categories (name, slug) values ('News', 'news')")
    category = sql(engine, url, "select id from categories")
    sql(
        engine,
        url,
        f"insert into posts (title, slug, author_id, category_id) values ('Hi', 'hi', {author}, {category})",
    )
    sql(
        engine,
        url,
        f"insert into posts (title, slug, author_id, category_id) values ('X', 'x', {author}, 999)",
        refused=True,
    )


# --- 7. a model change reaches existing databases through update, db:generate, db:migrate --------

# The account model's lines that the cached balance added (the release before it lacked them).
BALANCE_LINES = ("balance", "Not in the spec", "them, so a transfer", "Only the bank's own")


@pytest.mark.parametrize("engine", ["postgresql", "mysql"])
def test_an_update_adds_the_account_balance_and_keeps_the_accounts(tmp_path, engine, request):
    url = request.getfixturevalue("postgres_url" if engine == "postgresql" else "mysql_url")
    env = {"DATABASE_URL": url}
    template = TemplateRepo(tmp_path)
    fragment = f"template/layers/models/{'pg' if engine == 'postgresql' else 'mysql'}/account.ts.jinja"
    with_balance = (template.path / fragment).read_text()
    template.edit(
        fragment,
        lambda text: "".join(
            line for line in text.splitlines(keepends=True) if not any(part in line for part in BALANCE_LINES)
        ),
    )
    template.release("v1.0.0")
    answers = {"databaseEngine": engine, "databaseAdapter": "drizzle", "bundles": ["banking-app"]}
    project = generate(template, tmp_path / "api", **answers)
    install_node_modules(project)
    run(["npm", "run", "db:generate"], cwd=project)
    run(["npm", "run", "db:migrate"], cwd=project, env=env)
    sql(engine, url, ROW_BEFORE_UPDATE)
    sql(engine, url, "insert into accounts (user_id, type) values (1, 'savings')")
    commit_all(project, "first migration")
    first = {p.name for p in (project / "drizzle").glob("*.sql")}

    (template.path / fragment).write_text(with_balance)
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stderr
    run(["npm", "run", "db:generate"], cwd=project)
    (migration,) = [p.read_text().lower() for p in (project / "drizzle").glob("*.sql") if p.name not in first]
    assert "balance" in migration and "accounts_balance_non_negative" in migration and "drop " not in migration
    run(["npm", "run", "db:migrate"], cwd=project, env=env)
    assert sql(engine, url, "select balance from accounts") == "0.00"
    sql(engine, url, "update accounts set balance = -1", refused=True)


def test_an_update_brings_the_mail_outbox_table_and_keeps_the_users(tmp_path, postgres_url):
    """A project made before the auth API's mail outbox gets its table through the usual
    update, db:generate and db:migrate, and keeps its rows."""
    env = {"DATABASE_URL": postgres_url}
    template = TemplateRepo(tmp_path)
    schema = "template/layers/models/drizzle/schema.ts.jinja"
    with_outbox = (template.path / schema).read_text()
    template.edit(schema, lambda text: text.replace("{%- for table in api_tables() %}", "{%- for table in [] %}"))
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api", databaseEngine="postgresql", databaseAdapter="drizzle")
    install_node_modules(project)
    run(["npm", "run", "db:generate"], cwd=project)
    run(["npm", "run", "db:migrate"], cwd=project, env=env)
    sql("postgresql", postgres_url, ROW_BEFORE_UPDATE)
    commit_all(project, "first migration")
    first = {p.name for p in (project / "drizzle").glob("*.sql")}

    (template.path / schema).write_text(with_outbox)
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stderr
    run(["npm", "run", "db:generate"], cwd=project)
    (migration,) = [p.read_text().lower() for p in (project / "drizzle").glob("*.sql") if p.name not in first]
    assert 'create table "mail_outbox"' in migration and "drop " not in migration, migration
    run(["npm", "run", "db:migrate"], cwd=project, env=env)
    assert sql("postgresql", postgres_url, "select email from users") == "ada@example.com"
    assert sql("postgresql", postgres_url, "select count(*) from mail_outbox") == "0"


def test_an_update_brings_the_embedded_postgres_and_keeps_edits_and_env(tmp_path):
    """A PostgreSQL project made before the embedded database gets it through the usual update:
    `dev` and `test` run through src/embedded-postgres.ts, .data/ is ignored, and the user's
    edit of the server and their .env (which the template never writes) stay as they were."""
    template = TemplateRepo(tmp_path / "template")
    embedded = template.path / "template" / "layers" / "embedded"
    aside = tmp_path / "embedded"
    embedded.rename(aside)
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api", databaseEngine="postgresql", databaseAdapter="drizzle")
    scripts = json.loads((project / "package.json").read_text())["scripts"]
    assert "embedded-postgres" not in scripts["dev"] and not (project / "src/embedded-postgres.ts").exists()
    server = project / "src/server.ts"
    server.write_text(server.read_text() + "// our own line\n")
    commit_all(project, "our edit")
    dot_env = "DATABASE_URL=postgres://postgres@127.0.0.1:5432/ours\nJWT_SECRET=" + "s" * 40 + "\n"
    (project / ".env").write_text(dot_env)  # git-ignored: the user's own

    aside.rename(embedded)
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stderr
    scripts = json.loads((project / "package.json").read_text())["scripts"]
    assert scripts["dev"].startswith("node --import tsx src/embedded-postgres.ts tsx watch "), scripts
    assert scripts["test"].startswith("node --import tsx src/embedded-postgres.ts --temporary vitest run"), scripts
    assert (project / "src/embedded-postgres.ts").is_file()
    assert server.read_text().endswith("// our own line\n")
    assert (project / ".env").read_text() == dot_env
    assert ".data/" in (project / ".gitignore").read_text().splitlines()


def test_an_update_brings_the_kubernetes_manifests_and_keeps_edits(tmp_path):
    """A project made before deploy/kubernetes gets the whole base through the usual update, and
    it renders; the user's edit of the server stays."""
    template = TemplateRepo(tmp_path / "template")
    manifests = template.path / "template" / "layers" / "base" / "deploy"
    aside = tmp_path / "deploy"
    manifests.rename(aside)
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api")
    assert not (project / "deploy").exists()
    server = project / "src/server.ts"
    server.write_text(server.read_text() + "// our own line\n")
    commit_all(project, "our edit")

    aside.rename(manifests)
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stderr
    assert server.read_text().endswith("// our own line\n")
    assert (project / "deploy/kubernetes/kustomization.yaml").is_file()
    assert "kind: Deployment" in rendered(project, tmp_path).read_text()


# The fragments of the typed client (client/): a release before it had none of them.
CLIENT_FRAGMENTS = [
    "template/layers/apis/shared/service/write-client.ts.jinja",
    "template/layers/apis/shared/service/client/package.json.jinja",
    "template/layers/apis/auth/service/typed-client.ts.jinja",
    "template/layers/apis/auth/service/typed-client-steps.ts.jinja",
    "template/layers/apis/auth/service/typed-client.test.ts.jinja",
]


def test_an_update_brings_the_typed_client_and_keeps_edits(tmp_path):
    """A project made before the typed client gets it through the usual update: client/, the
    `client:generate` script that `typecheck` runs first, and the CI step that checks it; the
    user's own script and their edit of a test stay."""
    template = TemplateRepo(tmp_path / "template")
    aside = tmp_path / "client-fragments"
    for fragment in CLIENT_FRAGMENTS:
        (aside / fragment).parent.mkdir(parents=True, exist_ok=True)
        (template.path / fragment).rename(aside / fragment)
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api")
    manifest = json.loads((project / "package.json").read_text())
    assert "client:generate" not in manifest["scripts"] and not (project / "client").exists()
    manifest["scripts"]["ours"] = "echo ours"
    (project / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    sessions = project / "tests/sessions.test.ts"
    sessions.write_text(sessions.read_text() + "// our own line\n")
    commit_all(project, "our edits")

    for fragment in CLIENT_FRAGMENTS:
        (aside / fragment).rename(template.path / fragment)
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stderr
    scripts = json.loads((project / "package.json").read_text())["scripts"]
    assert scripts["client:generate"] == "node --import tsx src/scripts/write-client.ts", scripts
    assert scripts["typecheck"] == "npm run client:generate && tsc --noEmit", scripts
    assert scripts["ours"] == "echo ours"
    assert {"client/package.json", "client/src/index.ts", "src/scripts/write-client.ts"} <= {
        p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()
    }
    assert "npm run client:generate" in (project / ".github/workflows/ci.yml").read_text()
    assert sessions.read_text().endswith("// our own line\n")


# --- 6. files a release moved -----------------------------------------------------------------------

OLD_PLACES = "  mailer.ts: {mvc: src/services/mailer.ts}\n"


FIRST_LINE = 'import nodemailer from "nodemailer";'


def released_across_the_mailer_move(tmp_path: Path, users_edit, releases_edit):
    """v1 keeps the mailer in the ground floor (src/shared/mail/), as releases before the
    boundaries did; the user edits it; v2 moves it into the auth module and edits it too.
    Returns the update's result and the mailer's old and new paths."""
    template = TemplateRepo(tmp_path / "template")
    manifest = "template/layers/apis/auth/api.yml"
    old_place = OLD_PLACES[:-2] + ", feature: src/shared/mail/mailer.ts}\n"
    template.edit(manifest, lambda s: s.replace(OLD_PLACES, old_place))
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api")
    old, new = project / "src/shared/mail/mailer.ts", project / "src/modules/auth/mail/mailer.ts"
    assert old.is_file() and not new.exists()
    old.write_text(users_edit(old.read_text()))
    commit_all(project, "our edit of the mailer")
    template.edit(manifest, lambda s: s.replace(old_place, OLD_PLACES))
    template.edit("template/layers/apis/auth/service/mailer.ts.jinja", releases_edit)
    template.release("v2.0.0")
    return update(project), old, new


def test_an_edit_of_a_file_the_release_moved_goes_with_it(tmp_path):
    """The user's edit of the old file ends up in the new one, merged with the release's."""
    ours = "// Our relay needs a longer timeout.\n"
    done, old, new = released_across_the_mailer_move(
        tmp_path, lambda text: text + ours, lambda text: "// Released in 2.0.0.\n" + text
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "src/shared/mail/mailer.ts: moved to src/modules/auth/mail/mailer.ts " in done.stdout + done.stderr
    assert not old.exists()
    text = new.read_text()
    assert text.endswith(ours) and text.startswith("// Released in 2.0.0.\n")
    assert "<<<<<<<" not in text


def test_a_conflicting_edit_of_a_moved_file_fails_the_update_and_names_it(tmp_path):
    """The user and the release change the same line: the new file keeps both, marked, and
    the update fails naming it, as any other conflict does."""
    done, old, new = released_across_the_mailer_move(
        tmp_path,
        lambda text: text.replace(FIRST_LINE, FIRST_LINE + " // ours"),
        lambda text: text.replace(FIRST_LINE, FIRST_LINE + " // 2.0.0"),
    )
    assert done.returncode != 0
    assert "src/modules/auth/mail/mailer.ts" in done.stdout + done.stderr
    assert not old.exists()
    text = new.read_text()
    assert "<<<<<<< src/modules/auth/mail/mailer.ts" in text
    assert FIRST_LINE + " // ours" in text and FIRST_LINE + " // 2.0.0" in text


# This turn's moves: the template file and text that place the file, its text before and after,
# the file's old and new path, and the stack it is made for.
MOVES = {
    # Next.js: the caller of a request became the route builder of every route file.
    "next-caller": (
        "template/layers/apis/auth/api.yml",
        "  record-route.ts: {file-api: src/app/api/v1/auth/caller.ts}\n",
        "  record-route.ts: {file-api: src/app/api/v1/record-route.ts}\n",
        "src/app/api/v1/auth/caller.ts",
        "src/app/api/v1/record-route.ts",
        {"framework": "nextjs", "architecture": "file-api"},
    ),
    # The auth API's folder got sub-folders by concern (the sessions' files went to sessions/).
    "auth-concerns": (
        "template/layers/apis/auth/api.yml",
        "  sessions: []\n",
        "  sessions: [session.service.ts, session.schemas.ts, sessions.repository.ts, token-signer.ts]\n",
        "src/modules/auth/session.service.ts",
        "src/modules/auth/sessions/session.service.ts",
        {},
    ),
    # NestJS: the users table left its folder (src/users/) for auth's module (src/auth/).
    "nest-table": (
        "extensions/stackwright/layouts.py",
        '"modular": {"drizzle": "src/{module}", "mongoose": "src/{module}"},',
        '"modular": {"drizzle": "src/{api}", "mongoose": "src/{api}"},',
        "src/users/user.table.ts",
        "src/auth/user.table.ts",
        {"framework": "nestjs", "architecture": "modular"},
    ),
}


@pytest.mark.parametrize("move", sorted(MOVES))
def test_a_users_edit_of_a_file_this_release_moved_goes_with_it(tmp_path, move):
    """v1 (the template with the old place) writes the file at its old path; the user adds a
    line to it; v2 (the template as it is) writes it at the new one: the update carries the line."""
    placing, old_place, new_place, old, new, stack = MOVES[move]
    template = TemplateRepo(tmp_path / "template")
    template.edit(placing, lambda s: s.replace(new_place, old_place))
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api", **stack)
    assert (project / old).is_file() and not (project / new).exists()
    ours = "// Ours: kept through the move.\n"
    (project / old).write_text((project / old).read_text() + ours)
    commit_all(project, "our edit")
    template.edit(placing, lambda s: s.replace(old_place, new_place))
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (project / old).exists()
    assert (project / new).read_text().endswith(ours)


@pytest.mark.parametrize("edited", [True, False], ids=["edited", "untouched"])
def test_a_file_the_release_split_keeps_the_users_edits_where_it_was(tmp_path, edited):
    """v1 writes tests/bank.test.ts (as the releases before the split did); v2 makes its tests
    in accounts.test.ts and transfers.test.ts. An edited copy stays, named in the output, for
    the user to move; an untouched one goes."""
    template = TemplateRepo(tmp_path / "template")
    fragment = template.path / "template/layers/apis/bank/service/bank.test.ts.jinja"
    fragment.write_text("// The bank's tests, before the split.\n")
    template.release("v1.0.0")
    project = generate(template, tmp_path / "api", bundles=["auth", "banking-app"])
    old = project / "tests/bank.test.ts"
    assert old.is_file()
    ours = "// Ours: a test of our own.\n"
    if edited:
        old.write_text(old.read_text() + ours)
        commit_all(project, "our edit")
    fragment.unlink()
    template.release("v2.0.0")
    done = update(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (project / "tests/transfers.test.ts").is_file()
    told = "tests/bank.test.ts: kept with your edits; this release split it into" in done.stdout + done.stderr
    if edited:
        assert told, done.stdout + done.stderr
        assert old.read_text().endswith(ours)
    else:
        assert not told and not old.exists()


def test_every_split_file_names_files_the_layouts_place():
    """Each split file's new files are where a layout places them. (The old one may still be
    placed: NestJS leaves out create-bank.ts, which the other frameworks make; the hook keeps
    an edited copy only where the release no longer makes it.)"""
    from move_files import SPLIT

    for old, news in SPLIT.items():
        assert any(set(news) <= set(LAYOUTS[architecture].values()) for architecture in LAYOUTS), old


def test_every_moved_file_lands_where_the_layouts_place_it():
    from move_files import MODEL_APIS, MODULES, MOVED, concern_moves, feature_model_moves

    from stackwright.bundles import MODEL_MODULES
    from stackwright.layouts import MODEL_APIS as LAYOUT_MODEL_APIS

    assert dict(MODULES) == MODEL_MODULES
    assert MODEL_APIS == LAYOUT_MODEL_APIS
    every_api = sorted(set(MODEL_APIS.values()))
    for architecture in LAYOUTS:
        moves = {**MOVED.get(architecture, {}), **concern_moves(architecture)}
        moves.update(feature_model_moves(every_api) if architecture == "feature" else {})
        # With every API chosen: a model's table sits in its API's module (the feature layout).
        models = {
            model_file(architecture, adapter, model, every_api)
            for model in MODEL_MODULES
            for adapter in ("drizzle", "mongoose")
        }
        placed = set(LAYOUTS[architecture].values()) | models
        assert set(moves.values()) <= placed, architecture
        assert not set(moves) & placed, f"{architecture}: an old path is still a place of the layout"
