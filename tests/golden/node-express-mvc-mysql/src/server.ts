import { createApp } from "./app.js";
import { createDatabase } from "./config/database.js";
import { EnvError, loadDotEnv, loadEnv } from "./config/env.js";

const SHUTDOWN_TIMEOUT_MS = 10_000;

function start(): void {
  loadDotEnv();
  const env = loadEnv();
  const database = createDatabase(env.DATABASE_URL);
  const app = createApp({ checkDatabase: () => database.ping() });

  const server = app.listen(env.PORT, env.HOST, (error?: Error) => {
    if (error) {
      console.error(`Cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`);
      process.exit(1);
    }
    console.log(`Listening on http://${env.HOST}:${env.PORT} (${env.NODE_ENV})`);
  });

  // Graceful shutdown: stop accepting connections, finish requests, then close the database.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`${signal} received, shutting down`);
    setTimeout(() => {
      console.error(`Forced exit after ${SHUTDOWN_TIMEOUT_MS} ms`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    server.close((error) => {
      database.close().finally(() => process.exit(error ? 1 : 0));
    });
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

try {
  start();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
