import { timestamp } from "drizzle-orm/pg-core";

/** createdAt and updatedAt, spread into every table; updatedAt is refreshed on every update. */
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
