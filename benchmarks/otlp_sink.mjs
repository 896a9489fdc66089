// A stand-in OpenTelemetry collector for the benchmarks: answers every OTLP/HTTP export with
// success and keeps nothing but counts (GET /received: exports and bytes), so a traced server
// pays for building and sending its spans, and the collector costs next to nothing.
import { createServer } from "node:http";

const port = Number(process.argv[2]);
let exports = 0;
let bytes = 0;
createServer((request, response) => {
  if (request.method === "GET") {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ exports, bytes }));
    return;
  }
  request.on("data", (chunk) => {
    bytes += chunk.length;
  });
  request.on("end", () => {
    exports += 1;
    response.writeHead(200, { "Content-Type": "application/x-protobuf" });
    response.end();
  });
}).listen(port, "127.0.0.1");
