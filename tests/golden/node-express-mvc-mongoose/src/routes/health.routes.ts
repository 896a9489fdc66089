import { Router } from "express";
import { type DatabaseCheck, health, ready } from "../controllers/health.controller.js";

export function healthRoutes(checkDatabase: DatabaseCheck): Router {
  const router = Router();
  router.get("/", health);
  router.get("/ready", ready(checkDatabase));
  return router;
}
