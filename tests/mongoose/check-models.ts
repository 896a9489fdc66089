/**
 * Inspects the generated Mongoose models without a MongoDB server and prints one JSON report.
 *
 * Run in a generated project: tsx check-models.ts '<{"user": "src/models/user.model.ts", ...}>'
 * tests/test_mongoose_models.py holds the expected values (from the spec) and asserts on it.
 */
import { pathToFileURL } from "node:url";
import mongoose from "mongoose";

// No server: any operation that reaches the driver fails at once instead of waiting.
mongoose.set("bufferCommands", false);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
// biome-ignore lint/suspicious/noExplicitAny: introspection of arbitrary models
type Any = any;

const NAMES: Record<string, string> = {
  user: "User",
  session: "Session",
  "refresh-token": "RefreshToken",
  otp: "Otp",
  account: "Account",
  transaction: "Transaction",
  ledger: "Ledger",
  category: "Category",
  post: "Post",
  comment: "Comment",
};

function plain(value: unknown): Json {
  if (value === undefined) return null;
  if (typeof value === "function") return `fn:${value.name}`;
  if (value instanceof Date) return "Date";
  if (value instanceof mongoose.Types.ObjectId) return "ObjectId";
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") {
    if (value instanceof mongoose.Schema) return "Schema";
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value as Json;
}

/** Path -> {kind, message} of a validation (validate(), not the deprecated validateSync()). */
async function errorsOf(doc: Any, paths?: string[]): Promise<Record<string, Json>> {
  try {
    await doc.validate(paths);
    return {};
  } catch (error) {
    return errors(error);
  }
}

function errors(error: Any): Record<string, Json> {
  if (!error?.errors) throw error;
  return Object.fromEntries(
    Object.entries(error.errors as Record<string, Any>).map(([path, e]) => [
      path,
      { kind: e.kind, message: e.message },
    ]),
  );
}

async function outcome(action: () => unknown): Promise<string> {
  try {
    await action();
    return "resolved";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function optionValue(option: unknown): unknown {
  return Array.isArray(option) ? option[0] : option;
}

async function inspect(key: string, file: string): Promise<Record<string, Json>> {
  const name = NAMES[key] as string;
  const url = pathToFileURL(file).href;
  const mod: Any = await import(url);
  const Model: Any = mod[name];
  const schemaExport = `${name[0]?.toLowerCase()}${name.slice(1)}Schema`;
  // Evaluating the module again must reuse the compiled model, not throw OverwriteModelError.
  const again: Any = await import(`${url}?again`);
  const schema = Model.schema;

  const paths: Record<string, Json> = {};
  schema.eachPath((path: string, type: Any) => {
    if (path === "_id" || path === "__v") return;
    const { type: _t, validate, ...options } = type.options;
    const entry: Record<string, Json> = { instance: type.instance, ...(plain(options) as object) };
    if (validate) entry.validate = true;
    const itemRef = type.caster?.options?.ref ?? type.embeddedSchemaType?.options?.ref;
    if (itemRef) entry.itemRef = itemRef;
    paths[path] = entry;
  });

  // Values that break each enum, maxlength, minlength and min rule.
  const invalid: Record<string, unknown> = {};
  const spaced: Record<string, unknown> = {};
  schema.eachPath((path: string, type: Any) => {
    const o = type.options;
    if (o.enum) invalid[path] = "not-a-valid-value";
    else if (o.maxlength) invalid[path] = "x".repeat(Number(optionValue(o.maxlength)) + 1);
    else if (o.min !== undefined) invalid[path] = Number(optionValue(o.min)) / 2;
    if (o.trim || o.lowercase) spaced[path] = "  MiXeD.Case@Example.COM  ";
  });
  const spacedDoc = new Model(spaced);

  const report: Record<string, Json> = {
    modelName: Model.modelName,
    collection: Model.collection.collectionName,
    schemaExported: mod[schemaExport] === schema,
    reusedOnReload: again[name] === Model,
    registered: mongoose.models[name] === Model,
    timestamps: plain(schema.options.timestamps),
    paths,
    indexes: plain(schema.indexes()),
    emptyErrors: await errorsOf(new Model({})),
    invalidErrors: await errorsOf(new Model(invalid)),
    defaults: plain(new Model({}).toObject({ depopulate: true, minimize: false })),
    normalized: Object.fromEntries(Object.keys(spaced).map((p) => [p, spacedDoc.get(p)])),
  };

  if (key === "comment") {
    report.blankComment = await errorsOf(new Model({ content: "   " }), ["content"]);
    report.comment500 = await errorsOf(new Model({ content: "y".repeat(500) }), ["content"]);
  }
  if (key === "transaction" || key === "ledger") {
    report.smallestAmount = await errorsOf(new Model({ amount: 0.01 }), ["amount"]);
    report.negativeAmount = await errorsOf(new Model({ amount: -5 }), ["amount"]);
  }
  if (key === "transaction") {
    const id = new mongoose.Types.ObjectId();
    const other = new mongoose.Types.ObjectId();
    const sameId = new mongoose.Types.ObjectId(String(id));
    report.sameAccounts = await errorsOf(new Model({ fromAccountId: id, toAccountId: sameId }));
    report.differentAccounts = await errorsOf(new Model({ fromAccountId: id, toAccountId: other }));
  }
  if (key === "ledger") {
    const existing = () =>
      Model.hydrate({
        _id: new mongoose.Types.ObjectId(),
        accountId: new mongoose.Types.ObjectId(),
        transactionId: new mongoose.Types.ObjectId(),
        entryType: "debit",
        amount: 10,
      });
    const guarded: Record<string, () => unknown> = {
      findOneAndDelete: () => Model.findOneAndDelete({}),
      findOneAndReplace: () => Model.findOneAndReplace({}, { amount: 5 }),
      findOneAndUpdate: () => Model.findOneAndUpdate({}, { amount: 5 }),
      findByIdAndUpdate: () => Model.findByIdAndUpdate(new mongoose.Types.ObjectId(), { amount: 5 }),
      findByIdAndDelete: () => Model.findByIdAndDelete(new mongoose.Types.ObjectId()),
      updateOne: () => Model.updateOne({}, { amount: 5 }),
      updateMany: () => Model.updateMany({}, { amount: 5 }),
      deleteOne: () => Model.deleteOne({}),
      deleteMany: () => Model.deleteMany({}),
      replaceOne: () => Model.replaceOne({}, { amount: 5 }),
      bulkWrite: () =>
        Model.bulkWrite([{ updateOne: { filter: {}, update: { $set: { amount: 5 } } } }]),
      "document.save": () => {
        const doc = existing();
        doc.set("amount", 20);
        return doc.save();
      },
      "document.deleteOne": () => existing().deleteOne(),
      "document.updateOne": () => existing().updateOne({ amount: 5 }),
    };
    const results: Record<string, Json> = {};
    for (const [op, action] of Object.entries(guarded)) results[op] = await outcome(action);
    report.guards = results;
    // Controls: operations that are not guarded reach the (absent) driver instead.
    report.controls = {
      find: await outcome(() => Model.find({})),
      "new.save": await outcome(() =>
        new Model({
          accountId: new mongoose.Types.ObjectId(),
          transactionId: new mongoose.Types.ObjectId(),
          entryType: "credit",
          amount: 1,
        }).save(),
      ),
      insertOnlyBulkWrite: await outcome(() =>
        Model.bulkWrite([
          {
            insertOne: {
              document: {
                accountId: new mongoose.Types.ObjectId(),
                transactionId: new mongoose.Types.ObjectId(),
                entryType: "credit",
                amount: 1,
              },
            },
          },
        ]),
      ),
    };
  }
  return report;
}

async function main(): Promise<void> {
  const files = JSON.parse(process.argv[2] ?? "{}") as Record<string, string>;
  const report: Record<string, Json> = {};
  for (const [key, file] of Object.entries(files)) report[key] = await inspect(key, file);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await mongoose.disconnect();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
