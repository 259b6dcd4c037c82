// A generated TypeScript file cut into runs of top-level statements, so each is formatted once a
// run: prettier prints a program's statements one after another, each independent of the others
// (a blank line between two kept as one), and the versions of a contract repeat most of their
// validators, types and projections word for word. A cut is made only before a line that starts a
// statement or its comment at column 0 after a line that ends one; a cut inside a construct
// (a template literal, a block) leaves a piece prettier cannot parse, and then the caller formats
// the file whole. test/format/format.test.ts checks every emitted file against prettier.

/** One piece: its text without trailing blank lines, and whether a blank line followed it. */
export interface Statements {
  readonly text: string;
  readonly blankAfter: boolean;
}

const STATEMENT = /^(?:export |import |function |async function |const |let |var |type |interface |class |abstract class |declare |enum )/;
const COMMENT = /^(?:\/\/|\/\*)/;
const blank = (line: string): boolean => line.trim() === "";

/**
 * Whether `lines` (a piece) starts with a statement, after any comments: a piece that starts with
 * `(` or `[` could be the call or index of the piece before it.
 */
const startsStatement = (lines: readonly string[]): boolean => {
  let inBlock = false;
  for (const line of lines) {
    if (inBlock) {
      inBlock = !line.includes("*/");
      continue;
    }
    if (blank(line) || line.startsWith("//")) continue;
    if (line.startsWith("/*")) {
      inBlock = !line.includes("*/", 2);
      continue;
    }
    return STATEMENT.test(line);
  }
  return false;
};

/** The pieces of `text` in order; one piece when it cannot be cut. */
export const splitStatements = (text: string): Statements[] => {
  const lines = text.split("\n");
  const pieces: string[][] = [];
  let current: string[] = [];
  let lastCode = "";
  for (const line of lines) {
    const ended = lastCode === "" || lastCode.endsWith(";") || lastCode.endsWith("}");
    if (current.length > 0 && ended && (STATEMENT.test(line) || COMMENT.test(line))) {
      if (pieces.length > 0 && !startsStatement(current)) pieces.at(-1)!.push(...current);
      else pieces.push(current);
      current = [];
    }
    current.push(line);
    if (!blank(line)) lastCode = line.trimEnd();
  }
  if (pieces.length > 0 && !startsStatement(current)) pieces.at(-1)!.push(...current);
  else pieces.push(current);
  return pieces.map((piece) => {
    let end = piece.length;
    while (end > 0 && blank(piece[end - 1]!)) end--;
    return { text: `${piece.slice(0, end).join("\n")}\n`, blankAfter: end < piece.length };
  });
};

/** The formatted pieces as prettier prints the file they came from. */
export const joinStatements = (pieces: readonly Statements[], formatted: readonly string[]): string =>
  formatted.map((text, i) => (pieces[i]!.blankAfter && i < pieces.length - 1 ? `${text}\n` : text)).join("");
