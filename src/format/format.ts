import type { StageResult } from "../diagnostics/diagnostic.js";
import type { EmittedFile } from "../emit/file-builder.js";
import { formatKey, type FormatCache } from "./format-cache.js";
import { directLayout } from "./json-layout.js";
import { formatText } from "./format-text.js";

/**
 * One file formatted with prettier's fixed options. Prettier is most of a cold run's cost (linear
 * in the code's size), so a file is formatted once and then served from `cache`; JSON is printed in
 * prettier's layout without it.
 */
export const formatFile = async (file: EmittedFile, cache: FormatCache): Promise<string> => {
  const direct = directLayout(file) ?? file.laidOut?.get(file.contents);
  if (direct !== undefined) return direct;
  const key = formatKey(file);
  let contents = cache.get(key);
  if (contents === undefined) {
    contents = await formatText(file.contents, file.language);
    cache.set(key, contents);
  }
  return contents;
};

/** Formats every file (see `formatFile`); files with the same contents are formatted once. */
export const format = async (files: readonly EmittedFile[], cache: FormatCache): Promise<StageResult<EmittedFile[]>> => {
  const formatted = new Map<string, string>();
  const value: EmittedFile[] = [];
  for (const file of files) {
    const key = `${file.language}\0${file.contents}`;
    if (!formatted.has(key)) formatted.set(key, await formatFile(file, cache));
    value.push({ ...file, contents: formatted.get(key)! });
  }
  return { value, diagnostics: [] };
};
