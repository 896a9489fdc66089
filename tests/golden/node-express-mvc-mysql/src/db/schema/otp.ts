import {
  boolean,
  datetime,
  index,
  int,
  mysqlEnum,
  mysqlTable,
  varchar,
} from "drizzle-orm/mysql-core";
import { OTP_TYPES } from "../../config/constants.js";
import { timestamps } from "./timestamps.js";

export const otps = mysqlTable(
  "otps",
  {
    id: int("id").autoincrement().primaryKey(),
    email: varchar("email", { length: 255 }).notNull(),
    otpHashCode: varchar("otp_hash_code", { length: 255 }).notNull(),
    nextResendAllowedAt: datetime("next_resend_allowed_at").notNull(),
    type: mysqlEnum("type", OTP_TYPES).notNull(),
    expiresAt: datetime("expires_at").notNull(),
    isUsed: boolean("is_used").notNull().default(false),
    usedAt: datetime("used_at"),
    attempts: int("attempts").notNull().default(0),
    maxAttempts: int("max_attempts").notNull().default(5),
    ...timestamps,
  },
  (table) => [
    index("otps_email_type_idx").on(table.email, table.type),
    index("otps_expires_at_idx").on(table.expiresAt),
    index("otps_is_used_idx").on(table.isUsed),
  ],
);
