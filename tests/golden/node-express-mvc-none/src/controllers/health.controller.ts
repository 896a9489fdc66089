import type { RequestHandler } from "express";

/** Liveness: the process is up and serving requests. */
export const health: RequestHandler = (_req, res) => {
  res.json({ status: "ok", uptime: process.uptime() });
};

/** Readiness: with no database, a live process is ready. */
export const ready: RequestHandler = (_req, res) => {
  res.json({ status: "ready" });
};
