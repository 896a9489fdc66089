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
// `node transfer_http_floor.mjs <port> <database url> [<JWT_SECRET> <issuer> [express|nestjs|nextjs|nextjs-custom]]`;
// the secret and issuer (the project's name) make it the authenticated floor, `express` or
// `nestjs` that framework's floor (the framework from the generated project's folder). SIGTERM stops it. Bun and Deno (`deno
// run -A`) run it too: the runtime's own floor on their pairings.
import { accessTokenCheck } from "./access_token.mjs";
import { serveFloor } from "./floor_server.mjs";
import { openDatabase, transfer } from "./transfer_sql.mjs";

const [port, url, jwtSecret, issuer, framework] = process.argv.slice(2);
const database = openDatabase(url);
const verifiedClaims = jwtSecret ? accessTokenCheck(jwtSecret, issuer) : null;

async function sessionIsActive(claims) {
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

serveFloor(framework, { "POST /api/v1/transfers": answer }, port, () => database.pool.end());
