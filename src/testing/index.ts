// `treaty/testing`: what the generated regression tests run on. A generated test module reads its
// contract's cases file with `readCases` and registers one test per case; this entry imports
// treaty's runtime and Node's fs, never a test framework.
export { readCases, type CaseContext, type CaseExpect, type CaseGroup, type CaseSuite, type RunnableCase } from "./run-cases.js";
export { MAX_BUILT_LENGTH, build, type Base, type Case, type CasesFile, type CaseValue, type CompatibilityCase, type Edit, type Expectation, type JsonValue, type Made, type Skipped } from "./cases-file.js";

declare global {
  /** `import.meta.url`, which a generated test module passes to `readCases`: as Node and the DOM declare it, for a tsconfig with neither. */
  interface ImportMeta {
    url: string;
  }
}
