import { Router } from "express";
import { type DatabaseCheck, health, ready } from "./health.controller.js";

export function healthRoutes(checkDatabase: DatabaseCheck): Router {
  const router = Router();
  router.get("/", health);
  router.get("/ready", ready(checkDatabase));
  return router;
}
