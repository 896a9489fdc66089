export * from "../../modules/accounts/account.schema.js";
export * from "../../modules/ledgers/ledger.schema.js";
export * from "./relations.js";
