"""Generated projects install and pass their checks with the package manager the user chose,
at the version extensions/versions.json pins (the one package.json's packageManager names).

- pnpm 11+ fails an install whose dependencies have build scripts it was not told about
  (ERR_PNPM_IGNORED_BUILDS): pnpm-workspace.yaml allows esbuild's.
- Yarn 4 installs with Plug'n'Play unless told otherwise, and 4.14+ runs no dependency's
  build script: .yarnrc.yml sets the node_modules linker, package.json's dependenciesMeta
  allows esbuild's.

Each case renders a project, installs it with the pinned tool (fetched once into
.cache/tools; a failed fetch fails the test with npm's output), then runs the project's
typecheck and lint scripts through that tool, and esbuild's binary (under tsx, vitest and
drizzle-kit). The project's tests and migrations run through every one of these tools in
tests/test_stacks.py (Yarn and pnpm on Deno and NestJS, bun on Bun, migrating on both
engines). Stores and caches live under .cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
import yaml
from conftest import (
    CACHE,
    NPM_CACHE,
    commit_all,
    failure_output,
    git,
    npm_tool,
    render,
    search,
)

from stackwright.packages import VERSIONS, install_command, package_manager_field
from stackwright.packages import lockfile as lockfile_name

# The npm package that carries each tool, and its executable.
TOOL_PACKAGES = {"pnpm": ("pnpm", "pnpm"), "yarn": ("@yarnpkg/cli-dist", "yarn"), "bun": ("bun", "bun")}
SCRIPTS = ["typecheck", "lint"]

CASES = {
    "pnpm-postgresql-models": {"packageManager": "pnpm"},
    "pnpm-none": {"packageManager": "pnpm", "databaseEngine": "none", "architecture": "mvc"},
    "yarn-postgresql-models": {"packageManager": "yarn", "architecture": "mvc"},
    # bun as the package manager of a Node project (Bun stacks: tests/test_stacks.py).
    "bun-mysql-models": {"packageManager": "bun", "databaseEngine": "mysql", "databaseAdapter": "drizzle"},
}


def tool_env(manager: str) -> dict[str, str]:
    env = {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"}
    if manager == "pnpm":
        env.update(
            PNPM_CONFIG_STORE_DIR=str(CACHE / "pnpm-store"),
            PNPM_CONFIG_CACHE_DIR=str(CACHE / "pnpm-cache"),
            # pnpm 12 looks up its own per-platform packages on every command, to record the
            # packageManager pin in pnpm-lock.yaml; a registry mirror that lacks one of them
            # fails the command at random (ERR_PNPM_BAD_CONFIG_DEP). The tests run the pinned
            # pnpm itself (checked in package_manager), so that check has nothing to add.
            PNPM_CONFIG_PM_ON_FAIL="ignore",
        )
    elif manager == "yarn":
        env.update(YARN_GLOBAL_FOLDER=str(CACHE / "yarn"), YARN_ENABLE_TELEMETRY="0")
    elif manager == "bun":
        env.update(BUN_INSTALL_CACHE_DIR=str(CACHE / "bun"))
    else:
        env.update(npm_config_cache=str(NPM_CACHE), npm_config_audit="false", npm_config_fund="false")
    if manager in TOOL_PACKAGES:
        # Scripts that run others (`typecheck`: `pnpm run client:generate && ...`) find the pinned
        # manager on PATH, as they find a user's own.
        package, _ = TOOL_PACKAGES[manager]
        tools = npm_tool(package, VERSIONS["packageManagers"][manager]) / ".bin"
        env["PATH"] = os.pathsep.join([str(tools), env["PATH"]])
    return env


def package_manager(manager: str) -> Path:
    """The pinned version of a package manager, installed once into .cache/tools with npm."""
    version = VERSIONS["packageManagers"][manager]
    package, executable = TOOL_PACKAGES[manager]
    exe = npm_tool(package, version) / ".bin" / executable
    done = subprocess.run(
        [str(exe), "--version"], capture_output=True, text=True, timeout=60, env=tool_env(manager), check=False
    )
    assert done.stdout.strip() == version, f"{exe} --version: {done.stdout}{done.stderr}"
    return exe


def run_tool(
    exe: Path | str, manager: str, args: list[str], project: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        env=env or tool_env(manager),
        check=False,
    )


def check(done: subprocess.CompletedProcess[str], project: Path) -> str:
    output = done.stdout + done.stderr
    if done.returncode != 0:
        pytest.fail(f"{' '.join(done.args)} exited {done.returncode} in {project}\n{failure_output(output)}")
    return output


# Yarn resolves every platform's optional packages (its lockfile serves them all), so a registry
# that lacks one of the per-platform binaries of Biome or of Next.js's compiler (SWC) fails the
# install, though this host never installs that package.
MISSING_PLATFORM_BINARY = re.compile(
    r"(@(?:biomejs/cli|next/swc)-[a-z0-9-]+)@npm:\S+: (?:Package not found|No candidates found)"
)
# A connection to the registry that dropped (a CI run's `yarn install` once failed so): the
# install is tried once more, and says so; a failure of anything else fails at once.
REGISTRY_CONNECTION_LOST = re.compile(r"ERR_SOCKET_CLOSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up")
# Packages whose optionalDependencies are per-platform binaries, and the prefix of their names.
PLATFORM_BINARIES = {"@biomejs/biome": "@biomejs/cli-", "next": "@next/swc-"}
# What a binary's name says of its C library (this host: glibc).
LIBC = {"musl": ["musl"], "gnu": ["glibc"], "msvc": []}


def stub_other_platform_binaries(
    project: Path, scratch: Path, field: str = "resolutions", only: set[str] | None = None
) -> list[str]:
    """Resolve the per-platform binaries of Biome and Next.js for other platforms (or `only`
    these) to empty local packages.

    Only for a registry that lacks some of them. The packages this host installs are
    untouched: they come from the registry as usual, so node_modules is what a user gets.
    `field` is Yarn's `resolutions` or npm's `overrides`.
    """
    manifest = json.loads((project / "package.json").read_text())
    pinned = {**manifest.get("dependencies", {}), **manifest.get("devDependencies", {})}
    host_os, host_cpu = subprocess.run(
        ["node", "-p", "process.platform + ' ' + process.arch"], capture_output=True, text=True, check=True
    ).stdout.split()
    stubs = {}
    for package, prefix in PLATFORM_BINARIES.items():
        if package not in pinned:
            continue
        done = subprocess.run(
            [
                "npm",
                "view",
                f"{package}@{pinned[package]}",
                "optionalDependencies",
                "--json",
                "--cache",
                str(NPM_CACHE),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        for name, version in json.loads(done.stdout).items():
            if not name.startswith(prefix) or (only is not None and name not in only):
                continue
            os_name, cpu, *rest = name.removeprefix(prefix).split("-")
            libc = LIBC[rest[0]] if rest else []
            if (os_name, cpu) == (host_os, host_cpu) and libc in ([], ["glibc"]):
                continue  # this host's own binary
            folder = scratch / "platform-stubs" / name.replace("/", "+")
            folder.mkdir(parents=True, exist_ok=True)
            stub = {"name": name, "version": version, "os": [os_name], "cpu": [cpu], **({"libc": libc} if libc else {})}
            (folder / "package.json").write_text(json.dumps(stub) + "\n")
            stubs[name] = f"file:{folder}"
    manifest[field] = stubs
    (project / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return sorted(stubs)


def install(exe: Path | str, manager: str, project: Path, scratch: Path, env: dict[str, str] | None = None) -> str:
    """The README's install with the pinned tool (`env`: tool_env's unless given)."""
    args = install_command(manager).split()[1:]  # what the README and CI run
    done = run_tool(exe, manager, args, project, env)
    if manager == "yarn" and done.returncode != 0 and MISSING_PLATFORM_BINARY.search(done.stdout):
        stubbed = stub_other_platform_binaries(project, scratch)
        warnings.warn(
            f"the registry lacks {search(MISSING_PLATFORM_BINARY.pattern, done.stdout).group(1)}: Yarn resolved the "
            f"other-platform binaries to empty local packages ({', '.join(stubbed)})",
            stacklevel=1,
        )
        done = run_tool(exe, manager, args, project, env)
    if done.returncode != 0 and (lost := REGISTRY_CONNECTION_LOST.search(done.stdout + done.stderr)):
        warnings.warn(f"{manager} install lost its registry connection ({lost.group(0)}): tried again", stacklevel=1)
        done = run_tool(exe, manager, args, project, env)
    return check(done, project)


@pytest.mark.parametrize("case", list(CASES))
def test_installs_and_passes_its_checks_with_the_pinned_package_manager(tmp_path, case):
    answers = CASES[case]
    manager = answers["packageManager"]
    exe = package_manager(manager)
    project = render(tmp_path / "api", projectName=f"api-{case}", **answers)
    manifest = json.loads((project / "package.json").read_text())
    assert manifest["packageManager"] == package_manager_field(manager)

    output = install(exe, manager, project, tmp_path)
    assert (project / "node_modules" / ".bin" / "tsc").exists()
    if manager == "pnpm":
        assert "ERR_PNPM_IGNORED_BUILDS" not in output and "Ignored build scripts" not in output
    else:
        assert "build scripts have been disabled" not in output, output  # YN0004: esbuild not built
        assert not list(project.glob(".pnp.*")), "Yarn used Plug'n'Play despite .yarnrc.yml"
    # esbuild (under tsx, vitest and drizzle-kit) works after its install script ran.
    runs_binary = "exec" if manager == "pnpm" else "run"
    esbuild = run_tool(exe, manager, [runs_binary, "tsx", "--eval", "console.log('tsx ok')"], project)
    assert "tsx ok" in check(esbuild, project)

    for script in SCRIPTS:
        check(run_tool(exe, manager, ["run", script], project), project)

    # What git would commit: the lockfile, but nothing the install wrote besides it.
    git(project, "init", "-q", "-b", "main")
    untracked = git(project, "status", "--porcelain", "--untracked-files=all").splitlines()
    paths = [line[3:] for line in untracked]
    assert lockfile_name(manager) in paths
    leaked = [p for p in paths if p.startswith(("node_modules", ".yarn/", ".pnpm"))]
    assert leaked == [], f"the generated .gitignore lets the install's files through: {leaked[:10]}"


# --- CI's install step, before and after the lockfile is committed --------------------------

# What each package manager says when package.json no longer matches the committed lockfile.
STALE_LOCKFILE = {
    "npm": "`npm ci` can only install packages when your package.json and package-lock.json",
    "pnpm": "ERR_PNPM_OUTDATED_LOCKFILE",
    "yarn": "YN0028",  # The lockfile would have been modified by this install, which is explicitly forbidden.
    "bun": "lockfile had changes, but lockfile is frozen",
}
# Another published version of a runtime dependency, for the stale package.json.
OTHER_VERSION = ("zod", "4.0.0")


def ci_install(manager: str, project: Path) -> subprocess.CompletedProcess[str]:
    """The workflow's install step, run as GitHub runs it (bash -eo pipefail, CI=true)."""
    workflow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text())
    job = workflow["jobs"]["check"]
    (step,) = [step for step in job["steps"] if step.get("name") == "Install dependencies"]
    env = {**tool_env(manager), "CI": "true"}
    if manager != "npm":
        env["PATH"] = f"{package_manager(manager).parent}{os.pathsep}{env['PATH']}"
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )


def missing_from_npm_lockfile(project: Path) -> set[str]:
    """Biome's platform packages that npm left out of package-lock.json: the registry lacks them."""
    packages = json.loads((project / "package-lock.json").read_text())["packages"]
    wanted = packages["node_modules/@biomejs/biome"].get("optionalDependencies", {})
    return {name for name in wanted if f"node_modules/{name}" not in packages}


def first_ci_install(manager: str, project: Path, scratch: Path) -> str:
    """CI's install with no lockfile yet, working around a registry that lacks Biome's other platforms."""
    done = ci_install(manager, project)
    missing = set()
    if manager == "yarn" and done.returncode != 0 and MISSING_PLATFORM_BINARY.search(done.stdout):
        missing = set(stub_other_platform_binaries(project, scratch))
    elif manager == "npm" and done.returncode == 0 and missing_from_npm_lockfile(project):
        # npm writes a lockfile without them, which `npm ci` then rejects as out of sync
        # ("Missing: @biomejs/cli-darwin-x64@ from lock file"); from the real registry it has them.
        missing = set(stub_other_platform_binaries(project, scratch, "overrides", missing_from_npm_lockfile(project)))
        (project / "package-lock.json").unlink()
        shutil.rmtree(project / "node_modules")
    if missing:
        warnings.warn(f"the registry lacks Biome's {', '.join(sorted(missing))}: stubbed for {manager}", stacklevel=1)
        done = ci_install(manager, project)
    return check(done, project)


@pytest.mark.parametrize("manager", ["npm", "pnpm", "yarn", "bun"])
def test_ci_installs_plainly_without_a_lockfile_and_exactly_from_a_committed_one(tmp_path, manager):
    project = render(
        tmp_path / "api", projectName=f"ci-{manager}", packageManager=manager, databaseEngine="none", architecture="mvc"
    )
    lockfile = project / lockfile_name(manager)
    assert not lockfile.exists(), "generated projects ship no lockfile"

    # 1. Before a lockfile is committed (CI=true, where Yarn refuses to create one by default):
    #    the plain install works, says what to commit, and writes the lockfile.
    output = first_ci_install(manager, project, tmp_path)
    assert f"::warning title=No lockfile::commit {lockfile.name}" in output
    assert lockfile.is_file() and (project / "node_modules" / ".bin" / "tsc").exists()

    # 2. The user commits it, as the README says; a fresh checkout installs exactly from it.
    git(project, "init", "-q", "-b", "main")
    commit_all(project, "first install")
    locked = lockfile.read_bytes()
    shutil.rmtree(project / "node_modules")
    output = check(ci_install(manager, project), project)
    assert "::warning" not in output
    assert (project / "node_modules" / ".bin" / "tsc").exists()
    assert git(project, "status", "--porcelain") == "", "the install from the lockfile changed files"
    if manager == "npm":
        # npm 11.16+ lists the install scripts that package.json's allowScripts does not cover (npm 12 skips them).
        reviewed = check(run_tool("npm", manager, ["install-scripts", "ls"], project), project)
        assert "No packages with unreviewed install scripts" in reviewed, reviewed

    # 3. package.json changed without a new lockfile: the install fails and leaves the lockfile alone.
    manifest = json.loads((project / "package.json").read_text())
    name, version = OTHER_VERSION
    assert manifest["dependencies"][name] != version
    manifest["dependencies"][name] = version
    (project / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    done = ci_install(manager, project)
    assert done.returncode != 0, done.stdout + done.stderr
    assert STALE_LOCKFILE[manager] in done.stdout + done.stderr
    assert lockfile.read_bytes() == locked
