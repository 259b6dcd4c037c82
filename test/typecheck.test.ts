// Every generated TypeScript file, the generated tests included, must compile under `strict`, as a
// producer's build would see it.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();

it("generated code type-checks under strict", () => {
  const roots = [join(ROOT, "generated"), ...readdirSync(join(ROOT, "test/fixtures")).filter((c) => c.startsWith("good-")).map((c) => join(ROOT, "test/fixtures", c, "expected"))];
  const files = roots.flatMap(tsFiles);
  expect(files.length).toBeGreaterThan(0);
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    // The ECMAScript library alone, as `treaty init`'s tsconfig: no DOM or Node globals.
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
    paths: {
      "treaty/runtime": [join(ROOT, "src/runtime/index.ts")],
      "treaty/typebox": [join(ROOT, "src/runtime/typebox.ts")],
      // Its declarations as a user gets them: its source reads Node's fs, which these options leave out.
      "treaty/testing": [join(ROOT, "dist/testing/index.d.ts")],
    },
    allowImportingTsExtensions: false,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" }));
  expect(diagnostics).toEqual([]);
});
