// Preloaded by transfer_speed.py's STACKWRIGHT_PROFILE into a server started by npm (Node
// refuses --cpu-prof in NODE_OPTIONS): V8's CPU profile from the moment the process starts to
// its exit, written as <pid>.cpuprofile into STACKWRIGHT_PROFILE_DIR, as --cpu-prof would.
const { mkdirSync, writeFileSync } = require("node:fs");
const { Session } = require("node:inspector");
const { join } = require("node:path");

const folder = process.env.STACKWRIGHT_PROFILE_DIR;
const session = new Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.start");
// The main thread's session answers synchronously: the profile is written before the exit.
process.on("exit", () => {
  session.post("Profiler.stop", (error, result) => {
    if (!error) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    }
  });
});
