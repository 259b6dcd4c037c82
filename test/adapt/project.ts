// A throwaway producer repo for adapter tests: contracts in idl/, `treaty generate` into generated/,
// the generated modules imported from there, and a strict type-check of everything.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { runCli } from "../../src/cli/run-cli.js";
import { trackTemp } from "../support/temps.js";

const ROOT = join(import.meta.dirname, "../..");

export interface TempProject {
  readonly root: string;
  /** Writes a file relative to the project root. */
  write(path: string, text: string): void;
  read(path: string): string;
  /** `treaty <args>` in the project; stderr is what the user sees. */
  treaty(...args: string[]): Promise<{ status: number; stderr: string }>;
  /** Imports a module of the project. Modules load once per path: `clone` to see edits. */
  load<T>(path: string): Promise<T>;
  /** A copy of the project under a new path. */
  clone(): TempProject;
  /** Diagnostics of a strict type-check of generated/ and what it imports. */
  typecheck(extra?: readonly string[]): string[];
  remove(): void;
}

export const createProject = (files: Readonly<Record<string, string>> = {}, from?: string): TempProject => {
  // Removed after the test file's tests (setup.ts) should a test not call `remove`.
  const root = trackTemp(mkdtempSync(join(tmpdir(), "treaty-adapt-")));
  if (from) cpSync(from, root, { recursive: true });
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return {
    root,
    write,
    read: (path) => readFileSync(join(root, path), "utf8"),
    treaty: async (...args) => {
      let stderr = "";
      const status = await runCli(args, { cwd: root, stdout: () => {}, stderr: (t) => (stderr += t) });
      return { status, stderr };
    },
    load: async <T>(path: string) => (await import(join(root, path))) as T,
    clone: () => createProject({}, root),
    typecheck: (extra = []) => {
      const program = ts.createProgram([join(root, "generated/index.ts"), ...extra.map((p) => join(root, p))], {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        types: [],
        paths: {
          "treaty/runtime": [join(ROOT, "src/runtime/index.ts")],
          "treaty/typebox": [join(ROOT, "src/runtime/typebox.ts")],
        },
      });
      return ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" }));
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
};
