import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";

describe("health routes", () => {
  it("GET /health answers 200 with JSON", async () => {
    const response = await request(createApp()).get("/health");
    expect(response.status).toBe(200);
    expect(response.type).toBe("application/json");
    expect(response.body.status).toBe("ok");
  });

  it("GET /health/ready answers 200 (no database to wait for)", async () => {
    const response = await request(createApp()).get("/health/ready");
    expect(response.status).toBe(200);
    expect(response.body.status).toBe("ready");
  });
});

describe("error handling", () => {
  it("answers unknown routes with a JSON 404", async () => {
    const response = await request(createApp()).get("/nowhere");
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual({ status: 404, message: "Route GET /nowhere not found" });
  });

  it("answers a malformed JSON body with a JSON 400", async () => {
    const response = await request(createApp())
      .post("/health")
      .set("content-type", "application/json")
      .send("{not json");
    expect(response.status).toBe(400);
    expect(response.body.error.status).toBe(400);
  });
});
