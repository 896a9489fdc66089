export * from "./otp.js";
export * from "./refresh-token.js";
export * from "./relations.js";
export * from "./session.js";
export * from "./user.js";
