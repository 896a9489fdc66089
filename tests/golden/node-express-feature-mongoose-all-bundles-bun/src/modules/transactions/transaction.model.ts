import mongoose, { type Model, model, Schema, type Types } from "mongoose";
import { TRANSACTION_STATUSES, type TransactionStatus } from "../../shared/constants.js";

export interface ITransaction {
  fromAccountId: Types.ObjectId;
  toAccountId: Types.ObjectId;
  amount: number;
  status: TransactionStatus;
  idempotencyKey: string;
  createdAt: Date;
  updatedAt: Date;
}

export type TransactionModel = Model<ITransaction>;

export const transactionSchema = new Schema<ITransaction, TransactionModel>(
  {
    fromAccountId: {
      type: Schema.Types.ObjectId,
      ref: "Account",
      required: [true, "Source account is required"],
    },
    toAccountId: {
      type: Schema.Types.ObjectId,
      ref: "Account",
      required: [true, "Destination account is required"],
      validate: {
        // `this` is the document, or the query in update validators (then the update's value).
        validator(value: Types.ObjectId): boolean {
          const from: unknown = this.get("fromAccountId");
          return from == null || String(from) !== String(value);
        },
        message: "Source and destination accounts must differ",
      },
    },
    amount: {
      type: Number,
      required: [true, "Amount is required"],
      min: [0.01, "Amount must be positive"],
    },
    status: {
      type: String,
      enum: { values: TRANSACTION_STATUSES, message: "{VALUE} is not a valid transaction status" },
      required: [true, "Transaction status is required"],
      default: "pending",
    },
    idempotencyKey: {
      type: String,
      required: [true, "Idempotency key is required"],
      maxlength: [255, "Idempotency key cannot exceed 255 characters"],
    },
  },
  { timestamps: true },
);

transactionSchema.index({ fromAccountId: 1 });
transactionSchema.index({ toAccountId: 1 });
transactionSchema.index({ status: 1 });
transactionSchema.index({ idempotencyKey: 1 }, { unique: true });
transactionSchema.index({ fromAccountId: 1, toAccountId: 1 });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Transaction =
  (mongoose.models.Transaction as TransactionModel | undefined) ??
  model<ITransaction, TransactionModel>("Transaction", transactionSchema);
