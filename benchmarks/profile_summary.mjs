// Where a server's CPU time went, from the V8 CPU profiles that transfer_speed.py writes with
// STACKWRIGHT_PROFILE (a subfolder per server). For each folder: its largest profile (the
// server's; npm, which started an API, writes a small one beside it), its busy time (idle
// left out), then the self time by where the code lives: a package of node_modules, Node's own
// internals, the project's own files, V8's garbage collector and the rest of its work; then the
// costliest functions. Self time: a function's own samples, not those of what it calls.
//
//   node benchmarks/profile_summary.mjs FOLDER... [--top N]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
const folders = args.filter((arg, index) => arg !== "--top" && index !== topAt + 1);

/** Where a function's code lives: a package, Node's internals, the project, or V8's own. */
function placeOf(url, functionName) {
  if (!url) {
    return functionName.startsWith("(") ? functionName : "(native)";
  }
  const packages = url.lastIndexOf("/node_modules/");
  if (packages >= 0) {
    const [scope, name] = url.slice(packages + "/node_modules/".length).split("/");
    return scope.startsWith("@") ? `${scope}/${name}` : scope;
  }
  if (url.startsWith("node:")) {
    return "node internals";
  }
  // The project's own files, by the folder under src/ (or dist/) they live in.
  const own = url.match(/\/(?:src|dist)\/(.*)$/);
  return own ? `project ${own[1]}` : url.replace(/^file:\/\//, "");
}

function summary(folder) {
  const files = readdirSync(folder).filter((name) => name.endsWith(".cpuprofile"));
  if (files.length === 0) {
    return `${folder}: no profile`;
  }
  const largest = files.map((name) => join(folder, name)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const profile = JSON.parse(readFileSync(largest, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  profile.samples.forEach((id, index) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const places = new Map();
  const functions = new Map();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === "(idle)") {
      continue;
    }
    busy += micros;
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + micros);
    const key = `${functionName || "(anonymous)"} ${place}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + micros);
  }
  const lines = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `  ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${name}`);
  return [
    `${folder}: ${(busy / 1e6).toFixed(1)} s busy (${largest})`,
    " by where the code lives:",
    ...lines(places),
    " by function:",
    ...lines(functions),
  ].join("\n");
}

for (const folder of folders) {
  console.log(summary(folder));
}
