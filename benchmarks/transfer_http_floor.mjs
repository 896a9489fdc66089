// The HTTP floor: the baseline's transfer (transfer_sql.mjs) behind a bare node:http server,
// with no framework, no authentication and no validation, answering transfer_load.mjs as the
// API does (201 completed, 422 refused). It costs what any HTTP API must add to the baseline on
// this machine (the exchange and its JSON on both sides), so its ratio to the baseline bounds
// what a generated API can reach here.
// `node transfer_http_floor.mjs <port> <database url>`; SIGTERM stops it.
import { createServer } from "node:http";
import { openDatabase, transfer } from "./transfer_sql.mjs";

const [port, url] = process.argv.slice(2);
const database = openDatabase(url);

const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) {
    chunks.push(chunk);
  }
  try {
    const { fromAccountId, toAccountId } = JSON.parse(Buffer.concat(chunks).toString());
    const key = `floor-${request.headers["idempotency-key"]}`;
    const completed = await transfer(database, fromAccountId, toAccountId, key);
    response.writeHead(completed ? 201 : 422, { "content-type": "application/json" });
    response.end(JSON.stringify({ completed }));
  } catch (error) {
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify({ message: String(error) }));
  }
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => database.pool.end()));
