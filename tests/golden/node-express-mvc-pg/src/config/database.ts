import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "../db/schema/index.js";

/** A pg connection pool with Drizzle on top; ping() backs GET /health/ready. */
export function createDatabase(url: string) {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2_000 });
  // An idle client losing its connection must not crash the process.
  pool.on("error", (error) => console.error("PostgreSQL pool error:", error.message));
  const db = drizzle(pool, { schema });
  return {
    db,
    async ping(): Promise<void> {
      await pool.query("select 1");
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}

export type Database = ReturnType<typeof createDatabase>;
