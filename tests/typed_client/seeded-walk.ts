// A front end's first minutes against a seeded project, through its typed client alone
// (tests/test_stacks.py copies this file into the project's tests folder, type-checks it with
// the project's own settings and runs it on the project's runtime): Ada signs in with the seed's
// password, finds her funded accounts, moves money between them with an idempotency key, and
// reads the blog's published posts. Any surprise throws (a non-zero exit).
import process from "node:process";
import { createApiClient } from "CLIENT";

const client = createApiClient({ baseUrl: process.env.WALK_BASE_URL ?? "" });

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
}

const signIn = await client.signIn({
  email: "ada@example.com",
  password: process.env.SEED_PASSWORD ?? "",
});
if (signIn.outcome !== "signedIn") {
  throw new Error(`sign-in: ${signIn.outcome === "refused" ? signIn.error.code : "a second step"}`);
}
// 1000.00 each from the seed's deposits; 125.50 to Grace, 40.00 from her, 200.00 savings to current.
const accounts = (await client.api.GET("/api/v1/accounts")).data?.data ?? [];
const byType = Object.fromEntries(accounts.map((account) => [account.type, account]));
expectEqual("balances", [byType.current?.balance, byType.savings?.balance], ["1200.00", "714.50"]);

const transfer = await client.api.POST("/api/v1/transfers", {
  body: { fromAccountId: byType.savings?._id ?? "", toAccountId: byType.current?._id ?? "", amount: "14.50" },
  params: { header: { "Idempotency-Key": `walk-${Date.now()}` } },
});
expectEqual("transfer", [transfer.response.status, transfer.data?.status], [201, "completed"]);
const savings = await client.api.GET("/api/v1/accounts/{id}", {
  params: { path: { id: byType.savings?._id ?? "" } },
});
expectEqual("savings after", savings.data?.balance, "700.00");

// The seed's categories: each has one published post (History's draft stays hidden).
const titles: string[] = [];
for (const category of ["history", "engineering"]) {
  const page = await client.api.GET("/api/v1/posts", { params: { query: { category } } });
  titles.push(...(page.data?.data ?? []).map((post) => post.title));
}
expectEqual("posts", titles, ["Notes on the Analytical Engine", "The first actual bug"]);
console.log(`walk: ${signIn.session.user.name} moved 14.50 and read ${titles.length} posts`);
