// Every file treaty cannot read is one `read-failed` worded alike by every command: `<file>:1:1 -
// error read-failed: cannot read <file>: <reason>`, the reason in words (no errno code, no absolute
// path), located at the file (a directory, which has no line, is not). It printed Node's message
// ("EACCES: permission denied, open '/abs/x'"), or the bare code, without a location, and a
// package.json init could not read was an internal error. The tests run as root, whom permissions
// do not stop, so `readFileSync` and `readdirSync` of node:fs refuse the paths under `refused` here,
// as a file of mode 000 refuses another user; the rest is the file system's own (a directory where
// a file should be).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import { tempProject } from "../support/temp-project.js";

const refused = vi.hoisted(() => new Set<string>());
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const refuse = (path: unknown): void => {
    if (refused.has(String(path))) throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: "EACCES", errno: -13 });
  };
  return {
    ...fs,
    readFileSync: ((path: string, options?: object) => (refuse(path), fs.readFileSync(path, options))) as typeof fs.readFileSync,
    readdirSync: ((path: string, options?: object) => (refuse(path), fs.readdirSync(path, options))) as typeof fs.readdirSync,
  };
});
afterEach(() => refused.clear());

// Test files share a worker's modules (isolate: false): treaty is imported afresh, so that it reads
// node:fs through the mock whichever file the worker ran before.
let cli: typeof import("../support/temp-project.js").cli;
beforeAll(async () => {
  vi.resetModules();
  ({ cli } = await import("../support/temp-project.js"));
});

const CONTRACT = 'contract: demo.moved\nowner: tests\nversions:\n  "1.0":\n    fields:\n      a: { type: string, maxLength: 10 }\n  "2.0":\n    changes:\n      - custom: Carry a over by hand.\n';
const SCHEMA = '{ "type": "object", "properties": { "a": { "type": "string" } } }\n';

const project = () => tempProject("read-failed", { "package.json": "{}\n", "idl/demo/demo.moved.yaml": CONTRACT, "schema.json": SCHEMA });

/** The one line a read that failed prints. */
const line = (file: string, reason: string): string => `${file}:1:1 - error read-failed: cannot read ${file}: ${reason}\n1 error, 0 warnings\n`;

it("a file that may not be read is the same read-failed in every command, at the file, with the reason in words", async () => {
  const root = project();
  const denied = (file: string) => line(file, "permission denied");
  refused.add(join(root, "idl/demo/demo.moved.yaml"));
  expect(await cli(["check"], root)).toEqual({ status: 1, stdout: "", stderr: denied("idl/demo/demo.moved.yaml") });
  refused.clear();
  writeFileSync(join(root, "treaty.config.json"), "{}\n");
  refused.add(join(root, "treaty.config.json"));
  expect(await cli(["check"], root)).toEqual({ status: 1, stdout: "", stderr: denied("treaty.config.json") });
  refused.clear();
  refused.add(join(root, "schema.json"));
  expect(await cli(["import", "schema.json"], root)).toEqual({ status: 1, stdout: "", stderr: denied("schema.json") });
  // Both files, in one report.
  const twice = "schema.json:1:1 - error read-failed: cannot read schema.json: permission denied\n";
  expect(await cli(["compat", "schema.json", "schema.json"], root)).toEqual({ status: 1, stdout: "", stderr: `${twice}${twice}2 errors, 0 warnings\n` });
  refused.clear();
  refused.add(join(root, "package.json"));
  expect(await cli(["init"], root)).toEqual({ status: 1, stdout: "", stderr: denied("package.json") });
  refused.clear();
  // The contracts' directory: no line to point at.
  refused.add(join(root, "idl"));
  expect(await cli(["check"], root)).toEqual({ status: 1, stdout: "", stderr: "error read-failed: cannot read idl: permission denied\n1 error, 0 warnings\n" });
});

it("a hand-written adapters file that may not be read is read-failed, and never written over (it was taken for absent and replaced)", async () => {
  const root = project();
  expect((await cli(["generate"], root)).status).toBe(0);
  const adapters = join(root, "idl/demo/demo.moved.adapters.ts");
  writeFileSync(adapters, "// written by hand\n");
  refused.add(adapters);
  expect(await cli(["generate"], root)).toMatchObject({ status: 1, stderr: line("idl/demo/demo.moved.adapters.ts", "permission denied") });
  refused.clear();
  expect(readFileSync(adapters, "utf8")).toBe("// written by hand\n");
});

it("init reads treaty's tarball before it writes anything: one it cannot read stops it whole", async () => {
  const root = tempProject("read-failed-vendor", { "treaty/treaty-0.1.0.tgz": "the tarball\n", "app/package.json": '{ "dependencies": { "treaty": "file:../treaty/treaty-0.1.0.tgz" } }\n' });
  refused.add(join(root, "treaty/treaty-0.1.0.tgz"));
  expect(await cli(["init"], join(root, "app"))).toEqual({ status: 1, stdout: "", stderr: line("../treaty/treaty-0.1.0.tgz", "permission denied") });
  expect(readdirSync(join(root, "app"))).toEqual(["package.json"]);
});

it("a directory where a file should be, or a file where a directory should be, is worded alike (Node's message was printed)", async () => {
  const root = project();
  mkdirSync(join(root, "dir.json"));
  const isDir = line("dir.json", "it is a directory, not a file");
  expect(await cli(["import", "dir.json"], root)).toEqual({ status: 1, stdout: "", stderr: isDir });
  expect(await cli(["compat", "dir.json", "schema.json"], root)).toEqual({ status: 1, stdout: "", stderr: isDir });
  expect(await cli(["check", "--idl", "schema.json"], root)).toEqual({ status: 1, stdout: "", stderr: "error read-failed: cannot read schema.json: it is not a directory\n1 error, 0 warnings\n" });
  expect(await cli(["import", "missing.json"], root)).toEqual({ status: 1, stdout: "", stderr: line("missing.json", "no such file") });
  const adapters = join(root, "idl/demo/demo.moved.adapters.ts");
  mkdirSync(adapters);
  expect((await cli(["generate"], root)).stderr).toBe(line("idl/demo/demo.moved.adapters.ts", "it is a directory, not a file"));
  // init: package.json a directory was an internal error (exit 70).
  const initRoot = tempProject("read-failed-init");
  mkdirSync(join(initRoot, "package.json"));
  expect(await cli(["init"], initRoot)).toEqual({ status: 1, stdout: "", stderr: line("package.json", "it is a directory, not a file") });
});
