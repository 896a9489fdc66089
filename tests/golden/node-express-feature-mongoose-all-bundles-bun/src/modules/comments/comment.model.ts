import mongoose, { type Model, model, Schema, type Types } from "mongoose";

export interface IComment {
  post: Types.ObjectId;
  author: Types.ObjectId;
  content: string;
  parentComment: Types.ObjectId | null;
  likes: Types.ObjectId[];
  createdAt: Date;
  updatedAt: Date;
}

export type CommentModel = Model<IComment>;

export const commentSchema = new Schema<IComment, CommentModel>(
  {
    post: { type: Schema.Types.ObjectId, ref: "Post", required: [true, "Post is required"] },
    author: { type: Schema.Types.ObjectId, ref: "User", required: [true, "Author is required"] },
    content: {
      type: String,
      required: [true, "Content is required"],
      trim: true,
      minlength: [1, "Comment cannot be empty"],
      maxlength: [500, "Comment cannot exceed 500 characters"],
    },
    // Set for a reply: the comment it answers.
    parentComment: { type: Schema.Types.ObjectId, ref: "Comment", default: null },
    likes: [{ type: Schema.Types.ObjectId, ref: "User" }],
  },
  { timestamps: true },
);

commentSchema.index({ post: 1, createdAt: -1 });
commentSchema.index({ parentComment: 1 });
commentSchema.index({ author: 1 });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Comment =
  (mongoose.models.Comment as CommentModel | undefined) ??
  model<IComment, CommentModel>("Comment", commentSchema);
