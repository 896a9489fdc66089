import { Router } from "express";
import { health, ready } from "./health.controller.js";

export function healthRoutes(): Router {
  const router = Router();
  router.get("/", health);
  router.get("/ready", ready);
  return router;
}
