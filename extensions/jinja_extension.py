"""The Jinja extension copier.yml loads: registers the globals and filters of the stackwright package.

Copier (through copier-template-extensions) loads this file by its path, from the
template checkout being rendered. `copier update` renders two checkouts (the project's
release and the new one) in one process, so the package is imported under a name made
from its folder: each checkout gets its own modules, and a checkout rendered again
reuses them (and their caches).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from jinja2 import Environment
from jinja2.ext import Extension

PACKAGE_DIR = Path(__file__).resolve().parent / "stackwright"
PACKAGE = "stackwright_" + hashlib.sha1(str(PACKAGE_DIR).encode()).hexdigest()[:12]


def _module(name: str) -> ModuleType:
    """stackwright.<name>, from this checkout."""
    if PACKAGE not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, PACKAGE_DIR / "__init__.py", submodule_search_locations=[str(PACKAGE_DIR)]
        )
        assert spec and spec.loader
        package = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{PACKAGE}.{name}")


class StackwrightExtension(Extension):
    """Adds Stackwright's globals and filters to Copier's Jinja environment."""

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        questions, bundles, layouts = _module("questions"), _module("bundles"), _module("layouts")
        plan, packages, names = _module("file_plan"), _module("packages"), _module("names")
        releases, formatting, caches = _module("releases"), _module("formatting"), _module("jinja_caches")
        stacks, paths, apis = _module("stacks"), _module("paths"), _module("apis")
        images = _module("images")

        caches.reuse_compiled_strings(environment)
        if environment.bytecode_cache is None:
            environment.bytecode_cache = caches.FragmentBytecodeCache()
        environment.globals.update(
            # questions
            choices=questions.choices,
            default_for=questions.default_for,
            bundle_names=lambda: json.dumps(list(bundles.BUNDLES)),
            model_choices=bundles.model_choices,
            all_model_items=bundles.all_model_items,
            selected_models=bundles.selected_models,
            dropped_tables=bundles.dropped_tables,
            constant_values=bundles.constant_values,
            api_choices=apis.api_choices,
            default_apis=apis.default_apis,
            apis_of=apis.apis_of,
            api_wiring=apis.api_wiring,
            api_parts=apis.api_parts,
            api_scripts=apis.api_scripts,
            api_database_scripts=apis.api_database_scripts,
            api_worker_scripts=apis.api_worker_scripts,
            apis_with=apis.apis_with,
            storage_helper_used=apis.storage_helper_used,
            named_by_dependents=apis.named_by_dependents,
            api_tables=apis.api_tables,
            # the files and the paths between them
            file_plan=plan.file_plan,
            planned=plan.planned,
            fragment_for=plan.fragment_for,
            place=layouts.place,
            import_path=layouts.import_path,
            alias_path=layouts.alias_path,
            compiled_path=layouts.compiled_path,
            relative_dir=layouts.relative_dir,
            import_extension=layouts.import_extension,
            runtimes=stacks.RUNTIMES,
            frameworks=stacks.FRAMEWORKS,
            test_imports=stacks.test_imports,
            statement_spans=stacks.statement_spans,
            schema_text=paths.SCHEMA_PATH.read_text,
            # packages and commands
            versions=packages.VERSIONS,
            dependencies=packages.dependencies,
            pinned_below=packages.pinned_below,
            package_manager_field=packages.package_manager_field,
            run_command=packages.run_command,
            prisma_cli=packages.prisma_cli,
            install_command=packages.install_command,
            frozen_install_command=packages.frozen_install_command,
            production_install_command=packages.production_install_command,
            exec_form=packages.exec_form,
            exec_words=packages.exec_words,
            container_image=images.container_image,
            deployment=images.deployment,
            shutdown_defaults=images.SHUTDOWN_DEFAULTS,
            telemetry_collector_image=images.TELEMETRY_COLLECTOR_IMAGE,
            lockfile=packages.lockfile,
            build_script_dependencies=packages.BUILD_SCRIPT_DEPENDENCIES,
            declined_build_scripts=packages.declined_build_scripts,
            update_command=releases.update_command,
        )
        environment.filters.update(
            npm_name=names.npm_name,
            npm_name_problem=names.npm_name_problem,
            root_dir_problem=names.root_dir_problem,
            display_name=names.display_name,
            with_article=names.with_article,
            camel=names.camel,
            db_name=names.db_name,
            kubernetes_name=images.kubernetes_name,
            release_version=releases.release_version,
            is_release=releases.is_release,
            sort_imports=formatting.sort_imports,
            json_string=formatting.json_string,
            json_array_member=formatting.json_array_member,
            named_import=formatting.named_import,
            prisma_format=formatting.prisma_format,
            table_of=bundles.table_of,
            models_problem=bundles.models_problem,
            drop_tables_problem=bundles.drop_tables_problem,
            apis_problem=apis.apis_problem,
        )
