import mongoose, { type Model, model, Schema, type Types } from "mongoose";
import {
  LEDGER_ENTRY_TYPES,
  LEDGER_IMMUTABLE_MESSAGE,
  type LedgerEntryType,
} from "../../shared/constants.js";

export interface ILedger {
  accountId: Types.ObjectId;
  transactionId: Types.ObjectId;
  entryType: LedgerEntryType;
  amount: number;
  createdAt: Date;
  updatedAt: Date;
}

export type LedgerModel = Model<ILedger>;

export const ledgerSchema = new Schema<ILedger, LedgerModel>(
  {
    accountId: {
      type: Schema.Types.ObjectId,
      ref: "Account",
      required: [true, "Account ID is required"],
      immutable: true,
    },
    transactionId: {
      type: Schema.Types.ObjectId,
      ref: "Transaction",
      required: [true, "Transaction ID is required"],
      immutable: true,
    },
    entryType: {
      type: String,
      enum: { values: LEDGER_ENTRY_TYPES, message: "{VALUE} is not a valid entry type" },
      required: [true, "Entry type is required"],
      immutable: true,
    },
    amount: {
      type: Number,
      required: [true, "Amount is required"],
      min: [0.01, "Amount must be positive"],
      immutable: true,
    },
  },
  { timestamps: true },
);

ledgerSchema.index({ accountId: 1, transactionId: 1 });

// A ledger entry never changes after creation: every update, replace or delete fails
// here, before the database is touched.
function rejectLedgerChange(): never {
  throw new Error(LEDGER_IMMUTABLE_MESSAGE);
}

ledgerSchema.pre(
  [
    "findOneAndDelete",
    "findOneAndReplace",
    "findOneAndUpdate",
    "updateMany",
    "deleteMany",
    "replaceOne",
  ],
  rejectLedgerChange,
);
// Both Model.updateOne()/deleteOne() and document.updateOne()/deleteOne().
ledgerSchema.pre(["updateOne", "deleteOne"], { document: true, query: true }, rejectLedgerChange);
ledgerSchema.pre("save", function rejectLedgerResave() {
  if (!this.isNew) {
    rejectLedgerChange();
  }
});
ledgerSchema.pre("bulkWrite", (ops) => {
  if (ops.some((op) => !("insertOne" in op))) {
    rejectLedgerChange();
  }
});

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Ledger =
  (mongoose.models.Ledger as LedgerModel | undefined) ??
  model<ILedger, LedgerModel>("Ledger", ledgerSchema);
