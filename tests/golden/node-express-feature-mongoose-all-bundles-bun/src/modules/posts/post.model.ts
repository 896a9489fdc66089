import mongoose, { type Model, model, Schema, type Types } from "mongoose";
import { POST_STATUSES, type PostStatus } from "../../shared/constants.js";

export interface IPostImage {
  public_id?: string;
  url?: string;
  size?: number;
}

export interface IPost {
  title: string;
  slug: string;
  content: string;
  excerpt?: string;
  author: Types.ObjectId;
  category?: Types.ObjectId;
  tags: string[];
  featuredImage: IPostImage | null;
  views: number;
  likes: Types.ObjectId[];
  likeCount: number;
  status: PostStatus;
  publishedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type PostModel = Model<IPost>;

const postImageSchema = new Schema<IPostImage>(
  { public_id: { type: String }, url: { type: String }, size: { type: Number } },
  { _id: false },
);

export const postSchema = new Schema<IPost, PostModel>(
  {
    title: { type: String, required: [true, "Title is required"] },
    slug: { type: String, required: [true, "Slug is required"] },
    content: { type: String, required: [true, "Content is required"] },
    excerpt: { type: String },
    author: { type: Schema.Types.ObjectId, ref: "User", required: [true, "Author is required"] },
    category: { type: Schema.Types.ObjectId, ref: "Category" },
    tags: { type: [String], default: [] },
    featuredImage: { type: postImageSchema, default: null },
    views: { type: Number, default: 0 },
    likes: [{ type: Schema.Types.ObjectId, ref: "User" }],
    // Cached length of `likes`.
    likeCount: { type: Number, default: 0 },
    status: {
      type: String,
      enum: { values: POST_STATUSES, message: "{VALUE} is not a valid post status" },
      required: [true, "Post status is required"],
      default: "draft",
    },
    publishedAt: { type: Date },
  },
  { timestamps: true },
);

postSchema.index({ author: 1, slug: 1 }, { unique: true });
postSchema.index({ category: 1 });
postSchema.index({ title: "text", content: "text" });
postSchema.index({ createdAt: -1 });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Post =
  (mongoose.models.Post as PostModel | undefined) ?? model<IPost, PostModel>("Post", postSchema);
