// The contract's check of an access token at its cheapest, shared by the HTTP floors
// (transfer_http_floor.mjs, read_floor.mjs): the HS256 signature, expiry, issuer and audience,
// checked with node:crypto alone (no JWT library).
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The checker of access tokens signed under `jwtSecret` by the project named `issuer`: a
 * function from an Authorization header to the token's claims, or null when it is not valid.
 */
export function accessTokenCheck(jwtSecret, issuer) {
  // The generated project's access-token key: HMAC-SHA256 of "access" under JWT_SECRET (create-auth.ts).
  const accessKey = createHmac("sha256", jwtSecret).update("access").digest("base64url");
  return (authorization) => {
    const [header, payload, signature] = /^Bearer (.+)$/.exec(authorization ?? "")?.[1].split(".") ?? [];
    if (!signature) {
      return null;
    }
    const expected = createHmac("sha256", accessKey).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return null;
    }
    const { alg } = JSON.parse(Buffer.from(header, "base64url").toString());
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const fresh = alg === "HS256" && claims.iss === issuer && claims.aud === "access";
    return fresh && claims.exp * 1000 > Date.now() ? claims : null;
  };
}
