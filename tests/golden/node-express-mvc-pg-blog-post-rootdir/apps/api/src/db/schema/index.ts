export * from "./post.js";
export * from "./relations.js";
