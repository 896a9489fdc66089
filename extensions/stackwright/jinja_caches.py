"""Jinja's compile caches: templated strings compiled once per run, fragments once per source."""

from __future__ import annotations

import hashlib
import importlib.metadata
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from jinja2 import Environment
from jinja2.bccache import FileSystemBytecodeCache

# Compiled strings, shared by every environment of the process: `copier update` renders the
# project's release and the new one (each checkout loads its own copy of this module, and
# Copier makes an environment per render), and most strings are the same in all of them.
_SHARED_NAME = "stackwright_compiled_strings"
_COMPILED: dict[tuple[Any, str], Any] = sys.modules.setdefault(
    _SHARED_NAME, ModuleType(_SHARED_NAME)
).__dict__.setdefault("by_options_and_source", {})


def _options(environment: Environment) -> tuple[Any, ...]:
    """What the code Jinja compiles from a string depends on, besides the string."""
    return (
        *(getattr(environment, name) for name in _SYNTAX),
        environment.autoescape,
        environment.finalize is not None,
        environment.optimized,
        environment.is_async,
        environment.undefined,
        tuple(sorted(environment.extensions)),
        # Whether a filter or test takes the context is decided when compiling.
        *(
            tuple(sorted((name, getattr(f, "jinja_pass_arg", None)) for name, f in table.items()))
            for table in (environment.filters, environment.tests)
        ),
    )


_SYNTAX = (
    "block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
    "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
    "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline",
)  # fmt: skip


def reuse_compiled_strings(environment: Environment) -> None:
    """Compile each templated string once per process.

    Copier compiles a question's help, choices, default, validator and `when`,
    and every path part, each time it renders them, and it renders them again
    for every question asked: hundreds of compiles of the same few strings. A
    compiled template depends only on its source and the environment's options
    (globals are bound at render), so the code object can be reused. Extensions'
    preprocess hooks still run on every use: Copier's `yield` resets its state there.
    """
    compile_source: Callable[..., Any] = environment.compile  # its overloads split on `raw`
    options: list[tuple[Any, ...]] = []  # read at the first compile, once filters are registered

    def compile_once(  # Environment.compile's signature
        source: Any, name: Any = None, filename: Any = None, raw: bool = False, defer_init: bool = False
    ) -> Any:
        if not isinstance(source, str) or name is not None or filename is not None or raw or defer_init:
            return compile_source(source, name, filename, raw, defer_init)
        if not options:
            options.append(_options(environment))
        key = (options[0], source)
        if key not in _COMPILED:
            _COMPILED[key] = compile_source(source)
        else:
            environment.preprocess(source)
        return _COMPILED[key]

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
