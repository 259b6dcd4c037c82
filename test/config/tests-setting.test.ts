// The `tests` setting, for a producer without vitest: a bad value is located, `false` writes no
// generated tests (and removes those written before), and generated/ then type-checks where vitest
// cannot be resolved, as it does through the generated package's tsconfig with the tests present.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { loadConfig } from "../../src/config/config.js";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";

const ROOT = join(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project under the OS temp directory, where no node_modules (and so no vitest) is reachable. */
const project = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "treaty-tests-setting-"));
  temps.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  cpSync(join(ROOT, "idl/errors/operation.error.yaml"), join(root, "idl/operation.error.yaml"));
  return root;
};

const cli = async (args: string[], cwd: string) => {
  let stderr = "";
  const status = await runCli(args, { cwd, stdout: () => undefined, stderr: (t) => (stderr += t) });
  return { status, stderr };
};

const filesUnder = (dir: string, suffix: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => join(e.parentPath, e.name))
    .sort();

// Under `init`'s compiler options; treaty's runtime from source, as test/typecheck.test.ts maps it.
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  types: [],
  paths: {
    "treaty/runtime": [join(ROOT, "src/runtime/index.ts")],
    "treaty/typebox": [join(ROOT, "src/runtime/typebox.ts")],
  },
};

// The programs below share the parsed lib and runtime files, which are most of their cost.
const parsed = new Map<string, ts.SourceFile | undefined>();
const host = ts.createCompilerHost(OPTIONS);
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (fileName, language, ...rest) => {
  const key = `${fileName}\0${JSON.stringify(language)}`;
  if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, language, ...rest));
  return parsed.get(key);
};

/** The type errors of `files`, as `file: message`. */
const typeErrors = (files: readonly string[], options: ts.CompilerOptions = OPTIONS): string[] =>
  ts.getPreEmitDiagnostics(ts.createProgram(files, options, host)).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);

describe("the tests setting", () => {
  it("takes true or false, and a bad value is invalid-value at its location", () => {
    const located = (files: Record<string, string>) => loadConfig(project(files)).diagnostics.map(formatDiagnostic);
    expect(located({ "treaty.config.json": '{\n  "tests": "no"\n}\n' })).toEqual([
      "treaty.config.json:2:12 - error invalid-value: 'tests' in treaty.config.json must be true or false",
    ]);
    expect(located({ "package.json": '{ "treaty": { "tests": 0 } }\n' })).toEqual([
      "package.json:1:24 - error invalid-value: 'tests' in package.json 'treaty' must be true or false",
    ]);
    expect(loadConfig(project({ "treaty.config.json": '{ "tests": false }\n' })).value?.tests).toBe(false);
    expect(loadConfig(project({ "treaty.config.json": "{}\n" })).value?.tests).toBeUndefined();
  });

  it("false writes no generated tests and removes those written before; generated/ then type-checks without vitest", async () => {
    const root = project({ "treaty.config.json": "{}\n" });
    expect((await cli(["generate"], root)).status).toBe(0);
    const written = filesUnder(join(root, "generated"), ".test.ts");
    expect(written.map((path) => path.slice(root.length + 1))).toEqual(["generated/operation.error/operation.error.test.ts"]);
    // The tests import vitest, which nothing here provides: they could not compile.
    expect(readFileSync(written[0]!, "utf8")).toMatch(/from "vitest"/);
    expect(ts.resolveModuleName("vitest", written[0]!, OPTIONS, ts.sys).resolvedModule).toBeUndefined();

    writeFileSync(join(root, "treaty.config.json"), '{ "tests": false }\n');
    const check = await cli(["generate", "--check"], root);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("extra   operation.error/operation.error.test.ts\n");
    expect(check.stderr).toContain("extra   operation.error/operation.error.cases.json\n");
    expect((await cli(["generate"], root)).stderr).toMatch(/0 created, 0 updated, 2 removed/);
    expect(filesUnder(join(root, "generated"), ".test.ts")).toEqual([]);
    expect(filesUnder(join(root, "generated"), ".cases.json")).toEqual([]);
    expect(typeErrors(filesUnder(join(root, "generated"), ".ts"))).toEqual([]);
  });

  it("the generated package's tsconfig leaves the tests out, so it compiles without vitest", async () => {
    const root = project({ "treaty.config.json": '{ "package": { "name": "@acme/contracts" } }\n' });
    expect((await cli(["generate"], root)).status).toBe(0);
    const dir = join(root, "generated");
    expect(existsSync(join(dir, "operation.error/operation.error.test.ts"))).toBe(true);
    const config = ts.readConfigFile(join(dir, "tsconfig.json"), (path) => readFileSync(path, "utf8"));
    const tsconfig = ts.parseJsonConfigFileContent(config.config, ts.sys, dir);
    expect(tsconfig.errors).toEqual([]);
    expect(tsconfig.fileNames.length).toBeGreaterThan(0);
    expect(tsconfig.fileNames.filter((f) => f.endsWith(".test.ts"))).toEqual([]);
    // Its own options, but no emit, and treaty's runtime from source, which lies outside its rootDir.
    const { rootDir: _, ...options } = tsconfig.options;
    expect(typeErrors(tsconfig.fileNames, { ...options, noEmit: true, paths: OPTIONS.paths })).toEqual([]);
  });
});
