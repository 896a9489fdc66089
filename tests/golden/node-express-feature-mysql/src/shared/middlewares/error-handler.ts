import type { ErrorRequestHandler } from "express";
import { HttpError } from "../errors/http-error.js";

/** Status of errors raised by Express itself (a bad JSON body is 400, a big one 413). */
function statusOf(error: unknown): number {
  if (error instanceof HttpError) {
    return error.status;
  }
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 600 ? status : 500;
}

/** Answers every error as JSON; details of server errors stay in the log. */
export const errorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  const status = statusOf(error);
  if (status >= 500) {
    console.error(error);
  }
  const message = status >= 500 ? "Internal Server Error" : (error as Error).message;
  res.status(status).json({ error: { status, message } });
};
