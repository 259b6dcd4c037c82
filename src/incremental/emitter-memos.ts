// What the emitters worked out in an earlier run, kept in the cache directory so a run whose inputs
// were all seen before loads neither library: json-schema-to-typescript's declarations (loading it
// costs about 50 ms a process, compiling a wide type seconds) and handlebars' precompiled templates
// (compiling them about 45 ms; their specs load through handlebars' runtime in about 5). Only an
// accelerator (cache-file.ts): a missing, stale, corrupt or truncated file holds nothing.
import { join } from "node:path";
import { rememberTemplateSpecs, seedTemplateSpecs, templateSpecsToKeep } from "../emit/templates.js";
import { declarationsToKeep, rememberDeclarations, seedDeclarations } from "../emit/types.js";
import { isStringPairs, readKeptEntries, writeKeptEntries } from "./cache-file.js";

/** An emitter's memo of `[input, output]` pairs: seeded before its first use, kept after a run that added to it. */
interface Memo {
  readonly file: string;
  seed(load: () => void): void;
  remember(entries: readonly (readonly [string, string])[]): void;
  /** Undefined when the run added nothing. */
  toKeep(): [string, string][] | undefined;
}

const FORMAT = 1;

const MEMOS: readonly Memo[] = [
  { file: "type-declarations.json", seed: seedDeclarations, remember: rememberDeclarations, toKeep: declarationsToKeep },
  { file: "template-specs.json", seed: seedTemplateSpecs, remember: rememberTemplateSpecs, toKeep: templateSpecsToKeep },
];

/** Each memo seeded, when first used, with what the cache holds for this compiler. */
export const loadEmitterMemos = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  for (const memo of MEMOS) memo.seed(() => memo.remember(readKeptEntries(join(cacheDir, memo.file), FORMAT, isStringPairs) ?? []));
};

/** Best effort, like the manifest: each memo this run added to, for the next run. */
export const saveEmitterMemos = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  for (const memo of MEMOS) {
    const entries = memo.toKeep();
    if (entries !== undefined) writeKeptEntries(join(cacheDir, memo.file), FORMAT, entries);
  }
};
