// What the emitters worked out in an earlier run, kept in the cache directory so a run whose inputs
// were all seen before loads neither library: json-schema-to-typescript's declarations (loading it
// costs about 50 ms a process, compiling a wide type seconds) and handlebars' precompiled templates
// (compiling them about 45 ms; their specs load through handlebars' runtime in about 5). Only an
// accelerator (cache-file.ts): a missing, stale, corrupt or truncated file holds nothing.
import { join } from "node:path";
import type { EmitterMemo } from "../emit/emitter-memo.js";
import { templateMemo } from "../emit/templates.js";
import { declarationMemo } from "../emit/types.js";
import { isStringPairs, readKeptEntries, writeKeptEntries } from "./cache-file.js";

const FORMAT = 1;

const MEMOS: readonly { readonly file: string; readonly memo: EmitterMemo }[] = [
  { file: "type-declarations.json", memo: declarationMemo },
  { file: "template-specs.json", memo: templateMemo },
];

/** Each memo seeded, when first used, with what the cache holds for this compiler. */
export const loadEmitterMemos = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  for (const { file, memo } of MEMOS) memo.seed(() => readKeptEntries(join(cacheDir, file), FORMAT, isStringPairs) ?? []);
};

/** Best effort, like the manifest: each memo this run added to, for the next run. */
export const saveEmitterMemos = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  for (const { file, memo } of MEMOS) {
    const entries = memo.toKeep();
    if (entries !== undefined) writeKeptEntries(join(cacheDir, file), FORMAT, entries);
  }
};
