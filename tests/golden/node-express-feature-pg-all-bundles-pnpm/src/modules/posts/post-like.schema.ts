import { index, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { timestamps } from "../../shared/database/timestamps.js";
import { users } from "../users/user.schema.js";
import { posts } from "./post.schema.js";

/** One like of a post by a user: no id, the (userId, postId) pair is the primary key. */
export const postLikes = pgTable(
  "post_likes",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [
    primaryKey({ name: "post_likes_user_id_post_id_pk", columns: [table.userId, table.postId] }),
    index("post_likes_post_id_idx").on(table.postId),
  ],
);
