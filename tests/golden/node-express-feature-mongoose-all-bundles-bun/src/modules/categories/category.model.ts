import mongoose, { type Model, model, Schema } from "mongoose";

export interface ICategory {
  name: string;
  slug: string;
  description?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type CategoryModel = Model<ICategory>;

export const categorySchema = new Schema<ICategory, CategoryModel>(
  {
    name: { type: String, required: [true, "Category name is required"], trim: true },
    slug: { type: String, required: [true, "Slug is required"], trim: true },
    description: { type: String },
  },
  { timestamps: true },
);

categorySchema.index({ name: 1 }, { unique: true });
categorySchema.index({ slug: 1 }, { unique: true });
categorySchema.index({ slug: 1, name: 1 }, { unique: true });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Category =
  (mongoose.models.Category as CategoryModel | undefined) ??
  model<ICategory, CategoryModel>("Category", categorySchema);
