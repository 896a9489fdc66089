import express, { type Express } from "express";
import { createRoutes } from "./modules/index.js";
import { errorHandler } from "./shared/middlewares/error-handler.js";
import { notFound } from "./shared/middlewares/not-found.js";

export function createApp(): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ limit: "1mb" }));
  app.use(createRoutes());
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
