// A generated TypeScript file cut into runs of top-level statements, so each is formatted once a
// run: prettier prints a program's statements one after another, each independent of the others
// (a blank line between two kept as one), and the versions of a contract repeat most of their
// validators, types and projections word for word. A cut is made only before a line that starts a
// statement or its comment at column 0 after a line that ends one; a cut inside a construct
// (a template literal, a block) leaves a piece prettier cannot parse, and then the caller formats
// the file whole. test/format/format.test.ts checks every emitted file against prettier.
//
// A long function (a wide contract's `err_root` is megabytes) is cut the same way inside its body,
// between statements at its first indentation: each run of them is formatted as the body of a
// stand-in `function _() {`, whose first and last lines are then dropped, so the pieces of one
// function format in parallel and the runs two versions share are formatted once.

/**
 * One piece: its text without trailing blank lines, and whether a blank line followed it. A piece
 * of a function's body (`part`) is sent as that body wrapped: `head` is the function's own first
 * lines and a closing `}` to drop, `middle` the stand-in's first line and `}` to drop, `tail` the
 * stand-in's first line to drop (its `}` is the function's).
 */
export interface Statements {
  readonly text: string;
  readonly blankAfter: boolean;
  readonly part?: "head" | "middle" | "tail";
}

/**
 * `text` cut after the line comments that open it (a file's header, on its first statement): those
 * lines as prettier prints them (trailing blanks dropped, a run of blank lines kept as one), each
 * with its newline, and the statement after them.
 */
export const leadingLineComments = (text: string): { readonly comments: string; readonly rest: string } => {
  if (!text.startsWith("//")) return { comments: "", rest: text };
  const lines = text.split("\n");
  let start = 0;
  while (start < lines.length - 1 && (lines[start]!.startsWith("//") || lines[start]!.trim() === "")) start++;
  const kept = lines.slice(0, start).map((line) => line.trimEnd());
  const comments = kept.filter((line, i) => line !== "" || kept[i - 1] !== "").map((line) => `${line}\n`).join("");
  return { comments, rest: lines.slice(start).join("\n") };
};

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

/**
 * Where a function is cut: a function longer than `cut` characters, between the statements of its
 * body, each piece at least `piece` characters.
 */
export interface BodyCuts {
  readonly cut: number;
  readonly piece: number;
}
/** For the format pool: pieces of about one field's tests, of functions long enough to share out. */
const BODY_CUTS: BodyCuts = { cut: 4096, piece: 1024 };
/** Every statement of any function's body apart (see code-layout.ts's shapes). */
export const EVERY_STATEMENT: BodyCuts = { cut: 0, piece: 0 };
const FUNCTION_HEAD = /^(?:export )?(async )?function [A-Za-z_$][\w$]*\s*[(<]/;
/** A statement at the body's first indentation that nothing before it can continue. */
const BODY_STATEMENT = /^  (?:const |let |var |if \(|for \(|switch \(|return\b|throw |try \{|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(| = ))/;
const STAND_IN = "function _() {\n";
const STAND_IN_ASYNC = "async function _() {\n";

/**
 * The pieces of one top-level statement (its `lines`, no trailing blank line) cut inside its body
 * when it is a function whose body is all indented; undefined when it is not, or has no cut.
 */
const cutFunction = (lines: readonly string[], blankAfter: boolean, pieceSize: number): Statements[] | undefined => {
  const start = lines.findIndex((line) => !blank(line) && !COMMENT.test(line) && !line.startsWith(" "));
  const head = start < 0 ? null : FUNCTION_HEAD.exec(lines[start]!);
  if (head === null || lines.at(-1) !== "}") return undefined;
  let open = start;
  while (open < lines.length - 1 && !lines[open]!.endsWith("{")) open++;
  const cuts: number[] = [];
  let size = 0;
  let last = "";
  for (let i = open + 1; i < lines.length - 1; i++) {
    const line = lines[i]!;
    // A line at column 0 before the last: the body is not what it seems (a header over several lines).
    if (line !== "" && !line.startsWith(" ")) return undefined;
    const ended = last.startsWith("  ") && !last.startsWith("   ") && (last.endsWith(";") || last.endsWith("}"));
    if (size >= pieceSize && ended && BODY_STATEMENT.test(line)) {
      cuts.push(i);
      size = 0;
    }
    size += line.length + 1;
    if (!blank(line)) last = line.trimEnd();
  }
  if (cuts.length === 0) return undefined;
  const standIn = head[1] === undefined ? STAND_IN : STAND_IN_ASYNC;
  const bounds = [open + 1, ...cuts, lines.length - 1];
  return bounds.slice(0, -1).map((from, k) => {
    let end = bounds[k + 1]!;
    const to = end;
    while (end > from && blank(lines[end - 1]!)) end--;
    const body = `${lines.slice(from, end).join("\n")}\n`;
    const first = k === 0;
    const final = k === bounds.length - 2;
    return {
      text: `${first ? `${lines.slice(0, open + 1).join("\n")}\n` : standIn}${body}}\n`,
      blankAfter: final ? blankAfter : end < to,
      part: first ? "head" : final ? "tail" : "middle",
    };
  });
};

/** The pieces of `text` in order; one piece when it cannot be cut. */
export const splitStatements = (text: string, body: BodyCuts = BODY_CUTS): Statements[] => {
  const lines = text.split("\n");
  const pieces: string[][] = [];
  let current: string[] = [];
  let lastCode = "";
  let afterBlank = false;
  for (const line of lines) {
    // A blank line ends a statement json-schema-to-typescript wrote without its semicolon (a type
    // alias): uncut, the declaration after it was never the one its emitter laid out (types.ts's
    // `laidOut`), and prettier formatted both.
    const ended = lastCode === "" || lastCode.endsWith(";") || lastCode.endsWith("}");
    const opens = STATEMENT.test(line) || COMMENT.test(line);
    if (current.length > 0 && opens && (ended || (afterBlank && startsStatement(current)))) {
      if (pieces.length > 0 && !startsStatement(current)) pieces.at(-1)!.push(...current);
      else pieces.push(current);
      current = [];
    }
    current.push(line);
    afterBlank = blank(line);
    if (!afterBlank) lastCode = line.trimEnd();
  }
  if (pieces.length > 0 && !startsStatement(current)) pieces.at(-1)!.push(...current);
  else pieces.push(current);
  return pieces.flatMap((piece) => {
    let end = piece.length;
    while (end > 0 && blank(piece[end - 1]!)) end--;
    const text = `${piece.slice(0, end).join("\n")}\n`;
    const blankAfter = end < piece.length;
    return (text.length > body.cut ? cutFunction(piece.slice(0, end), blankAfter, body.piece) : undefined) ?? [{ text, blankAfter }];
  });
};

/** A formatted piece of a function's body without the lines its wrapping added; throws if they are not there. */
const unwrap = (piece: Statements, text: string): string => {
  if (piece.part === undefined) return text;
  let from = 0;
  if (piece.part !== "head") {
    const standIn = piece.text.startsWith(STAND_IN) ? STAND_IN : STAND_IN_ASYNC;
    if (!text.startsWith(standIn)) throw new Error("a body piece came back without its stand-in function");
    from = standIn.length;
  }
  let to = text.length;
  if (piece.part !== "tail") {
    if (!text.endsWith("\n}\n")) throw new Error("a body piece came back without its closing brace");
    to -= 2;
  }
  return text.slice(from, to);
};

/** The formatted pieces as prettier prints the file they came from (throws when a body piece did not come back whole). */
export const joinStatements = (pieces: readonly Statements[], formatted: readonly string[]): string =>
  formatted.map((text, i) => {
    const piece = pieces[i]!;
    const own = unwrap(piece, text);
    return piece.blankAfter && i < pieces.length - 1 ? `${own}\n` : own;
  }).join("");
