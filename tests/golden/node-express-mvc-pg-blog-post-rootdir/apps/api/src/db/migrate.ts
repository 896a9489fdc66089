import { existsSync } from "node:fs";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

/**
 * `db:migrate`: applies the SQL migrations in ./drizzle (written by `db:generate`) from code, so a
 * failure shows the database's own error message (drizzle-kit migrate hides MariaDB's).
 */
if (existsSync(".env")) {
  process.loadEnvFile(".env");
}

/** The real error text, including what a wrapped or aggregated error carries. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describe).join("; ");
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const own = error.message || code || error.name;
    return error.cause === undefined ? own : `${own}\n  caused by: ${describe(error.cause)}`;
  }
  return String(error);
}

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("db:migrate: DATABASE_URL is not set (in the environment or in .env)");
  process.exit(1);
}

const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000 });

try {
  await migrate(drizzle(pool), { migrationsFolder: "./drizzle" });
  console.log("db:migrate: migrations applied");
} catch (error) {
  console.error(`db:migrate failed: ${describe(error)}`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
