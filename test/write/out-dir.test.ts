// Where `--out` leads, on a real file system: a symlink is written through (a dangling one makes
// its target), and what cannot hold the output is write-failed, never an internal error.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { cli, tempProject } from "../support/temp-project.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");

/** A project with idl/'s operation.error in `idl/`. */
const project = (name: string): string => {
  const root = tempProject(name, { "package.json": "{}\n" });
  cpSync(join(ROOT, "idl/errors/operation.error.yaml"), join(root, "idl/operation.error.yaml"));
  return root;
};

it("an --out that is a dangling symlink is written through: its target is made, the link stays, and a rerun finds it current", async () => {
  const root = project("out-dangling");
  symlinkSync("build/generated", join(root, "relative"));
  symlinkSync(join(root, "elsewhere/generated"), join(root, "absolute"));
  for (const [out, target] of [
    ["relative", "build/generated"],
    ["absolute", "elsewhere/generated"],
  ] as const) {
    const first = await cli(["generate", "--out", out], root);
    expect(first.stderr).toMatch(/^treaty: 1 contract, 1 version: \d+ created, 0 updated, 0 removed, 0 unchanged/);
    expect(first.status).toBe(0);
    expect(lstatSync(join(root, out)).isSymbolicLink()).toBe(true);
    expect(existsSync(join(root, target, "operation.error/v1_0/types.ts"))).toBe(true);
    // Staged and locked beside the target, and nothing left there.
    expect(readdirSync(join(root, target, ".."))).toEqual(["generated"]);
    const second = await cli(["generate", "--out", out], root);
    expect(second.stderr).toMatch(/: 0 created, 0 updated, 0 removed, \d+ unchanged/);
    expect(second.status).toBe(0);
  }
  // A link to one of them leads to the same directory, which is current.
  symlinkSync("relative", join(root, "chained"));
  expect((await cli(["generate", "--out", "chained"], root)).stderr).toMatch(/: 0 created, 0 updated, 0 removed, \d+ unchanged/);
});

it("an --out that is a symlink loop is write-failed", async () => {
  const root = project("out-loop");
  symlinkSync("b", join(root, "a"));
  symlinkSync("a", join(root, "b"));
  const { status, stderr } = await cli(["generate", "--out", "a"], root);
  expect(stderr).toMatch(/^error write-failed: cannot write into a: [ab] is a symlink that loops; nothing was written\n/);
  expect(status).toBe(1);
});

it("an --out under /proc, where no directory can be made, is write-failed at once", () => {
  const root = project("out-proc");
  // In a child process with a time limit: Node's recursive mkdir looped there, in synchronous code no test timeout stops.
  for (const out of ["/proc/x", "/proc/a/b/x"]) {
    const run = spawnSync(process.execPath, [CLI, "generate", "--out", out], { cwd: root, encoding: "utf8", timeout: 20_000 });
    expect(run.stderr).toMatch(new RegExp(`^error write-failed: cannot write into [./]*${out}: [./]*/proc refused a file \\(ENOENT\\); nothing was written\n`));
    expect(run.status).toBe(1);
  }
});

it("import --out under /proc is write-failed at once, and a cache directory there is passed over (the run is uncached)", () => {
  const root = project("proc-elsewhere");
  writeFileSync(join(root, "order.json"), '{ "type": "object", "properties": { "id": { "type": "string", "maxLength": 8 } } }\n');
  const imported = spawnSync(process.execPath, [CLI, "import", "order.json", "--out", "/proc/a/b"], { cwd: root, encoding: "utf8", timeout: 20_000 });
  expect(imported.stderr).toMatch(/^error write-failed: cannot write into [./]*\/proc\/a\/b: ENOENT: .*; nothing was written\n/);
  expect(imported.status).toBe(1);
  const generated = spawnSync(process.execPath, [CLI, "generate"], { cwd: root, encoding: "utf8", timeout: 20_000, env: { ...process.env, TREATY_CACHE_DIR: "/proc/a/b" } });
  expect(generated.stderr).toMatch(/^treaty: 1 contract, 1 version: \d+ created/);
  expect(generated.status).toBe(0);
});

it("a directory where a generated file goes, or a file where its directory goes, is write-failed with nothing written, and the next run after it is gone succeeds", async () => {
  const root = project("out-blocked");
  expect((await cli(["generate"], root)).status).toBe(0);
  const types = join(root, "generated/operation.error/v1_0/types.ts");
  const stale = readFileSync(join(root, "generated/operation.error/v1_0/schema.json"), "utf8");
  // A change to write, and something in its way.
  writeFileSync(join(root, "idl/operation.error.yaml"), `${readFileSync(join(root, "idl/operation.error.yaml"), "utf8")}# edited\n`);
  rmSync(types);
  mkdirSync(types);
  const blocked = await cli(["generate"], root);
  expect([blocked.status, blocked.stderr]).toEqual([1, expect.stringMatching(/^error write-failed: cannot write into generated: generated\/operation\.error\/v1_0\/types\.ts is a directory where a generated file goes \(EISDIR\); nothing was written\n/)]);
  expect(readdirSync(root).filter((name) => name.includes("staging"))).toEqual([]);
  expect(readFileSync(join(root, "generated/operation.error/v1_0/schema.json"), "utf8")).toBe(stale);
  rmSync(types, { recursive: true });
  rmSync(join(root, "generated/operation.error/v1_0"), { recursive: true });
  writeFileSync(join(root, "generated/operation.error/v1_0"), "not a directory\n");
  const file = await cli(["generate"], root);
  expect([file.status, file.stderr]).toEqual([1, expect.stringMatching(/^error write-failed: cannot write into generated: generated\/operation\.error\/v1_0 is a file where generated files need a directory \(ENOTDIR\); nothing was written\n/)]);
  rmSync(join(root, "generated/operation.error/v1_0"));
  const after = await cli(["generate"], root);
  expect(after.status).toBe(0);
  expect(existsSync(types)).toBe(true);
});
