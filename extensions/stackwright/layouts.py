"""Where each file lives for each architecture, and the paths between files.

Keys of LAYOUTS are fragment names (template/layers/**/<name>.jinja); model files are
placed by model_file(). Fragments use place() and import_path() rather than spelling a
path, so one fragment serves every architecture and rootDir.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from jinja2 import pass_context

from .bundles import MODEL_MODULES
from .stacks import FRAMEWORKS, RUNTIMES

# Where a fragment's file lives in each architecture, relative to rootDir. Keys
# are fragment names (template/layers/**/<name>.jinja), which are also what
# place() and import_path() take; a fragment not listed here keeps its path in
# its layer folder, relative to the project root.
_COMMON = {
    "src": "src",
    # Prisma's generated client (prisma-client generator), in the sources so tsc checks its use.
    "generated/prisma/client.ts": "src/generated/prisma/client.ts",
    "tests": "tests",
    "app.ts": "src/app.ts",
    "server.ts": "src/server.ts",
    "health.test.ts": "tests/health.test.ts",
    "env.test.ts": "tests/env.test.ts",
    # The domain APIs' tests and what they run on.
    "auth.test.ts": "tests/auth.test.ts",
    "smtp-capture.ts": "tests/support/smtp-capture.ts",
    "test-server.ts": "tests/support/test-server.ts",
    "auth-probe.ts": "tests/support/auth-probe.ts",
    "bank.test.ts": "tests/bank.test.ts",
    "bank-probe.ts": "tests/support/bank-probe.ts",
    "blog.test.ts": "tests/blog.test.ts",
    "api-client.ts": "tests/support/api-client.ts",
}


# Each domain API's framework-free files, which the feature, modular and file-api layouts
# keep together in the API's module folder (mvc spreads them over its layer folders).
AUTH_MODULE = (
    "auth.crypto.ts",
    "password-hasher.ts",
    "token-signer.ts",
    "auth.ports.ts",
    "auth.service.ts",
    "create-auth.ts",
    "auth.schemas.ts",
    "auth.repository.ts",
)
BANK_MODULE = (
    "money.ts",
    "bank.ports.ts",
    "bank.service.ts",
    "create-bank.ts",
    "bank.schemas.ts",
    "bank.repository.ts",
)
BLOG_MODULE = (
    "blog.ports.ts",
    "blog.service.ts",
    "create-blog.ts",
    "blog.schemas.ts",
    "blog.repository.ts",
)


def _in_folder(folder: str, names: tuple[str, ...]) -> dict[str, str]:
    """Layout entries that put every one of `names` in `folder`."""
    return {name: f"{folder}/{name}" for name in names}


LAYOUTS: dict[str, dict[str, str]] = {
    "mvc": {
        **_COMMON,
        "env.ts": "src/config/env.ts",
        "database.ts": "src/config/database.ts",
        "migrate.ts": "src/db/migrate.ts",
        "constraints.ts": "src/db/constraints.ts",
        "schema.ts": "src/db/schema/index.ts",
        "relations.ts": "src/db/schema/relations.ts",
        "timestamps.ts": "src/db/schema/timestamps.ts",
        "constants.ts": "src/config/constants.ts",
        "types.ts": "src/types/index.ts",
        "models.ts": "src/models/index.ts",
        "sync-indexes.ts": "src/scripts/sync-indexes.ts",
        "indexes.ts": "src/db/indexes.ts",
        "immutable-ledger.ts": "src/db/immutable-ledger.ts",
        "http-error.ts": "src/utils/http-error.ts",
        "error-handler.ts": "src/middlewares/error-handler.ts",
        "not-found.ts": "src/middlewares/not-found.ts",
        "routes.ts": "src/routes/index.ts",
        "health.routes.ts": "src/routes/health.routes.ts",
        "health.controller.ts": "src/controllers/health.controller.ts",
        # The domain APIs: services, repositories, HTTP.
        "domain-error.ts": "src/utils/domain-error.ts",
        "validation.ts": "src/utils/validation.ts",
        "pagination.ts": "src/utils/pagination.ts",
        "openapi.ts": "src/utils/openapi.ts",
        "auth.crypto.ts": "src/utils/auth.crypto.ts",
        "password-hasher.ts": "src/utils/password-hasher.ts",
        "token-signer.ts": "src/utils/token-signer.ts",
        "mailer.ts": "src/utils/mailer.ts",
        "auth.ports.ts": "src/services/auth.ports.ts",
        "auth.service.ts": "src/services/auth.service.ts",
        "create-auth.ts": "src/services/create-auth.ts",
        "auth.schemas.ts": "src/validators/auth.schemas.ts",
        "auth.repository.ts": "src/repositories/auth.repository.ts",
        "repository-support.ts": "src/repositories/repository-support.ts",
        "money.ts": "src/utils/money.ts",
        "bank.ports.ts": "src/services/bank.ports.ts",
        "bank.service.ts": "src/services/bank.service.ts",
        "create-bank.ts": "src/services/create-bank.ts",
        "bank.schemas.ts": "src/validators/bank.schemas.ts",
        "bank.repository.ts": "src/repositories/bank.repository.ts",
        "bank.controller.ts": "src/controllers/bank.controller.ts",
        "bank.routes.ts": "src/routes/bank.routes.ts",
        "blog.ports.ts": "src/services/blog.ports.ts",
        "blog.service.ts": "src/services/blog.service.ts",
        "create-blog.ts": "src/services/create-blog.ts",
        "blog.schemas.ts": "src/validators/blog.schemas.ts",
        "blog.repository.ts": "src/repositories/blog.repository.ts",
        "blog.controller.ts": "src/controllers/blog.controller.ts",
        "blog.routes.ts": "src/routes/blog.routes.ts",
        "auth.controller.ts": "src/controllers/auth.controller.ts",
        "auth.routes.ts": "src/routes/auth.routes.ts",
        "api.routes.ts": "src/routes/api.routes.ts",
        "authenticate.ts": "src/middlewares/authenticate.ts",
        "validate.ts": "src/middlewares/validate.ts",
        "admin-grant.ts": "src/scripts/admin-grant.ts",
    },
    "feature": {
        **_COMMON,
        "env.ts": "src/shared/config/env.ts",
        "database.ts": "src/shared/database/database.ts",
        "migrate.ts": "src/shared/database/migrate.ts",
        "constraints.ts": "src/shared/database/constraints.ts",
        "schema.ts": "src/shared/database/schema.ts",
        "relations.ts": "src/shared/database/relations.ts",
        "timestamps.ts": "src/shared/database/timestamps.ts",
        "constants.ts": "src/shared/constants.ts",
        "types.ts": "src/shared/types.ts",
        "models.ts": "src/shared/database/models.ts",
        "sync-indexes.ts": "src/shared/database/sync-indexes.ts",
        "indexes.ts": "src/shared/database/indexes.ts",
        "immutable-ledger.ts": "src/shared/database/immutable-ledger.ts",
        "http-error.ts": "src/shared/errors/http-error.ts",
        "error-handler.ts": "src/shared/middlewares/error-handler.ts",
        "not-found.ts": "src/shared/middlewares/not-found.ts",
        "routes.ts": "src/modules/index.ts",
        "health.routes.ts": "src/modules/health/health.routes.ts",
        "health.controller.ts": "src/modules/health/health.controller.ts",
        # The domain APIs: shared pieces in src/shared, each API in its module.
        "domain-error.ts": "src/shared/errors/domain-error.ts",
        "validation.ts": "src/shared/validation.ts",
        "pagination.ts": "src/shared/pagination.ts",
        "openapi.ts": "src/shared/openapi.ts",
        "mailer.ts": "src/shared/mail/mailer.ts",
        "authenticate.ts": "src/shared/middlewares/authenticate.ts",
        "validate.ts": "src/shared/middlewares/validate.ts",
        "api.routes.ts": "src/modules/api.routes.ts",
        **_in_folder("src/modules/auth", AUTH_MODULE),
        "auth.controller.ts": "src/modules/auth/auth.controller.ts",
        "auth.routes.ts": "src/modules/auth/auth.routes.ts",
        "repository-support.ts": "src/shared/database/repository-support.ts",
        **_in_folder("src/modules/bank", BANK_MODULE),
        "bank.controller.ts": "src/modules/bank/bank.controller.ts",
        "bank.routes.ts": "src/modules/bank/bank.routes.ts",
        **_in_folder("src/modules/blog", BLOG_MODULE),
        "blog.controller.ts": "src/modules/blog/blog.controller.ts",
        "blog.routes.ts": "src/modules/blog/blog.routes.ts",
        "admin-grant.ts": "src/scripts/admin-grant.ts",
    },
    # NestJS: one folder per Nest module; each model sits in its feature module's folder.
    "modular": {
        **_COMMON,
        "server.ts": "src/main.ts",
        "app.module.ts": "src/app.module.ts",
        "env.ts": "src/config/env.ts",
        "config.module.ts": "src/config/config.module.ts",
        "database.ts": "src/database/database.ts",
        "database.module.ts": "src/database/database.module.ts",
        "migrate.ts": "src/database/migrate.ts",
        "constraints.ts": "src/database/constraints.ts",
        "schema.ts": "src/database/schema.ts",
        "relations.ts": "src/database/relations.ts",
        "timestamps.ts": "src/database/timestamps.ts",
        "models.ts": "src/database/models.ts",
        "sync-indexes.ts": "src/database/sync-indexes.ts",
        "indexes.ts": "src/database/indexes.ts",
        "immutable-ledger.ts": "src/database/immutable-ledger.ts",
        "constants.ts": "src/common/constants.ts",
        "types.ts": "src/common/types.ts",
        "all-exceptions.filter.ts": "src/common/all-exceptions.filter.ts",
        "health.module.ts": "src/health/health.module.ts",
        "health.controller.ts": "src/health/health.controller.ts",
        # The domain APIs: shared pieces in src/common and src/api, each API in its module.
        "domain-error.ts": "src/common/domain-error.ts",
        "validation.ts": "src/common/validation.ts",
        "pagination.ts": "src/common/pagination.ts",
        "openapi.ts": "src/common/openapi.ts",
        "mailer.ts": "src/common/mailer.ts",
        "api.module.ts": "src/api/api.module.ts",
        **_in_folder("src/auth", AUTH_MODULE),
        "auth.controller.ts": "src/auth/auth.controller.ts",
        "auth.guard.ts": "src/auth/auth.guard.ts",
        "auth.module.ts": "src/auth/auth.module.ts",
        "repository-support.ts": "src/database/repository-support.ts",
        **_in_folder("src/bank", BANK_MODULE),
        "bank.controller.ts": "src/bank/bank.controller.ts",
        "bank.module.ts": "src/bank/bank.module.ts",
        **_in_folder("src/blog", BLOG_MODULE),
        "blog.controller.ts": "src/blog/blog.controller.ts",
        "blog.module.ts": "src/blog/blog.module.ts",
        "admin-grant.ts": "src/scripts/admin-grant.ts",
    },
    # Next.js (app router, API only): the route folders under src/app are the API. Next's
    # own config files sit in its project folder (rootDir), where `next` looks for them.
    "file-api": {
        "src": "src",
        "tests": "tests",
        "generated/prisma/client.ts": "src/generated/prisma/client.ts",
        "health.test.ts": "tests/health.test.ts",
        "env.test.ts": "tests/env.test.ts",
        "auth.test.ts": "tests/auth.test.ts",
        "smtp-capture.ts": "tests/support/smtp-capture.ts",
        "test-server.ts": "tests/support/test-server.ts",
        "auth-probe.ts": "tests/support/auth-probe.ts",
        "bank.test.ts": "tests/bank.test.ts",
        "bank-probe.ts": "tests/support/bank-probe.ts",
        "blog.test.ts": "tests/blog.test.ts",
        "api-client.ts": "tests/support/api-client.ts",
        "instrumentation.ts": "src/instrumentation.ts",
        "instrumentation-node.ts": "src/instrumentation-node.ts",
        "health.route.ts": "src/app/health/route.ts",
        "ready.route.ts": "src/app/health/ready/route.ts",
        "not-found.route.ts": "src/app/[[...notFound]]/route.ts",
        "next.config.ts": "next.config.ts",
        "tsconfig.json": "tsconfig.json",
        "http.ts": "src/lib/http.ts",
        "lifecycle.ts": "src/lib/lifecycle.ts",
        "env.ts": "src/lib/env.ts",
        "db.ts": "src/lib/db.ts",
        "constants.ts": "src/lib/constants.ts",
        "types.ts": "src/lib/types.ts",
        "database.ts": "src/db/database.ts",
        "migrate.ts": "src/db/migrate.ts",
        "constraints.ts": "src/db/constraints.ts",
        "schema.ts": "src/db/schema/index.ts",
        "relations.ts": "src/db/schema/relations.ts",
        "timestamps.ts": "src/db/schema/timestamps.ts",
        "models.ts": "src/models/index.ts",
        "sync-indexes.ts": "src/db/sync-indexes.ts",
        "indexes.ts": "src/db/indexes.ts",
        "immutable-ledger.ts": "src/db/immutable-ledger.ts",
        # The domain APIs: shared pieces in src/lib, each API's services in its module, and
        # one route.ts per path under src/app/api/v1.
        "domain-error.ts": "src/lib/domain-error.ts",
        "validation.ts": "src/lib/validation.ts",
        "pagination.ts": "src/lib/pagination.ts",
        "openapi.ts": "src/lib/openapi.ts",
        "mailer.ts": "src/lib/mailer.ts",
        "api.ts": "src/lib/api.ts",
        "openapi.route.ts": "src/app/api/v1/openapi.json/route.ts",
        **_in_folder("src/modules/auth", AUTH_MODULE),
        "admin-grant.ts": "src/scripts/admin-grant.ts",
        "sign-up.route.ts": "src/app/api/v1/auth/sign-up/route.ts",
        "verify-email.route.ts": "src/app/api/v1/auth/verify-email/route.ts",
        "otp.route.ts": "src/app/api/v1/auth/otp/route.ts",
        "sign-in.route.ts": "src/app/api/v1/auth/sign-in/route.ts",
        "sign-in-otp.route.ts": "src/app/api/v1/auth/sign-in/otp/route.ts",
        "refresh.route.ts": "src/app/api/v1/auth/refresh/route.ts",
        "sign-out.route.ts": "src/app/api/v1/auth/sign-out/route.ts",
        "me.route.ts": "src/app/api/v1/auth/me/route.ts",
        "reactivate.route.ts": "src/app/api/v1/auth/reactivate/route.ts",
        "password-forgot.route.ts": "src/app/api/v1/auth/password/forgot/route.ts",
        "password-verify.route.ts": "src/app/api/v1/auth/password/verify/route.ts",
        "password-reset.route.ts": "src/app/api/v1/auth/password/reset/route.ts",
        "password-change.route.ts": "src/app/api/v1/auth/password/change/route.ts",
        "sessions.route.ts": "src/app/api/v1/auth/sessions/route.ts",
        "session.route.ts": "src/app/api/v1/auth/sessions/[id]/route.ts",
        "users.route.ts": "src/app/api/v1/users/route.ts",
        "repository-support.ts": "src/db/repository-support.ts",
        **_in_folder("src/modules/bank", BANK_MODULE),
        "accounts.route.ts": "src/app/api/v1/accounts/route.ts",
        "account.route.ts": "src/app/api/v1/accounts/[id]/route.ts",
        "account-transactions.route.ts": "src/app/api/v1/accounts/[id]/transactions/route.ts",
        "account-ledger.route.ts": "src/app/api/v1/accounts/[id]/ledger/route.ts",
        "transfers.route.ts": "src/app/api/v1/transfers/route.ts",
        "deposits.route.ts": "src/app/api/v1/admin/deposits/route.ts",
        "reverse.route.ts": "src/app/api/v1/admin/transactions/[id]/reverse/route.ts",
        **_in_folder("src/modules/blog", BLOG_MODULE),
        "categories.route.ts": "src/app/api/v1/categories/route.ts",
        "posts.route.ts": "src/app/api/v1/posts/route.ts",
        "post.route.ts": "src/app/api/v1/posts/[id]/route.ts",
        "post-comments.route.ts": "src/app/api/v1/posts/[id]/comments/route.ts",
        "post-like.route.ts": "src/app/api/v1/posts/[id]/like/route.ts",
        "comment.route.ts": "src/app/api/v1/comments/[id]/route.ts",
        "comment-like.route.ts": "src/app/api/v1/comments/[id]/like/route.ts",
    },
}


def model_dialect(engine: str, adapter: str) -> str:
    """The models layer folder with a stack's model files: pg, mysql, mongoose, prisma-sql or prisma-mongodb."""
    if adapter == "mongoose":
        return "mongoose"
    if adapter == "prisma":
        return "prisma-mongodb" if engine == "mongodb" else "prisma-sql"
    return {"postgresql": "pg", "mysql": "mysql"}[engine]


# Where model files live per architecture: Drizzle's and Mongoose's folder ({module}: the
# model's feature module, MODEL_MODULES); Drizzle names them <model>.schema.ts inside a
# feature module and <model>.ts inside a schema folder, Mongoose <model>.model.ts.
MODEL_FOLDERS: dict[str, dict[str, str]] = {
    "mvc": {"drizzle": "src/db/schema", "mongoose": "src/models"},
    "feature": {"drizzle": "src/modules/{module}", "mongoose": "src/modules/{module}"},
    "modular": {"drizzle": "src/{module}", "mongoose": "src/{module}"},
    "file-api": {"drizzle": "src/db/schema", "mongoose": "src/models"},
}


# Prisma keeps its schema beside package.json, one file per model, whatever the architecture.
PRISMA_SCHEMA_FOLDER = "prisma/schema"


def model_file(architecture: str, adapter: str, model: str) -> str:
    """Where a model's file lives, relative to rootDir (Prisma's: to the project)."""
    if adapter == "prisma":
        return f"{PRISMA_SCHEMA_FOLDER}/{model}.prisma"
    template = MODEL_FOLDERS[architecture][adapter]
    folder = template.format(module=MODEL_MODULES[model])
    if adapter == "mongoose":
        return f"{folder}/{model}.model.ts"
    return f"{folder}/{model}.schema.ts" if "{module}" in template else f"{folder}/{model}.ts"


def _in_root(context: Any, relpath: str) -> str:
    root = context.get("rootDir", ".")
    return relpath if root in ("", ".") else posixpath.join(root, relpath)


def layout_path(context: Any, key: str) -> str:
    """Path of a file relative to the project: 'model:<name>' for models, else a layout key."""
    if key.startswith("model:"):
        model = key[len("model:") :]
        relpath = model_file(context["architecture"], context["databaseAdapter"], model)
        if context["databaseAdapter"] == "prisma":
            return relpath
    elif key in LAYOUTS[context["architecture"]]:
        relpath = LAYOUTS[context["architecture"]][key]
    else:
        return key  # at the project root, whatever rootDir is
    return _in_root(context, relpath)


@pass_context
def place(context: Any, key: str) -> str:
    """Path of a layout file (or 'model:<name>') for the chosen architecture and rootDir."""
    return layout_path(context, key)


@pass_context
def import_path(context: Any, from_key: str, to_key: str) -> str:
    """ESM import specifier (NodeNext: '.js' suffix) from one layout file to another."""
    source, target = layout_path(context, from_key), layout_path(context, to_key)
    rel = posixpath.relpath(target, posixpath.dirname(source))
    rel = rel if rel.startswith(".") else f"./{rel}"
    return re.sub(r"\.ts$", _import_suffix(context), rel)


@pass_context
def relative_dir(context: Any, from_key: str, to_key: str) -> str:
    """The folder of one layout file, relative to the folder of another (Prisma's `output`)."""
    source, target = layout_path(context, from_key), layout_path(context, to_key)
    return posixpath.relpath(posixpath.dirname(target), posixpath.dirname(source))


def _import_suffix(context: Any) -> str:
    """What relative imports end in ('.js', '.ts' or ''): the framework's, else the runtime's."""
    return FRAMEWORKS[context["framework"]].get("import_suffix", RUNTIMES[context["runtime"]]["import_suffix"])


@pass_context
def import_extension(context: Any) -> str:
    """The extension relative imports end in, without its dot ('js', 'ts' or ''): Prisma's
    generator writes its client's imports with it."""
    return _import_suffix(context).lstrip(".")


@pass_context
def compiled_path(context: Any, key: str) -> str:
    """Where `tsc -p tsconfig.build.json` writes a source file: dist/ mirrors the source folder."""
    source = posixpath.relpath(layout_path(context, key), layout_path(context, "src"))
    return posixpath.join("dist", re.sub(r"\.ts$", ".js", source))
