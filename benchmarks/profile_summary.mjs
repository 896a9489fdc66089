// Where a server's CPU time went, from the V8 CPU profiles that transfer_speed.py writes with
// STACKWRIGHT_PROFILE (a subfolder per server). For each folder: its largest profile (the
// server's; npm, which started an API, writes a small one beside it), its busy time (idle
// left out), then the self time by where the code lives: a package of node_modules, Node's own
// internals, the project's own files, V8's garbage collector and the rest of its work; then the
// costliest functions. Self time: a function's own samples, not those of what it calls.
//
//   node benchmarks/profile_summary.mjs FOLDER... [--top N]
//
// Two servers side by side, each with its CPU ms per request from the benchmark's line ("CPU ms
// per transfer, API: server 0.96"): the microseconds per request each place took in each, and
// the difference, largest first: where the first spends what the second does not.
//
//   node benchmarks/profile_summary.mjs --compare FOLDER:MS FOLDER:MS [--top N] [--functions]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
const compare = args.includes("--compare");
const byFunction = args.includes("--functions");
// The folders: every argument but the options and --top's number.
const folders = args.filter((arg, index) => !arg.startsWith("--") && (topAt < 0 || index !== topAt + 1));

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

/** The self time of a folder's largest profile: busy microseconds, by place and by function. */
function selfTimes(folder) {
  const files = readdirSync(folder).filter((name) => name.endsWith(".cpuprofile"));
  if (files.length === 0) {
    throw new Error(`${folder}: no profile`);
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
  return { file: largest, busy, places, functions };
}

function summary(folder) {
  const { file, busy, places, functions } = selfTimes(folder);
  const lines = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `  ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${name}`);
  return [
    `${folder}: ${(busy / 1e6).toFixed(1)} s busy (${file})`,
    " by where the code lives:",
    ...lines(places),
    " by function:",
    ...lines(functions),
  ].join("\n");
}

/** Microseconds per request by place (or function) in two servers, the largest differences first. */
function comparison(first, second) {
  const perRequest = (argument) => {
    const at = argument.lastIndexOf(":");
    const { busy, places, functions } = selfTimes(argument.slice(0, at));
    const micros = 1000 * Number(argument.slice(at + 1));
    return new Map([...(byFunction ? functions : places)].map(([name, self]) => [name, (micros * self) / busy]));
  };
  const [a, b] = [perRequest(first), perRequest(second)];
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((place) => [place, a.get(place) ?? 0, b.get(place) ?? 0])
    .sort((x, y) => y[1] - y[2] - (x[1] - x[2]))
    .slice(0, top);
  const number = (micros) => micros.toFixed(1).padStart(7);
  return [
    `µs per request: ${first} | ${second} | difference`,
    ...rows.map(([place, x, y]) => `${number(x)} ${number(y)} ${number(x - y)}  ${place}`),
  ].join("\n");
}

if (compare) {
  console.log(comparison(folders[0], folders[1]));
} else {
  for (const folder of folders) {
    console.log(summary(folder));
  }
}
