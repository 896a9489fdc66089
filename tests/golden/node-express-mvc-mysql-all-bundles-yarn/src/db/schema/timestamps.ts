import { timestamp } from "drizzle-orm/mysql-core";

/** createdAt and updatedAt, spread into every table; updatedAt is refreshed on every update. */
export const timestamps = {
  createdAt: timestamp("created_at").notNull().defaultNow(),
  updatedAt: timestamp("updated_at").notNull().defaultNow().onUpdateNow(),
};
