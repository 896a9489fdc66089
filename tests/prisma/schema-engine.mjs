// Prisma's own schema engine, in its published WASM build, on the real PostgreSQL.
//
// Prisma's CLI runs migrations with a native engine that this machine cannot download;
// this drives the same engine (WASM) through @prisma/adapter-pg, so a generated
// project's schema.prisma is turned into a migration and applied by Prisma itself.
// See ../shared/notes/prisma.md. The API is internal and unversioned: the test pins it.
//
// usage: node schema-engine.mjs <tools node_modules> <command> <project> <database url>
//   create <name>  write prisma/migrations/<timestamp>_<name>/migration.sql (as `migrate dev --create-only`)
//   apply          apply the pending migrations (as `migrate deploy`)
//   diff           print the SQL that migrations lack against schema.prisma; exit 2 when any
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsArg, command, projectArg, url, name] = process.argv.slice(2);
const tools = resolve(toolsArg);
const project = resolve(projectArg);
const require = createRequire(join(tools, "noop.js"));
const load = (id) => import(pathToFileURL(require.resolve(id)).href);

const pg = (await load("pg")).default;
const { PrismaPg } = await load("@prisma/adapter-pg");
const { bindMigrationAwareSqlAdapterFactory } = await load("@prisma/driver-adapter-utils");
const engineDir = join(tools, "@prisma/schema-engine-wasm");
const bindings = await import(pathToFileURL(join(engineDir, "schema_engine_bg.js")).href);

// The package is built for bundlers (it imports the .wasm file); instantiate it by hand.
const { instance } = await WebAssembly.instantiate(readFileSync(join(engineDir, "schema_engine_bg.wasm")), {
  "./schema_engine_bg.js": bindings,
});
bindings.__wbg_set_wasm(instance.exports);
instance.exports.__wbindgen_start();

// Workaround 1: the adapter cannot map PostgreSQL's internal "char" type (OID 18), which the
// engine's catalogue queries return; report it as text (OID 25).
function patched(queryable) {
  const query = queryable.query.bind(queryable);
  queryable.query = (...args) => {
    if (typeof args.at(-1) === "function") return query(...args); // pg's own callback calls
    return query(...args).then((result) => {
      for (const field of result?.fields ?? []) {
        if (field.dataTypeID === 18) field.dataTypeID = 25;
      }
      return result;
    });
  };
  return queryable;
}

function poolFor(connectionString) {
  const pool = patched(new pg.Pool({ connectionString }));
  const connect = pool.connect.bind(pool);
  pool.connect = (callback) => (callback ? connect(callback) : connect().then(patched));
  return pool;
}

// Workaround 2: PrismaPg.connectToShadowDb() with a URL connects to the main database; give
// the engine a throwaway shadow database instead, dropped at the end.
const shadows = [];
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const main = new PrismaPg(poolFor(url));
const factory = bindMigrationAwareSqlAdapterFactory({
  provider: main.provider,
  adapterName: main.adapterName,
  connect: () => main.connect(),
  async connectToShadowDb() {
    const shadow = `prisma_shadow_${process.pid}_${shadows.length}`;
    await admin.query(`create database ${shadow}`);
    const shadowUrl = new URL(url);
    shadowUrl.pathname = `/${shadow}`;
    const pool = poolFor(shadowUrl.toString());
    // The engine keeps a shadow connection checked out; dropping the database ends it.
    pool.on("error", (error) => {
      if (error.code !== "57P01") throw error;
    });
    shadows.push({ shadow, pool });
    return new PrismaPg(pool).connect();
  },
});

const schemaDir = join(project, "prisma", "schema");
const files = readdirSync(schemaDir)
  .filter((file) => file.endsWith(".prisma"))
  .sort()
  .map((file) => ({ path: join(schemaDir, file), content: readFileSync(join(schemaDir, file), "utf8") }));
const migrationsDir = join(project, "prisma", "migrations");

function migrationsList() {
  mkdirSync(migrationsDir, { recursive: true });
  const directories = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((dir) => ({
      path: dir,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: readFileSync(join(migrationsDir, dir, "migration.sql"), "utf8") },
      },
    }));
  let lockfile = null;
  try {
    lockfile = readFileSync(join(migrationsDir, "migration_lock.toml"), "utf8");
  } catch {}
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: lockfile },
    shadowDbInitScript: "",
    migrationDirectories: directories,
  };
}

const filters = { externalTables: [], externalEnums: [] };
const logs = [];
const engine = await bindings.SchemaEngine.new(
  { datamodels: files.map((file) => [file.path, file.content]) },
  (log) => logs.push(log),
  factory,
);

let exitCode = 0;
try {
  if (command === "create") {
    // Workaround 3: createMigration needs the shadow database that devDiagnostic sets up first,
    // as `migrate dev` does.
    const diagnostic = await engine.devDiagnostic({ migrationsList: migrationsList(), filters });
    if (diagnostic.action.tag !== "createMigration") {
      throw new Error(`migrate dev would ${diagnostic.action.tag}: ${JSON.stringify(diagnostic.action)}`);
    }
    const created = await engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList: migrationsList(),
      schema: { files },
      filters,
    });
    if (created.migrationScript === null) {
      console.log("no changes");
    } else {
      const dir = join(migrationsDir, created.generatedMigrationName);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `migration.${created.extension}`), created.migrationScript);
      writeFileSync(
        join(migrationsDir, "migration_lock.toml"),
        `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${created.connectorType}"\n`,
      );
      console.log(dir);
    }
  } else if (command === "apply") {
    const applied = await engine.applyMigrations({ migrationsList: migrationsList(), filters });
    console.log(JSON.stringify(applied.appliedMigrationNames));
  } else if (command === "diff") {
    const diff = await engine.diff({
      from: { tag: "migrations", ...migrationsList() },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: true,
      filters,
    });
    exitCode = diff.exitCode;
    process.stdout.write(diff.stdout ?? "");
  } else {
    throw new Error(`unknown command ${command}`);
  }
} catch (error) {
  console.error(`schema engine ${command} failed: ${error?.message ?? error}`);
  for (const log of logs.slice(-5)) console.error(log);
  exitCode = 1;
} finally {
  engine.free();
  for (const { shadow, pool } of shadows) {
    pool.end();
    await admin.query(`drop database if exists ${shadow} with (force)`);
  }
  await admin.end();
}
process.exit(exitCode);
