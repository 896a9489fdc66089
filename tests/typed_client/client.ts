// A client of the API typed from its OpenAPI document alone (tests/test_stacks.py writes
// schema.d.ts beside it with openapi-typescript): it signs in and lists posts, and what the
// document forbids does not type-check.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1:3000" });

export async function signInAndListPosts(
  email: string,
  password: string,
  totp: string,
): Promise<string[]> {
  const signedIn = await api.POST("/api/v1/auth/sign-in", { body: { email, password } });
  if (signedIn.error) {
    const code: string = signedIn.error.error.code;
    throw new Error(code);
  }
  let session = signedIn.data;
  if ("mfaRequired" in session) {
    // A user with a second factor: a code of their authenticator app finishes the sign-in.
    const { mfaToken } = session;
    const verified = await api.POST("/api/v1/auth/mfa/verify", { body: { mfaToken, totp } });
    if (verified.error) {
      throw new Error(verified.error.error.code);
    }
    session = verified.data;
  }
  const token: string = session.accessToken;
  const role: "user" | "admin" = session.user.role;
  const posts = await api.GET("/api/v1/posts", {
    params: { query: { page: 1, limit: 10, tag: "news" } },
    headers: { authorization: `Bearer ${token}` },
  });
  const titles: string[] = posts.data?.data.map((post) => post.title) ?? [];
  const pages: number | undefined = posts.data?.pagination.pages;
  console.log(role, pages);
  return titles;
}

export async function whatTheDocumentRefuses(): Promise<void> {
  // @ts-expect-error the sign-in body needs a password
  await api.POST("/api/v1/auth/sign-in", { body: { email: "a@b.co" } });
  const answer = await api.POST("/api/v1/auth/sign-in", { body: { email: "a@b.co", password: "x" } });
  // @ts-expect-error a sign-in may answer with the second step instead of tokens
  answer.data?.accessToken;
  // @ts-expect-error the second step needs its token
  await api.POST("/api/v1/auth/mfa/verify", { body: { totp: "123456" } });
  const posts = await api.GET("/api/v1/posts");
  // @ts-expect-error a field a post does not have
  posts.data?.data[0]?.passwordHash;
  // @ts-expect-error a path the API does not have
  await api.GET("/api/v1/nowhere");
}
