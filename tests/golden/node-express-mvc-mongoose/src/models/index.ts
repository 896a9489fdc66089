export * from "./otp.model.js";
export * from "./refresh-token.model.js";
export * from "./session.model.js";
export * from "./user.model.js";
