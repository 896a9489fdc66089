import { existsSync } from "node:fs";
import mongoose, { type Model } from "mongoose";
import * as models from "./models.js";

function isModel(value: unknown): value is Model<unknown> {
  return typeof value === "function" && "syncIndexes" in value && "modelName" in value;
}

/** Makes MongoDB's indexes match the models: `db:sync-indexes`. */
async function main(): Promise<void> {
  if (existsSync(".env")) {
    process.loadEnvFile(".env");
  }
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set (put it in .env or the environment)");
  }
  await mongoose.connect(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    const compiled = (Object.values(models) as unknown[]).filter(isModel);
    for (const model of compiled) {
      const dropped = await model.syncIndexes();
      const kept = await model.listIndexes();
      const names = kept.map((index) => String(index.name)).join(", ");
      const droppedText = dropped.length ? `; dropped ${dropped.join(", ")}` : "";
      console.log(`${model.modelName}: ${kept.length} indexes (${names})${droppedText}`);
    }
    console.log(`Synced indexes of ${compiled.length} models.`);
  } finally {
    await mongoose.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error("db:sync-indexes failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
