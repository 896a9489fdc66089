import { index, int, mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
import { comments } from "./comment.js";
import { timestamps } from "./timestamps.js";
import { users } from "./user.js";

/** One like of a comment by a user: no id, the (userId, commentId) pair is the primary key. */
export const commentLikes = mysqlTable(
  "comment_likes",
  {
    userId: int("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    commentId: int("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [
    primaryKey({
      name: "comment_likes_user_id_comment_id_pk",
      columns: [table.userId, table.commentId],
    }),
    index("comment_likes_comment_id_idx").on(table.commentId),
  ],
);
