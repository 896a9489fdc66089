import express, { type Express } from "express";
import type { DatabaseCheck } from "./controllers/health.controller.js";
import { errorHandler } from "./middlewares/error-handler.js";
import { notFound } from "./middlewares/not-found.js";
import { createRoutes } from "./routes/index.js";

/** What the app needs from outside; tests pass their own. */
export interface AppDependencies {
  checkDatabase: DatabaseCheck;
}

export function createApp(dependencies: AppDependencies): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ limit: "1mb" }));
  app.use(createRoutes(dependencies));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
