export * from "../../modules/auth/otp.schema.js";
export * from "../../modules/auth/refresh-token.schema.js";
export * from "../../modules/auth/session.schema.js";
export * from "../../modules/users/user.schema.js";
export * from "./relations.js";
