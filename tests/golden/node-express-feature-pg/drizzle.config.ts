import { defineConfig } from "drizzle-kit";

// drizzle-kit reads DATABASE_URL from the environment or from .env.
if (!process.env.DATABASE_URL) {
  try {
    process.loadEnvFile(".env");
  } catch {
    // No .env: `db:generate` needs no database; `push`/`studio` will report the missing URL.
  }
}

export default defineConfig({
  out: "./drizzle",
  schema: "./src/shared/database/schema.ts",
  dialect: "postgresql",
  dbCredentials: {
    url: process.env.DATABASE_URL ?? "",
  },
  verbose: true,
  strict: true,
});
