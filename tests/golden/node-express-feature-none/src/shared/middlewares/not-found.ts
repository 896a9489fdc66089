import type { RequestHandler } from "express";

/** JSON 404 for every route that nothing else answered. */
export const notFound: RequestHandler = (req, res) => {
  res.status(404).json({
    error: { status: 404, message: `Route ${req.method} ${req.path} not found` },
  });
};
