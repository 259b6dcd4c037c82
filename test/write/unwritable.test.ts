// A directory `generate` may not write into is `write-failed` (exit 1) before the commit point, and
// the tree stays as it was: a rename refused after it left generated/ half new, and every later run
// exited 70 until the permission was mended. `init` asks before it writes the first file too. The tests run as root, whom permissions do not stop,
// so the file system's refusals are simulated: `accessSync`, `mkdirSync` and `writeFileSync` of
// node:fs refuse the paths under `refused`, as a directory of mode 555 refuses another user.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import { tempProject } from "../support/temp-project.js";

const refused = vi.hoisted(() => new Set<string>());
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  // A directory refuses what is made in it (and, made through it, below it); it alone is refused write access.
  const refuse = (path: unknown, below = true): void => {
    const at = String(path);
    if ([...refused].some((dir) => at === dir || (below && at.startsWith(`${dir}/`)))) throw Object.assign(new Error(`EACCES: permission denied, '${at}'`), { code: "EACCES" });
  };
  return {
    ...fs,
    accessSync: (path: string, mode?: number) => (refuse(path, false), fs.accessSync(path, mode)),
    mkdirSync: ((path: string, options?: object) => (refuse(path), fs.mkdirSync(path, options))) as typeof fs.mkdirSync,
    writeFileSync: ((path: string, data: string, options?: object) => (refuse(path), fs.writeFileSync(path, data, options))) as typeof fs.writeFileSync,
  };
});
afterEach(() => refused.clear());

// Test files share a worker's modules (isolate: false): treaty is imported afresh here, so that it
// reads node:fs through the mock whichever file the worker ran before.
let generate: typeof import("../../src/generate.js").generate;
let stagingDir: typeof import("../../src/write/write.js").stagingDir;
let cli: typeof import("../support/temp-project.js").cli;
beforeAll(async () => {
  vi.resetModules();
  ({ generate } = await import("../../src/generate.js"));
  ({ stagingDir } = await import("../../src/write/write.js"));
  ({ cli } = await import("../support/temp-project.js"));
});

const contract = (maxLength: number): string => `contract: demo.ro\nowner: tests\nversions:\n  "1.0":\n    fields:\n      a: { type: string, maxLength: ${maxLength} }\n`;

const hashes = (dir: string): Record<string, string> =>
  Object.fromEntries(
    (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
      .filter((e) => e.isFile())
      .map((e) => [relative(dir, join(e.parentPath, e.name)).split(sep).join("/"), createHash("sha256").update(readFileSync(join(e.parentPath, e.name))).digest("hex")]),
  );

const run = async (root: string) => {
  const result = await generate({ root, idlDir: join(root, "idl"), outDir: join(root, "generated"), check: false });
  return result.diagnostics.map((d) => `${d.code}: ${d.message}`);
};

it("a directory of generated/ that may not be written into: write-failed, nothing written, and the next run once it may writes the change", async () => {
  const root = tempProject("unwritable", { "package.json": "{}\n", "idl/demo.ro.yaml": contract(32) });
  expect(await run(root)).toEqual([]);
  const before = hashes(join(root, "generated"));
  writeFileSync(join(root, "idl/demo.ro.yaml"), contract(30));
  refused.add(join(root, "generated/demo.ro"));
  expect(await run(root)).toEqual(["write-failed: cannot write into generated: generated/demo.ro is not writable (EACCES); nothing was written"]);
  expect(hashes(join(root, "generated"))).toEqual(before);
  expect(existsSync(stagingDir(join(root, "generated")))).toBe(false);
  // Again: the run before left nothing to replay (it had exited 70 on every run until mended).
  expect(await run(root)).toEqual(["write-failed: cannot write into generated: generated/demo.ro is not writable (EACCES); nothing was written"]);
  refused.clear();
  expect(await run(root)).toEqual([]);
  expect(hashes(join(root, "generated"))).not.toEqual(before);
  expect(readFileSync(join(root, "generated/demo.ro/v1_0/schema.json"), "utf8")).toContain('"maxLength": 30');
});

it("a directory above generated/ that may not be written into (where the change is staged): write-failed, nothing written", async () => {
  const root = tempProject("unwritable-above", { "package.json": "{}\n", "idl/demo.ro.yaml": contract(32) });
  refused.add(stagingDir(join(root, "generated")));
  expect(await run(root)).toEqual([`write-failed: cannot write into generated: . is not writable (EACCES); nothing was written`]);
  expect(existsSync(join(root, "generated"))).toBe(false);
});

it("init in a directory, or over a package.json, that may not be written: write-failed before the first file, nothing written", async () => {
  const root = tempProject("unwritable-init", { "package.json": '{ "name": "x" }\n', "idl/.keep": "" });
  refused.add(join(root, "idl"));
  expect(await cli(["init"], root)).toEqual({ status: 1, stdout: "", stderr: "error write-failed: cannot write into idl: it is not writable (EACCES); nothing was written\n1 error, 0 warnings\n" });
  refused.clear();
  refused.add(join(root, "package.json"));
  expect((await cli(["init"], root)).stderr).toBe("error write-failed: cannot write into package.json: it is not writable (EACCES); nothing was written\n1 error, 0 warnings\n");
  refused.add(root);
  expect((await cli(["init"], root)).stderr).toBe(
    ["cannot write into .", "cannot write into package.json"].map((what) => `error write-failed: ${what}: it is not writable (EACCES); nothing was written\n`).join("") + "2 errors, 0 warnings\n",
  );
  expect(readdirSync(root).sort()).toEqual(["idl", "package.json"]);
  expect(readdirSync(join(root, "idl"))).toEqual([".keep"]);
});
