import type { EmittedFile } from "../emit/file-builder.js";
import { layoutCode } from "./code-layout.js";
import { layoutDeclaration } from "./json-layout.js";
import { EVERY_STATEMENT, joinStatements, splitStatements } from "./statements.js";
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
  const direct = pieces.map(layoutPiece);
  const rest = pieces.filter((_, i) => direct[i] === undefined);
  if (rest.length === 0) return direct.join(STATEMENT_CUT);
  if (rest.length === pieces.length) return prettierFormat(contents, language);
  const formatted = (await prettierFormat(rest.join(STATEMENT_CUT), language)).split(STATEMENT_CUT);
  if (formatted.length !== rest.length) return prettierFormat(contents, language);
  let next = 0;
  return direct.map((text) => text ?? formatted[next++]!).join(STATEMENT_CUT);
};

/**
 * One piece in prettier's layout where treaty prints it: a declaration of data as json-layout.ts
 * prints it (the format pool sends the large ones here), else `layoutCode`, a function a statement
 * of its body at a time: statements alike but for their names and bounds then have one layout
 * (code-layout.ts's shapes), where runs of them (the pool's pieces of a long function) are alike in
 * nothing.
 */
const layoutPiece = (piece: string): string | undefined => {
  const declared = layoutDeclaration(piece);
  if (declared !== undefined) return declared;
  const statements = splitStatements(piece, EVERY_STATEMENT);
  if (statements.length > 1) {
    const laidOut = statements.map((statement) => layoutCode(statement.text));
    if (laidOut.every((text) => text !== undefined)) {
      try {
        return joinStatements(statements, laidOut as string[]);
      } catch {
        // A stand-in that did not come back whole: the piece as one, below.
      }
    }
  }
  return layoutCode(piece);
};
