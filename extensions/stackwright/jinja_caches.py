"""Jinja's compile caches: templated strings compiled once per run, fragments once per source."""

from __future__ import annotations

import hashlib
import importlib.metadata
from typing import Any

from jinja2 import Environment
from jinja2.bccache import FileSystemBytecodeCache

def reuse_compiled_strings(environment: Environment) -> None:
    """Compile each templated string once per run.

    Copier compiles a question's help, choices, default, validator and `when`,
    and every path part, each time it renders them, and it renders them again
    for every question asked: hundreds of compiles of the same few strings. A
    compiled template depends only on its source (globals are bound at render),
    so the code object can be reused. Extensions' preprocess hooks still run on
    every use: Copier's `yield` resets its state there.
    """
    compile_source = environment.compile
    cache: dict[str, Any] = {}

    def compile_once(  # Environment.compile's signature
        source: Any, name: Any = None, filename: Any = None, raw: bool = False, defer_init: bool = False
    ) -> Any:
        if not isinstance(source, str) or name is not None or filename is not None or raw or defer_init:
            return compile_source(source, name, filename, raw, defer_init)
        if source not in cache:
            cache[source] = compile_source(source)
        else:
            environment.preprocess(source)
        return cache[source]

    environment.compile = compile_once  # type: ignore[method-assign]


class FragmentBytecodeCache(FileSystemBytecodeCache):
    """Compiled fragments kept between runs (in Jinja's per-user temp cache folder).

    Keyed by the fragment's name inside the template, not by its file path:
    Copier renders from a fresh temporary clone each run. Jinja recompiles when
    the source's checksum differs, and the Jinja and Copier versions are part of
    the key, so a stale entry is never used.
    """

    def __init__(self) -> None:
        super().__init__(pattern="stackwright-%s.jinja-cache")
        self.versions = f"{importlib.metadata.version('jinja2')}|{importlib.metadata.version('copier')}"

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha1(f"{name}|{self.versions}".encode()).hexdigest()

