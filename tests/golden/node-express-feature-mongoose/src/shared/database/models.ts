export * from "../../modules/auth/otp.model.js";
export * from "../../modules/auth/refresh-token.model.js";
export * from "../../modules/auth/session.model.js";
export * from "../../modules/users/user.model.js";
