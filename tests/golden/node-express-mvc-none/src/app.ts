import express, { type Express } from "express";
import { errorHandler } from "./middlewares/error-handler.js";
import { notFound } from "./middlewares/not-found.js";
import { createRoutes } from "./routes/index.js";

export function createApp(): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ limit: "1mb" }));
  app.use(createRoutes());
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
