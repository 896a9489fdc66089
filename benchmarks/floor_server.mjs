// The HTTP server of the floors (transfer_http_floor.mjs, read_floor.mjs): routes in, a server
// out, bare node:http or Express. Each route answers [status, body] from the request and its
// JSON body (read only for POST); unknown paths get 404.
// - bare: node:http alone; the path matched by hand, a POST's body read and parsed by hand;
// - express: the same routes in Express (from the generated project's folder), the body read by
//   express.json(): what Express's own routing and body parsing add, which no code inside it
//   can remove;
// - nestjs: the same routes as one NestJS controller (Nest from the generated project's folder,
//   on its Express platform, with its own body parser), written as Nest's documentation writes
//   one (@Controller, @Post/@Get, @Req, @Body, @Res with passthrough for the status): what Nest
//   itself adds.
// - nextjs: the same routes as Next.js route handlers (next_floor/, built by the benchmark into
//   the generated project's `next-floor` folder), served as `next start` serves them (its own
//   code, in this process); nextjs-custom: the same app under a custom server (`next()` and its
//   request handler on node:http), as the generated project serves it, without its edge.
// - hono: the same routes in Hono (from the generated project's folder), served by the runtime
//   that runs this file as Hono's documentation serves it there (Bun.serve or Deno.serve with
//   app.fetch; on Node, @hono/node-server): what Hono adds, on the runtime's own server.
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

async function nestServer(routes) {
  const load = createRequire(`${process.cwd()}/package.json`);
  load("reflect-metadata");
  const { Body, Controller, Get, Module, Post, Req, Res } = load("@nestjs/common");
  const { NestFactory } = load("@nestjs/core");
  // The decorators applied as TypeScript applies them: a .mjs file has no decorator syntax.
  class FloorController {}
  const prototype = FloorController.prototype;
  for (const [index, [route, handle]] of Object.entries(routes).entries()) {
    const [method, path] = route.split(" ");
    const name = `route${index}`;
    prototype[name] = async (request, body, response) => {
      const [status, answer] = await handle(request, body);
      response.status(status);
      return answer;
    };
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    (method === "POST" ? Post : Get)(path)(prototype, name, descriptor);
    Req()(prototype, name, 0);
    Body()(prototype, name, 1);
    Res({ passthrough: true })(prototype, name, 2);
  }
  Controller()(FloorController);
  class FloorModule {}
  Module({ controllers: [FloorController] })(FloorModule);
  const app = await NestFactory.create(FloorModule, { logger: false });
  app.getHttpAdapter().getInstance().set("etag", false);
  await app.init();
  return app.getHttpServer();
}

/** The built Next.js floor app (next_floor/) of the generated project's folder, its routes
 * those of this process. */
function nextFloor(routes) {
  globalThis.floorRoutes = routes;
  process.env.NODE_ENV = "production";
  const dir = `${process.cwd()}/next-floor`;
  return { dir, load: createRequire(`${dir}/package.json`) };
}

async function nextCustomServer(routes) {
  const { dir, load } = nextFloor(routes);
  const module = load("next");
  const app = (module.default ?? module)({ dir, dev: false, hostname: "127.0.0.1" });
  await app.prepare();
  return createServer(app.getRequestHandler());
}

/** What `next start` runs, in this process: it makes and listens on its own server. */
async function nextStart(routes, port, closed) {
  const { dir, load } = nextFloor(routes);
  const { nextStart: start } = load("next/dist/cli/next-start");
  await start({ port: Number(port), hostname: "127.0.0.1", keepAliveTimeout: 60_000 }, dir);
  console.log("listening");
  process.on("SIGTERM", () => closed().finally(() => process.exit(0)));
}

/** Hono's app on this runtime's own server (Bun.serve, Deno.serve, or @hono/node-server's). */
async function honoServe(routes, port, closed) {
  const load = createRequire(`${process.cwd()}/package.json`);
  const { Hono } = load("hono");
  const app = new Hono();
  for (const [route, handle] of Object.entries(routes)) {
    const [method, path] = route.split(" ");
    app.on(method, path, async (c) => {
      const body = method === "POST" ? await c.req.json() : null;
      // The routes read request.headers[name], as node:http gives them.
      const headers = { authorization: c.req.header("authorization"), "idempotency-key": c.req.header("idempotency-key") };
      const [status, answer] = await handle({ headers }, body);
      return c.json(answer, status);
    });
  }
  const hostname = "127.0.0.1";
  let server;
  if (globalThis.Bun) {
    server = Bun.serve({ fetch: app.fetch, port: Number(port), hostname });
  } else if (globalThis.Deno) {
    server = Deno.serve({ port: Number(port), hostname, onListen: () => {} }, app.fetch);
  } else {
    server = load("@hono/node-server").serve({ fetch: app.fetch, port: Number(port), hostname });
  }
  console.log("listening");
  process.on("SIGTERM", async () => {
    await (server.stop?.() ?? server.shutdown?.() ?? new Promise((done) => server.close(done)));
    await closed();
    process.exit(0);
  });
}

const SERVERS = { express: expressServer, nestjs: nestServer, "nextjs-custom": nextCustomServer };

/** Serves `routes` on 127.0.0.1:`port` (`framework`: "express", "nestjs", "nextjs",
 * "nextjs-custom", "hono", or anything else for bare); prints "listening" once it does; SIGTERM closes
 * it, then calls `closed`. */
export async function serveFloor(framework, routes, port, closed) {
  if (framework === "nextjs") {
    return nextStart(routes, port, closed);
  }
  if (framework === "hono") {
    return honoServe(routes, port, closed);
  }
  const server = await (SERVERS[framework] ?? bareServer)(routes);
  server.keepAliveTimeout = 60_000;
  server.listen(Number(port), "127.0.0.1", () => console.log("listening"));
  process.on("SIGTERM", () => server.close(closed));
}
