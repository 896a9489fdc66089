import { boolean, index, integer, pgEnum, pgTable, timestamp, varchar } from "drizzle-orm/pg-core";
import { OTP_TYPES } from "../../config/constants.js";
import { timestamps } from "./timestamps.js";

export const otpTypeEnum = pgEnum("otp_type", OTP_TYPES);

export const otps = pgTable(
  "otps",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    email: varchar("email", { length: 255 }).notNull(),
    otpHashCode: varchar("otp_hash_code", { length: 255 }).notNull(),
    nextResendAllowedAt: timestamp("next_resend_allowed_at", { withTimezone: true }).notNull(),
    type: otpTypeEnum("type").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    isUsed: boolean("is_used").notNull().default(false),
    usedAt: timestamp("used_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    ...timestamps,
  },
  (table) => [
    index("otps_email_type_idx").on(table.email, table.type),
    index("otps_expires_at_idx").on(table.expiresAt),
    index("otps_is_used_idx").on(table.isUsed),
  ],
);
