// What a producer's build says of generated TypeScript: `strict` and the checks of
// @tsconfig/strictest (unused names and parameters, index and optional property rules, ...), the ECMAScript library alone (as `treaty init`'s tsconfig: no DOM or Node globals), treaty's
// entries resolved to this checkout.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dirname, "../..");

/** Every `.ts` file below `dir`, sorted. */
export const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();

/** The type errors of `files`, formatted; empty when they compile. */
export const strictTypeErrors = (files: readonly string[]): string[] => {
  const program = ts.createProgram([...files], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    noImplicitOverride: true,
    noPropertyAccessFromIndexSignature: true,
    allowUnusedLabels: false,
    allowUnreachableCode: false,
    verbatimModuleSyntax: true,
    isolatedModules: true,
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
      // Its declarations as a user gets them: its source reads Node's fs, which these options leave out.
      "treaty/testing": [join(ROOT, "dist/testing/index.d.ts")],
    },
    allowImportingTsExtensions: false,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" }));
};
