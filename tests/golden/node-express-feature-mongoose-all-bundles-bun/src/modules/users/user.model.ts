import mongoose, { type Model, model, Schema } from "mongoose";
import {
  AUTH_PROVIDERS,
  type AuthProvider,
  USER_ROLES,
  type UserRole,
} from "../../shared/constants.js";

export interface IUserAvatar {
  public_id?: string;
  url?: string;
  size?: number;
}

export interface IUser {
  name: string;
  email: string;
  password?: string;
  role: UserRole;
  provider: AuthProvider;
  providerId?: string;
  avatar?: IUserAvatar;
  isEmailVerified: boolean;
  lastLoginAt?: Date;
  failedLoginAttempts: number;
  lockUntil?: Date;
  isDeleted: boolean;
  deletedAt: Date | null;
  reActivateAvailableAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type UserModel = Model<IUser>;

export const userSchema = new Schema<IUser, UserModel>(
  {
    name: {
      type: String,
      required: [true, "Name is required"],
      trim: true,
      maxlength: [100, "Name cannot exceed 100 characters"],
    },
    email: {
      type: String,
      required: [true, "Email is required"],
      lowercase: true,
      trim: true,
      maxlength: [255, "Email cannot exceed 255 characters"],
    },
    password: {
      type: String,
      maxlength: [255, "Password cannot exceed 255 characters"],
      select: false,
    },
    role: {
      type: String,
      enum: { values: USER_ROLES, message: "{VALUE} is not a valid role" },
      required: [true, "Role is required"],
      default: "user",
    },
    provider: {
      type: String,
      enum: { values: AUTH_PROVIDERS, message: "{VALUE} is not a valid provider" },
      required: [true, "Provider is required"],
      default: "local",
    },
    providerId: {
      type: String,
      maxlength: [255, "Provider ID cannot exceed 255 characters"],
    },
    avatar: {
      public_id: { type: String },
      url: { type: String },
      size: { type: Number },
    },
    isEmailVerified: { type: Boolean, default: false },
    lastLoginAt: { type: Date },
    failedLoginAttempts: { type: Number, default: 0 },
    lockUntil: { type: Date },
    isDeleted: { type: Boolean, default: false },
    deletedAt: { type: Date, default: null },
    reActivateAvailableAt: { type: Date, default: null },
  },
  { timestamps: true },
);

userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ role: 1 });
userSchema.index({ isDeleted: 1 });
userSchema.index({ provider: 1, providerId: 1 });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const User =
  (mongoose.models.User as UserModel | undefined) ?? model<IUser, UserModel>("User", userSchema);
