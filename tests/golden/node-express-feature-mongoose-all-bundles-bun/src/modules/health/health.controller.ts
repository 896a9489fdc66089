import type { RequestHandler } from "express";

/** Resolves when the database answers, rejects when it does not. */
export type DatabaseCheck = () => Promise<void>;

/** Liveness: the process is up and serving requests. */
export const health: RequestHandler = (_req, res) => {
  res.json({ status: "ok", uptime: process.uptime() });
};

/** Readiness: 200 when the database answers, 503 when it does not. */
export function ready(checkDatabase: DatabaseCheck): RequestHandler {
  return async (_req, res) => {
    try {
      await checkDatabase();
      res.json({ status: "ready", database: "up" });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      res.status(503).json({ status: "unavailable", database: "down", reason });
    }
  };
}
