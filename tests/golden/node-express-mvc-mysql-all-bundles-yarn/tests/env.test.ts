import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "../src/config/env.js";

describe("loadEnv", () => {
  it("applies defaults", () => {
    const env = loadEnv({ DATABASE_URL: "mysql://root@localhost:3306/app" });
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe("development");
  });

  it("names a bad value", () => {
    const bad = { PORT: "eighty", DATABASE_URL: "mysql://root@localhost:3306/app" };
    expect(() => loadEnv(bad)).toThrow(EnvError);
    expect(() => loadEnv(bad)).toThrow(/PORT/);
  });

  it("names a missing DATABASE_URL", () => {
    expect(() => loadEnv({})).toThrow(/DATABASE_URL/);
  });

  it("rejects a URL for another database", () => {
    expect(() => loadEnv({ DATABASE_URL: "redis://localhost:6379" })).toThrow(/DATABASE_URL/);
  });
});
