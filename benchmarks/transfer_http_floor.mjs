// The HTTP floors: the baseline's transfer (transfer_sql.mjs) behind a bare node:http server,
// with no framework and no validation, answering transfer_load.mjs as the API does (201
// completed, 422 refused, 401 unauthenticated). They cost what any HTTP API must add to the
// baseline on this machine, so their ratios to the baseline bound what a generated API can
// reach here:
// - bare: the exchange and its JSON on both sides, nothing else;
// - authenticated: also what the contract asks of every signed-in request, at its cheapest:
//   the access token's HS256 signature, expiry, issuer and audience checked with node:crypto
//   (access_token.mjs, which read_floor.mjs shares), and one query that its session is active
//   and its user not deleted (sign-out and a password change take effect at once, so no cache
//   may stand in for that query).
// - Express: the authenticated floor's work in one Express route (express.json() reads the
//   body): what Express's own routing and body parsing add, which no code inside it can remove;
// - NestJS: the same work in one NestJS controller (floor_server.mjs): what Nest adds;
// - Next.js: the same work in a Next.js route handler, under `next start` or a custom server.
// - Hono: the same work in one Hono route, on the server of the runtime that runs this file.
// - Prisma: any of these with the session's query and the transfer through the project's Prisma
//   Client (prisma_floor.mjs): what Prisma adds, on Prisma pairings.
// - Drizzle: the same through Drizzle on the project's tables (drizzle_floor.mjs): what Drizzle
//   adds, on Drizzle pairings.
// `node transfer_http_floor.mjs <port> <database url> [<JWT_SECRET> <issuer> [bare|express|nestjs|nextjs|nextjs-custom|hono [prisma|drizzle]]]`;
// the secret and issuer (the project's name) make it the authenticated floor, a framework
// that framework's floor (from the generated project's folder), `prisma` or `drizzle` last that
// data layer's. SIGTERM stops it. Bun and Deno (`deno run -A`) run it too: the runtime's own
// floor on their pairings.
import { accessTokenCheck } from "./access_token.mjs";
import { serveFloor } from "./floor_server.mjs";
import * as drizzleFloor from "./drizzle_floor.mjs";
import * as prismaFloor from "./prisma_floor.mjs";
import * as sqlFloor from "./transfer_sql.mjs";

const [port, url, jwtSecret, issuer, framework, dataLayer] = process.argv.slice(2);
// The data layer's own floor (Prisma's or Drizzle's), else plain SQL.
const ormFloor = { prisma: prismaFloor, drizzle: drizzleFloor }[dataLayer];
const database = ormFloor ? await ormFloor.open(url) : sqlFloor.openDatabase(url);
const transfer = ormFloor ? ormFloor.transfer : sqlFloor.transfer;
const sessionIsActive = ormFloor ? (claims) => ormFloor.sessionIsActive(database, claims) : sessionIsActiveInSql;
const verifiedClaims = jwtSecret ? accessTokenCheck(jwtSecret, issuer) : null;

async function sessionIsActiveInSql(claims) {
  const { mysql, pool } = database;
  const text = `select u.role from sessions s join users u on u.id = s.user_id where s.id = ${mysql ? "?" : "$1"} and s.user_id = ${mysql ? "?" : "$2"} and s.is_active and s.expires_at > ${mysql ? "?" : "$3"} and not u.is_deleted`;
  const values = [Number(claims.sid), Number(claims.sub), new Date()];
  // Prepared once per connection, as transfer_sql.mjs's statements.
  const rows = mysql ? (await pool.execute(text, values))[0] : (await pool.query({ name: "session", text, values })).rows;
  return rows.length === 1;
}

/** The transfer's answer: [status, body], from the request and its parsed JSON body. */
async function answer(request, body) {
  if (verifiedClaims) {
    const claims = verifiedClaims(request.headers.authorization);
    if (!claims || !(await sessionIsActive(claims))) {
      return [401, { message: "unauthenticated" }];
    }
  }
  const { fromAccountId, toAccountId } = body;
  const key = `floor-${request.headers["idempotency-key"]}`;
  const completed = await transfer(database, fromAccountId, toAccountId, key);
  return [completed ? 201 : 422, { completed }];
}

serveFloor(framework, { "POST /api/v1/transfers": answer }, port, () => (ormFloor ? database.close() : database.pool.end()));
