"""Names: the project's npm name and database name, its rootDir, and how the README names things."""

from __future__ import annotations

import re
from typing import Any

_NODE_BUILTINS = {
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
    "node_modules",
    "favicon.ico",
}


def npm_name_problem(name: Any) -> str:
    """Why `name` is not a valid new npm package name ("" when it is)."""
    name = str(name)
    head = f"projectName '{name}'"
    if not name:
        return "projectName must not be empty"
    if len(name) > 214:
        return f"{head} is longer than 214 characters"
    if name != name.strip():
        return f"{head} must not start or end with spaces"
    if name.lower() != name:
        return f"{head} must be lowercase"
    if name in _NODE_BUILTINS:
        return f"{head} is a reserved name (a Node.js core module or npm name)"
    match = re.fullmatch(r"(?:@([^/]*)/)?([^/]*)", name)
    if not match:
        return f"{head} may contain one '/' only, as in '@scope/name'"
    for part in filter(lambda p: p is not None, match.groups()):
        if not re.fullmatch(r"[a-z0-9-][a-z0-9._-]*", part):
            return f"{head} may use only a-z, 0-9, '-', '.' and '_', and must not start with '.' or '_'"
    return ""


def npm_name(folder: Any) -> str:
    """A valid npm package name made from a folder name (the projectName default)."""
    name = re.sub(r"[^a-z0-9._-]+", "-", str(folder).lower()).lstrip("._-").rstrip("-")[:214]
    return name if name and not npm_name_problem(name) else "stackwright-app"


def root_dir_problem(root_dir: Any) -> str:
    """Why `root_dir` is not a usable rootDir ("" when it is)."""
    value = str(root_dir)
    head = f"rootDir '{value}'"
    hint = "use a relative folder such as '.' or 'apps/api'"
    if value == ".":
        return ""
    if not value:
        return f"rootDir must not be empty; {hint}"
    if "\\" in value:
        return f"{head} must use '/' and no backslashes; {hint}"
    if value.startswith("/") or re.match(r"[A-Za-z]:", value):
        return f"{head} must be relative to stackwright.json, not absolute; {hint}"
    segments = value.split("/")
    if ".." in segments:
        return f"{head} must not leave the project with '..'; {hint}"
    if "" in segments or "." in segments:
        return f"{head} has an empty or '.' segment; {hint}"
    return ""


# How the generated README names a schema value: the one table of display names.
DISPLAY_NAMES = {
    "express": "Express",
    "nestjs": "NestJS",
    "nextjs": "Next.js",
    "hono": "Hono",
    "node": "Node.js",
    "deno": "Deno",
    "bun": "Bun",
    "postgresql": "PostgreSQL",
    "mysql": "MySQL",
    "mongodb": "MongoDB",
}


def display_name(value: str) -> str:
    """A framework, runtime or database engine as people write it ('nextjs' -> 'Next.js')."""
    return DISPLAY_NAMES[value]


def with_article(name: str, capital: bool = False) -> str:
    """'a' or 'an' before a display name, by its first sound ('an Express', 'a NestJS').

    Every name in DISPLAY_NAMES is said as it is spelt, so a vowel letter is a vowel sound.
    `capital` starts a sentence ('An Express').
    """
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {name}"


def camel(value: str) -> str:
    """'email-verification' -> 'emailVerification' (a Prisma enum value's name)."""
    head, *rest = value.split("-")
    return head + "".join(part.capitalize() for part in rest)


def db_name(project_name: Any) -> str:
    """A database name made from the npm package name ('@acme/my-api' -> 'my_api')."""
    return re.sub(r"[^a-z0-9_]+", "_", str(project_name).split("/")[-1].lower()).strip("_") or "app"
