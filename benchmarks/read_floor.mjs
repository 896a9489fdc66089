// The read floor: the statements the generated API sends for GET /api/v1/posts and GET
// /api/v1/auth/me (Drizzle on PostgreSQL, read from the server's statement log), sent with
// plain pg behind a bare node:http server: no framework, no validation, no edge. Its answers
// have the API's shape, so what the API costs beyond it is the framework, the ORM and the edge.
// - /api/v1/posts: one page (20) of published posts, newest first, each with its author's
//   name, its category and its like count, and their count (both queries at once, as the API);
// - /api/v1/auth/me: the access token checked (access_token.mjs), its session active and its
//   user not deleted (one query), then the user's row (one more), as the API's authenticate()
//   and me() do.
// With `express`, `nestjs`, `nextjs` or `nextjs-custom` last, the same answers from two Express
// routes, one NestJS controller or Next.js route handlers (floor_server.mjs; the framework from
// the generated project): what its own routing adds, which no code inside it can remove.
// With `hono`, from Hono on the runtime that runs this file (Bun or Deno run it too). With
// `prisma` after the framework (`bare` for none), the same queries the API sends through
// Prisma, through the project's Prisma Client (prisma_floor.mjs): what Prisma adds; with
// `drizzle`, the API's selects through Drizzle on the project's tables (drizzle_floor.mjs).
// `node read_floor.mjs <port> <database url> <JWT_SECRET> <issuer> [bare|express|nestjs|nextjs|nextjs-custom|hono [prisma|drizzle]]`
// with the generated project as the working directory (its pg). SIGTERM stops it.
import { accessTokenCheck } from "./access_token.mjs";
import { serveFloor } from "./floor_server.mjs";
import * as drizzleFloor from "./drizzle_floor.mjs";
import * as prismaFloor from "./prisma_floor.mjs";
import { openDatabase } from "./transfer_sql.mjs";

const [port, url, jwtSecret, issuer, framework, dataLayer] = process.argv.slice(2);
// A pool of 10, as the API's (pg.Pool's default).
const { pool } = openDatabase(url);
// The data layer's own floor (its client beside the pool): Prisma's or Drizzle's, else plain pg.
const ormFloor = { prisma: prismaFloor, drizzle: drizzleFloor }[dataLayer];
const orm = ormFloor ? await ormFloor.open(url) : null;
const verifiedClaims = accessTokenCheck(jwtSecret, issuer);
const PAGE = 20;

// The API's statements, as Drizzle writes them (the same text: the same plans, the same parse).
const POSTS = `select "posts"."id", "posts"."title", "posts"."slug", "posts"."content", "posts"."excerpt", "posts"."author_id", "posts"."category_id", "posts"."tags", "posts"."featured_image", "posts"."views", "posts"."status", "posts"."published_at", "posts"."created_at", "posts"."updated_at", "users"."name", "categories"."id", "categories"."name", "categories"."slug", (select count(*) from "post_likes" where "post_likes"."post_id" = "posts"."id") from "posts" inner join "users" on "users"."id" = "posts"."author_id" left join "categories" on "categories"."id" = "posts"."category_id" where "posts"."status" = $1 order by "posts"."published_at" desc, "posts"."id" desc limit $2`;
const POST_COUNT = `select count(*) from "posts" left join "categories" on "categories"."id" = "posts"."category_id" where "posts"."status" = $1`;
const SESSION = `select "sessions"."user_id", "users"."role", "users"."is_deleted" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where ("sessions"."id" = $1 and ("sessions"."is_active" = $2 and "sessions"."expires_at" > $3)) limit $4`;
const USER = `select "id", "name", "email", "password", "role", "provider", "provider_id", "avatar", "is_email_verified", "last_login_at", "failed_login_attempts", "lock_until", "is_deleted", "deleted_at", "re_activate_available_at", "created_at", "updated_at" from "users" where "users"."id" = $1 limit $2`;

// Rows as arrays, as Drizzle asks pg for them (the joined columns share names); each statement
// prepared once per connection by its name, so PostgreSQL parses and plans it once: the least
// a read can cost the database.
const rows = async (name, text, values) => (await pool.query({ name, text, values, rowMode: "array" })).rows;
const iso = (date) => date?.toISOString() ?? null;

async function posts() {
  const [page, [[total]]] = await Promise.all([
    rows("posts", POSTS, ["published", PAGE]), // the first page: Drizzle leaves out "offset 0"
    rows("post-count", POST_COUNT, ["published"]),
  ]);
  const data = page.map(
    ([id, title, slug, content, excerpt, authorId, , tags, image, views, status, published, created, updated, authorName, categoryId, categoryName, categorySlug, likes]) => ({
      _id: String(id),
      title,
      slug,
      content: content ?? "",
      excerpt,
      author: { _id: String(authorId), name: authorName },
      category: categoryId === null ? null : { _id: String(categoryId), name: categoryName, slug: categorySlug },
      tags: tags ?? [],
      featuredImage: image,
      views,
      likeCount: Number(likes),
      status,
      publishedAt: iso(published),
      createdAt: iso(created),
      updatedAt: iso(updated),
    }),
  );
  const count = Number(total);
  return [200, { data, pagination: { page: 1, limit: PAGE, total: count, pages: Math.ceil(count / PAGE) } }];
}

async function me(authorization) {
  const claims = verifiedClaims(authorization);
  if (!claims) {
    return [401, { message: "unauthenticated" }];
  }
  const [session] = await rows("session", SESSION, [Number(claims.sid), true, new Date(), 1]);
  if (!session || String(session[0]) !== claims.sub || session[2]) {
    return [401, { message: "the session has ended" }];
  }
  const [user] = await rows("user", USER, [Number(claims.sub), 1]);
  if (!user) {
    return [401, { message: "the session has ended" }];
  }
  const [id, name, email, , role, , , avatar, isEmailVerified] = user;
  return [200, { user: { _id: String(id), name, email, avatar, role, isEmailVerified } }];
}

const throughOrm = orm && ormFloor.reads(orm);

serveFloor(
  framework,
  {
    "GET /api/v1/posts": throughOrm ? throughOrm.posts : posts,
    "GET /api/v1/auth/me": (request) => {
      if (!throughOrm) {
        return me(request.headers.authorization);
      }
      const claims = verifiedClaims(request.headers.authorization);
      return claims ? throughOrm.me(claims) : [401, { message: "unauthenticated" }];
    },
  },
  port,
  async () => {
    await orm?.close();
    await pool.end();
  },
);
