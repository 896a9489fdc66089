import { Router } from "express";
import type { AppDependencies } from "../app.js";
import { healthRoutes } from "./health/health.routes.js";

/** Every route of the API, mounted under its path. */
export function createRoutes(dependencies: AppDependencies): Router {
  const router = Router();
  router.use("/health", healthRoutes(dependencies.checkDatabase));
  return router;
}
