import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";

const up = { checkDatabase: async () => {} };
const down = {
  checkDatabase: async () => {
    throw new Error("connect ECONNREFUSED");
  },
};

describe("health routes", () => {
  it("GET /health answers 200 with JSON", async () => {
    const response = await request(createApp(up)).get("/health");
    expect(response.status).toBe(200);
    expect(response.type).toBe("application/json");
    expect(response.body.status).toBe("ok");
  });

  it("GET /health/ready answers 200 when the database is up", async () => {
    const response = await request(createApp(up)).get("/health/ready");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "ready", database: "up" });
  });

  it("GET /health/ready answers 503 when the database is down", async () => {
    const response = await request(createApp(down)).get("/health/ready");
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ status: "unavailable", database: "down" });
  });
});

describe("error handling", () => {
  it("answers unknown routes with a JSON 404", async () => {
    const response = await request(createApp(up)).get("/nowhere");
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual({ status: 404, message: "Route GET /nowhere not found" });
  });

  it("answers a malformed JSON body with a JSON 400", async () => {
    const response = await request(createApp(up))
      .post("/health")
      .set("content-type", "application/json")
      .send("{not json");
    expect(response.status).toBe(400);
    expect(response.body.error.status).toBe(400);
  });
});
