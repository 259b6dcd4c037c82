import type { StageResult } from "../diagnostics/diagnostic.js";
import type { EmittedFile } from "../emit/file-builder.js";
import { formatKey, type FormatCache } from "./format-cache.js";
import { prettierFormat } from "./prettier-format.js";

/**
 * Formats every file with prettier's fixed options. Prettier is most of a run's cost (linear in
 * the code's size), so each distinct file is formatted once and then served from `cache`.
 */
export const format = async (files: readonly EmittedFile[], cache: FormatCache): Promise<StageResult<EmittedFile[]>> => {
  const keys = files.map(formatKey);
  const formatted = new Map<string, string>();
  for (const [i, file] of files.entries()) {
    const key = keys[i]!;
    if (formatted.has(key)) continue;
    let contents = cache.get(key);
    if (contents === undefined) {
      contents = await prettierFormat(file.contents, file.language);
      cache.set(key, contents);
    }
    formatted.set(key, contents);
  }
  return { value: files.map((file, i) => ({ ...file, contents: formatted.get(keys[i]!)! })), diagnostics: [] };
};
