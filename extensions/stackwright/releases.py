"""Release versions, and the `copier update` command a generated project's README gives."""

from __future__ import annotations

import re
from typing import Any


def release_version(commit: Any) -> str:
    """The template release (from its git tag, e.g. 'v1.2.0-3-gabc') as MAJOR.MINOR.PATCH."""
    match = re.match(r"v?(\d+)\.(\d+)\.(\d+)", str(commit or ""))
    return ".".join(str(int(p)) for p in match.groups()) if match else "0.0.0"


def is_release(commit: Any) -> bool:
    """Whether `_commit` is a release tag ('v1.2.0'), not an unreleased commit ('v1.2.0-3-gabc', 'abc1234')."""
    return re.fullmatch(r"v?[0-9]+\.[0-9]+\.[0-9]+", str(commit or "")) is not None


def update_command(commit: Any) -> str:
    """The `copier update` that takes a project generated from `commit` to the template's newest state.

    From a release, Copier's default target is the newest release. From an unreleased commit
    that target can be older than the commit (Copier then refuses: "Downgrades are not
    supported"), so such a project follows the template's latest commit instead.
    """
    return "copier update --trust --defaults" + ("" if is_release(commit) else " --vcs-ref=HEAD")
