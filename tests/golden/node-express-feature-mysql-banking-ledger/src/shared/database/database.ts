import { drizzle } from "drizzle-orm/mysql2";
import mysql from "mysql2/promise";
import * as schema from "./schema.js";

/** A mysql2 connection pool with Drizzle on top; ping() backs GET /health/ready. */
export function createDatabase(url: string) {
  const pool = mysql.createPool({ uri: url, connectTimeout: 2_000 });
  const db = drizzle(pool, { schema, mode: "default" });
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
