/** Authentication constants of the spec; durations are in milliseconds. */
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOCK_TIME_MS = 24 * 60 * 60 * 1000;
export const ACCESS_TOKEN_EXPIRY = 15 * 60 * 1000;
export const REFRESH_TOKEN_EXPIRY = 7 * 24 * 60 * 60 * 1000;
export const RESET_PASSWORD_TOKEN_EXPIRY = 5 * 60 * 1000;
export const REACTIVATION_AVAILABLE_AT = 24 * 60 * 60 * 1000;
export const OTP_CODE_LENGTH = 6;
export const OTP_EXPIRES_IN = 5 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const NEXT_OTP_DELAY = 60 * 1000;

/** How long auth records live, counted from creation (seconds, for TTL indexes). */
export const SESSION_TTL_SECONDS = REFRESH_TOKEN_EXPIRY / 1000;
export const REFRESH_TOKEN_TTL_SECONDS = REFRESH_TOKEN_EXPIRY / 1000;
export const OTP_TTL_SECONDS = OTP_EXPIRES_IN / 1000;

export const USER_ROLES = ["user", "admin"] as const;
export const AUTH_PROVIDERS = ["local", "google", "github"] as const;
export const OTP_TYPES = [
  "signin",
  "email-verification",
  "password-reset",
  "password-change",
] as const;
export const ACCOUNT_TYPES = ["savings", "current"] as const;
export const CURRENCIES = ["NPR", "INR", "USD"] as const;
export const ACCOUNT_STATUSES = ["active", "frozen", "closed"] as const;
export const TRANSACTION_STATUSES = ["pending", "completed", "failed", "reversed"] as const;
export const LEDGER_ENTRY_TYPES = ["debit", "credit"] as const;
export const POST_STATUSES = ["draft", "published", "archived"] as const;

/** The error every attempt to change or delete a ledger entry fails with. */
export const LEDGER_IMMUTABLE_MESSAGE = "Ledger entries are immutable: a ledger cannot be updated";

export type UserRole = (typeof USER_ROLES)[number];
export type AuthProvider = (typeof AUTH_PROVIDERS)[number];
export type OtpType = (typeof OTP_TYPES)[number];
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export type Currency = (typeof CURRENCIES)[number];
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];
export type PostStatus = (typeof POST_STATUSES)[number];
