import { Router } from "express";
import { healthRoutes } from "./health/health.routes.js";

/** Every route of the API, mounted under its path. */
export function createRoutes(): Router {
  const router = Router();
  router.use("/health", healthRoutes());
  return router;
}
