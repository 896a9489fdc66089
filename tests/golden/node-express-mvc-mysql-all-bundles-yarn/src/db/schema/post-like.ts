import { index, int, mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
import { posts } from "./post.js";
import { timestamps } from "./timestamps.js";
import { users } from "./user.js";

/** One like of a post by a user: no id, the (userId, postId) pair is the primary key. */
export const postLikes = mysqlTable(
  "post_likes",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    postId: int("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [
    primaryKey({ name: "post_likes_user_id_post_id_pk", columns: [table.userId, table.postId] }),
    index("post_likes_post_id_idx").on(table.postId),
  ],
);
