import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "../src/shared/config/env.js";

describe("loadEnv", () => {
  it("applies defaults", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe("development");
  });

  it("names a bad value", () => {
    const bad = { PORT: "eighty" };
    expect(() => loadEnv(bad)).toThrow(EnvError);
    expect(() => loadEnv(bad)).toThrow(/PORT/);
  });
});
