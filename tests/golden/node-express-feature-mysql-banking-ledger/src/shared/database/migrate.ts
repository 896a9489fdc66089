import { existsSync } from "node:fs";
import { drizzle } from "drizzle-orm/mysql2";
import { migrate } from "drizzle-orm/mysql2/migrator";
import mysql from "mysql2/promise";
import { LEDGER_IMMUTABLE_MESSAGE } from "../constants.js";

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

const pool = mysql.createPool({ uri: url, connectTimeout: 5_000 });

/** Ledger entries are immutable: every UPDATE or DELETE on ledgers signals this error. */
const ledgerTriggers = ["update", "delete"].flatMap((event) => [
  `DROP TRIGGER IF EXISTS ledgers_before_${event}`,
  mysql.format(
    `CREATE TRIGGER ledgers_before_${event} BEFORE ${event.toUpperCase()} ON ledgers
FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = ?`,
    [LEDGER_IMMUTABLE_MESSAGE],
  ),
]);

try {
  await migrate(drizzle(pool), { migrationsFolder: "./drizzle" });
  for (const statement of ledgerTriggers) {
    await pool.query(statement);
  }
  console.log("db:migrate: migrations applied");
} catch (error) {
  console.error(`db:migrate failed: ${describe(error)}`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
