// The HTTP server of the floors (transfer_http_floor.mjs, read_floor.mjs): routes in, a server
// out, bare node:http or Express. Each route answers [status, body] from the request and its
// JSON body (read only for POST); unknown paths get 404.
// - bare: node:http alone; the path matched by hand, a POST's body read and parsed by hand;
// - express: the same routes in Express (from the generated project's folder), the body read by
//   express.json(): what Express's own routing and body parsing add, which no code inside it
//   can remove.
import { createServer } from "node:http";
import { createRequire } from "node:module";

async function jsonOf(request) {
  const chunks = [];
  for await (const chunk of request) {
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString());
}

function bareServer(routes) {
  return createServer(async (request, response) => {
    const route = routes[`${request.method} ${request.url.split("?", 1)[0]}`];
    const answer = async () => (route ? route(request, request.method === "POST" ? await jsonOf(request) : null) : [404, { message: "not found" }]);
    const [status, body] = await answer().catch((error) => [500, { message: String(error) }]);
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
}

function expressServer(routes) {
  const express = createRequire(`${process.cwd()}/package.json`)("express");
  const app = express();
  app.set("etag", false);
  app.use(express.json({ limit: "1mb" }));
  for (const [route, handle] of Object.entries(routes)) {
    const [method, path] = route.split(" ");
    app[method.toLowerCase()](path, async (request, response) => {
      const [status, body] = await handle(request, request.body);
      response.status(status).json(body);
    });
  }
  return createServer(app);
}

/** Serves `routes` on 127.0.0.1:`port` (`framework`: "express", or anything else for bare);
 * prints "listening" once it does; SIGTERM closes it, then calls `closed`. */
export function serveFloor(framework, routes, port, closed) {
  const server = framework === "express" ? expressServer(routes) : bareServer(routes);
  server.keepAliveTimeout = 60_000;
  server.listen(Number(port), "127.0.0.1", () => console.log("listening"));
  process.on("SIGTERM", () => server.close(closed));
}
