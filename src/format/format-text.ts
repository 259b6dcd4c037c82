import type { EmittedFile } from "../emit/file-builder.js";
import { layoutCode } from "./code-layout.js";
import { prettierFormat } from "./prettier-format.js";

/** Between statements formatted together: a line comment, which prettier keeps on its own line. */
export const STATEMENT_CUT = "// treaty: statement cut\n";

/**
 * `contents` (one file, or statements joined at `STATEMENT_CUT`) formatted as prettier formats each
 * piece: the TypeScript that code-layout.ts prints in prettier's layout without it, the rest by
 * prettier in one call. Should the marks not come back as they went in, prettier formats it all.
 */
export const formatText = async (contents: string, language: EmittedFile["language"]): Promise<string> => {
  if (language !== "typescript") return prettierFormat(contents, language);
  const pieces = contents.split(STATEMENT_CUT);
  const direct = pieces.map((piece) => layoutCode(piece));
  const rest = pieces.filter((_, i) => direct[i] === undefined);
  if (rest.length === 0) return direct.join(STATEMENT_CUT);
  if (rest.length === pieces.length) return prettierFormat(contents, language);
  const formatted = (await prettierFormat(rest.join(STATEMENT_CUT), language)).split(STATEMENT_CUT);
  if (formatted.length !== rest.length) return prettierFormat(contents, language);
  let next = 0;
  return direct.map((text) => text ?? formatted[next++]!).join(STATEMENT_CUT);
};
