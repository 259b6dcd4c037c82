// `treaty generate --watch` as a user runs it: the built CLI in a child process, edited under it.
// Each step waits for what the user would look for (a generated file's contents, a line on stderr),
// never for a fixed time.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { tempProject } from "../support/temp-project.js";

const CLI = join(import.meta.dirname, "../../dist/cli/main.js");

const contract = (description: string): string => `contract: demo.thing
owner: demo
versions:
  "1.0":
    fields:
      name: { type: string, maxLength: 40, description: ${JSON.stringify(description)} }
`;
const other = `contract: extra.item
owner: demo
versions:
  "1.0":
    fields:
      id: { type: string, maxLength: 10 }
`;

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill("SIGKILL")));

/** Polls `probe` until it returns true; fails with what was printed after 20 s. */
const until = async (what: string, probe: () => boolean, printed: () => string): Promise<void> => {
  for (const deadline = Date.now() + 20_000; !probe(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr so far:\n${printed()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** `treaty generate --watch` in `root`, killed after the tests; `printed()`: its stderr so far. */
const startWatch = (root: string, ...flags: string[]): { child: ChildProcess; printed: () => string } => {
  const child = spawn(process.execPath, [CLI, "generate", "--watch", ...flags], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, printed: () => stderr };
};

const read = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

/** Every file under `dir`, relative. */
const tree = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));

it("regenerates each saved change, reports a half-edited file without exiting, follows files that come and go, and stops on Ctrl-C", async () => {
  const root = tempProject("watch", { "treaty.config.json": `{ "tests": false }\n`, "idl/demo/demo.thing.yaml": contract("first") });
  const { child, printed } = startWatch(root);
  const types = join(root, "generated/demo.thing/v1_0/types.ts");

  await until("the first run and the watch", () => printed().includes("watching idl for changes"), printed);
  expect(read(types)).toContain("first");

  // Saved twice: each save regenerates.
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("second"));
  await until("the second description", () => read(types)?.includes("second") === true, printed);
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("third"));
  await until("the third description", () => read(types)?.includes("third") === true, printed);

  // Half-edited: the diagnostic at its line, nothing written, still watching.
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("fourth").replace("maxLength: 40", "maxLength: [40"));
  await until("the YAML error", () => /idl\/demo\/demo\.thing\.yaml:\d+:\d+ - error yaml-syntax/.test(printed()), printed);
  expect(read(types)).toContain("third");
  expect(child.exitCode).toBeNull();
  // A run with an error writes nothing and prints no summary (runs never overlap, so nothing
  // after its diagnostic comes from an earlier run).
  const afterError = printed().slice(printed().search(/error yaml-syntax/));
  expect(afterError).not.toMatch(/^treaty: \d+ contracts?, /m);
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("fifth"));
  await until("the repaired file's output", () => read(types)?.includes("fifth") === true, printed);

  // A contract in a directory created after the watch started, then removed.
  mkdirSync(join(root, "idl/extra"));
  writeFileSync(join(root, "idl/extra/extra.item.yaml"), other);
  await until("the new contract's output", () => existsSync(join(root, "generated/extra.item/v1_0/types.ts")), printed);
  rmSync(join(root, "idl/extra"), { recursive: true });
  await until("the removed contract's output gone", () => !existsSync(join(root, "generated/extra.item")), printed);

  // The config is watched too: `tests: true` brings the generated tests.
  writeFileSync(join(root, "treaty.config.json"), `{ "tests": true }\n`);
  await until("the generated tests", () => existsSync(join(root, "generated/demo.thing/demo.thing.test.ts")), printed);

  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  expect(tree(join(root, "generated")).filter((p) => p.endsWith(".treaty-tmp"))).toEqual([]);
  expect(printed()).not.toMatch(/internal error|\n\s+at /);
}, 60_000);

it("--quiet under --watch prints only diagnostics: no banner, no summaries", async () => {
  const root = tempProject("watch-quiet", { "treaty.config.json": `{ "tests": false }\n`, "idl/demo/demo.thing.yaml": contract("first") });
  const { child, printed } = startWatch(root, "--quiet");
  const types = join(root, "generated/demo.thing/v1_0/types.ts");
  await until("the first run", () => read(types)?.includes("first") === true, printed);
  // Nothing says when the watch is ready: the save is repeated until it is seen.
  const save = (text: string) => writeFileSync(join(root, "idl/demo/demo.thing.yaml"), text);
  const saving = setInterval(() => save(contract("second")), 300);
  await until("the saved change", () => read(types)?.includes("second") === true, printed).finally(() => clearInterval(saving));
  expect(printed()).toBe("");
  save(contract("third").replace("maxLength: 40", "maxLength: [40"));
  await until("the YAML error", () => /error yaml-syntax/.test(printed()), printed);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  // The diagnostic (and its excerpt of the file) and nothing of treaty's own.
  expect(printed()).toMatch(/^idl\/demo\/demo\.thing\.yaml:\d+:\d+ - error yaml-syntax: /);
  expect(printed()).not.toMatch(/^treaty: /m);
}, 60_000);

it("a generate beside the watch waits for the watch's run (and the watch for it); Ctrl-C stops a run waiting for another", async () => {
  const root = tempProject("watch-lock", { "treaty.config.json": `{ "tests": false }\n`, "idl/demo/demo.thing.yaml": contract("first"), "idl/extra/extra.item.yaml": other });
  const { child, printed } = startWatch(root);
  const types = join(root, "generated/demo.thing/v1_0/types.ts");
  await until("the first run and the watch", () => printed().includes("watching idl for changes"), printed);

  // A save and a generate at once, twice: each run in turn, none failing, one whole generation left.
  for (const description of ["second", "third"]) {
    const summaries = printed().match(/^treaty: \d+ contracts?, /gm)!.length;
    writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract(description));
    const beside = spawn(process.execPath, [CLI, "generate"], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let besideErr = "";
    beside.stderr!.on("data", (chunk: Buffer) => (besideErr += chunk.toString()));
    expect(await new Promise((done) => beside.once("exit", done)), besideErr).toBe(0);
    await until("the watch's run", () => printed().match(/^treaty: \d+ contracts?, /gm)!.length > summaries, printed);
    expect(read(types)).toContain(description);
  }
  const check = spawn(process.execPath, [CLI, "generate", "--check"], { cwd: root, stdio: "ignore" });
  expect(await new Promise((done) => check.once("exit", done))).toBe(0);

  // Another process holds the lock: the watch's run waits for it, and Ctrl-C stops the wait at once.
  const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600_000)"], { stdio: "ignore" });
  children.push(holder);
  writeFileSync(join(root, ".generated.treaty-lock"), `${holder.pid}\n`);
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("fourth"));
  await until("the wait", () => printed().includes(`treaty: waiting for another generate (pid ${holder.pid}) writing into generated`), printed);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const stopped = Date.now();
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  expect(Date.now() - stopped).toBeLessThan(10_000);
  expect(read(types)).toContain("third");
  expect(printed()).not.toMatch(/internal error|\n\s+at /);
}, 60_000);

it("goes on watching the contracts directory after it is removed and made again, or swapped for another", async () => {
  const root = tempProject("watch-idl-gone", { "treaty.config.json": `{ "tests": false }\n`, "idl/demo/demo.thing.yaml": contract("first") });
  const { child, printed } = startWatch(root);
  const types = join(root, "generated/demo.thing/v1_0/types.ts");
  await until("the first run and the watch", () => printed().includes("watching idl for changes"), printed);

  // Removed: its diagnostic, the output kept, still watching.
  rmSync(join(root, "idl"), { recursive: true });
  await until("the missing directory's diagnostic", () => printed().includes("error read-failed: cannot read idl: no such directory"), printed);
  expect(read(types)).toContain("first");
  // Made again, empty: its diagnostic; then a contract in it regenerates.
  mkdirSync(join(root, "idl"));
  await until("the empty directory's diagnostic", () => printed().includes("error no-contracts"), printed);
  mkdirSync(join(root, "idl/demo"));
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("second"));
  await until("the contract back", () => read(types)?.includes("second") === true, printed);
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("third"));
  await until("a save in it", () => read(types)?.includes("third") === true, printed);

  // Swapped for another directory (as a checkout can): the new one's contracts, and its saves.
  mkdirSync(join(root, "idl.new/demo"), { recursive: true });
  writeFileSync(join(root, "idl.new/demo/demo.thing.yaml"), contract("fourth"));
  renameSync(join(root, "idl"), join(root, "idl.old"));
  renameSync(join(root, "idl.new"), join(root, "idl"));
  await until("the swapped-in contract", () => read(types)?.includes("fourth") === true, printed);
  writeFileSync(join(root, "idl/demo/demo.thing.yaml"), contract("fifth"));
  await until("a save in the swapped-in directory", () => read(types)?.includes("fifth") === true, printed);

  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  expect(read(types)).toContain("fifth");
  expect(printed()).not.toMatch(/internal error|\n\s+at /);
}, 60_000);
