// A file formatted as its top-level statements is what prettier prints for the whole file, or a
// piece does not parse (and the format pool formats the file whole).
import { format } from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFormatCache, statementsKey } from "../../src/format/format-cache.js";
import { createFormatPool } from "../../src/format/format-pool.js";
import { joinStatements, splitStatements } from "../../src/format/statements.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";

const prettier = (text: string): Promise<string> => format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" });

/** The file formatted piece by piece, or undefined when a piece does not parse. */
const byPieces = async (text: string): Promise<string | undefined> => {
  const pieces = splitStatements(text);
  try {
    return joinStatements(pieces, await Promise.all(pieces.map((p) => prettier(p.text))));
  } catch {
    return undefined;
  }
};

const SOURCES = [
  // Blank lines kept as one, comments with the statement after them, a header comment.
  '// @generated\nimport {a} from "a";\nimport type {B} from "b";\n\n\nfunction f(x:number){return x+1}\n// about g\n\nexport const g = {a:1,\n b:2};\n/** doc */\nexport function h(){}\n\n',
  // A comment that ends like a statement, a statement after a block comment.
  "const a = 1;\n// ends with }\nconst b = 2;\n/* block\n   export const x = 1;\n*/\nlet c = 3;\n",
  // What follows `{}` on its own line could be a call: kept with it.
  "const a = {}\n/* c */\n(globalThis as any).x = a;\n",
  // A cut inside a template literal leaves pieces that do not parse.
  "const t = `\nconst inner = 1;\n`;\nexport {};\n",
  "export type T = {\n  a: string;\n};\nexport interface I { b: T }\ntype U = T | I;\n",
  // json-schema-to-typescript's declarations: aliases without their semicolon, members at column 0,
  // a blank line inside an interface before a member's comment.
  '// @generated\n\n\n/**\n * A.\n */\nexport type A = ("x" | "y")\n\n/**\n * B.\n */\nexport interface B {\n/**\n * a\n */\na: A\nb: {\nc: string\n}\n\n/**\n * d\n */\nd?: string\n}\n\nexport type C = string[]\n',
];

/** A function whose body is longer than the cut threshold: field-like runs of statements, blank lines, comments, nested blocks, `else` after `}`. */
const longFunction = (runs: number, prefix = ""): string => {
  const lines = [`/** doc */`, `${prefix}function err_root(v: any, p: string, out: string[]): void {`];
  for (let i = 0; i < runs; i++) {
    lines.push(`  const f${i} = v.field_${i};`);
    lines.push(`  if (f${i} === undefined) out.push(p + "/field_${i}" + "missing field: expected a string of at most ${i} characters, said at length");`);
    lines.push(`  else {`, `    if (!(typeof f${i} === "string")) out.push("wrong type");`, `    else if (f${i}.length > ${i}) out.push('too long');`, `  }`);
    if (i % 7 === 3) lines.push("", "");
    if (i % 5 === 1) lines.push(`  // about field ${i + 1}`);
    if (i % 11 === 4) lines.push(`  if (f${i}) {`, `    out.push("a");`, `  }`, `  else out.push("b");`);
  }
  lines.push(`  return;`, `}`, ``, `export const after = 1;`);
  return `${lines.join("\n")}\n`;
};

describe("splitStatements", () => {
  it.each([
    ["a function", longFunction(120)],
    ["an exported async function", longFunction(90, "export async ")],
  ])("cuts %s inside its body, and the pieces format as prettier formats it whole", async (_, source) => {
    const pieces = splitStatements(source);
    expect(pieces.filter((p) => p.part !== undefined).length).toBeGreaterThan(3);
    expect(pieces.map((p) => p.part)).toContain("tail");
    expect(await byPieces(source)).toBe(await prettier(source));
  });

  it("leaves a function whose body has a line at column 0 whole, and a cut inside a template literal makes the pool format the file whole", async () => {
    const atColumn0 = longFunction(60).replace("  return;", "  const t = `\n  const inner = 1;\n`;\n  return;");
    expect(splitStatements(atColumn0).some((p) => p.part !== undefined)).toBe(false);
    const template = longFunction(60).replace(/^  else \{$/gm, "  {").replace(/^  const (f\d+) = (.*);$/gm, "  const $1 = `\n  const inner = $2;\n  if (x) y();\n  `;");
    expect(await byPieces(template)).toBeUndefined();
    const pool = createFormatPool(createFormatCache(undefined, { readOnly: false }));
    try {
      expect(await pool.format({ path: "a.ts", language: "typescript", contents: template })).toBe(await prettier(template));
    } finally {
      await pool.close();
    }
  });

  it("refuses a body piece that came back without its stand-in function", () => {
    const pieces = splitStatements(longFunction(120));
    const middle = pieces.findIndex((p) => p.part === "middle");
    expect(() => joinStatements(pieces, pieces.map((p, i) => (i === middle ? "const forged = 1;\n" : p.text)))).toThrow();
  });


  it.each(SOURCES.map((source, i) => [i, source] as const))("source %i formats piece by piece as prettier formats it whole", async (_, source) => {
    const pieces = await byPieces(source);
    if (pieces !== undefined) expect(pieces).toBe(await prettier(source));
  });

  it("cuts between top-level statements only", () => {
    expect(splitStatements(SOURCES[0]!).map((p) => p.text)).toEqual([
      '// @generated\nimport {a} from "a";\n',
      'import type {B} from "b";\n',
      "function f(x:number){return x+1}\n",
      "// about g\n\nexport const g = {a:1,\n b:2};\n",
      "/** doc */\nexport function h(){}\n",
    ]);
    expect(splitStatements(SOURCES[2]!)).toHaveLength(1);
  });

  it("cuts after a declaration written without its semicolon where a blank line follows it (json-schema-to-typescript's type aliases), so each is the declaration its emitter laid out", () => {
    const source = SOURCES[5]!;
    expect(splitStatements(source).map((p) => p.text.split("\n").find((line) => line.startsWith("export")))).toEqual(["export type A = (\"x\" | \"y\")", "export interface B {", "export type C = string[]"]);
    // The header stays with the first declaration, and a blank line inside a declaration cuts nothing.
    expect(splitStatements(source)[0]!.text.startsWith("// @generated\n")).toBe(true);
    expect(splitStatements(source)[1]!.text).toContain("d?: string\n}\n");
  });
});

describe("the format pool", () => {
  it("formats files that share statements (each formatted once, in one call a file) as prettier formats each whole", async () => {
    const pool = createFormatPool(createFormatCache(undefined, { readOnly: false }));
    try {
      for (const source of [...SOURCES, SOURCES.slice(0, 2).join(""), SOURCES.slice(1).join("\n")]) {
        expect(await pool.format({ path: "a.ts", language: "typescript", contents: source })).toBe(await prettier(source));
      }
    } finally {
      await pool.close();
    }
  });
});

describe("statements whose layout the emitter knew (EmittedFile.laidOut)", () => {
  const declaration = "export interface A {\na: string\n}\n";
  const laidOut = new Map([[declaration, "export interface A {\n  a: string; // as the emitter laid it out\n}\n"]]);
  it("are used as they are, after the file's header (its blank lines as prettier keeps them), and prettier formats the rest", async () => {
    const pool = createFormatPool(createFormatCache(undefined, { readOnly: false }));
    try {
      // One piece: the header and the declaration.
      expect(await pool.format({ path: "one.ts", language: "typescript", contents: `// @generated\n\n\n${declaration}`, laidOut })).toBe(
        "// @generated\n\nexport interface A {\n  a: string; // as the emitter laid it out\n}\n",
      );
      const other = "export type B = (\"x\" | \"y\")\n";
      expect(await pool.format({ path: "two.ts", language: "typescript", contents: `// @generated\nimport type { C } from "c";\n\n${declaration}\n${other}`, laidOut })).toBe(
        '// @generated\nimport type { C } from "c";\n\nexport interface A {\n  a: string; // as the emitter laid it out\n}\n\nexport type B = "x" | "y";\n',
      );
    } finally {
      await pool.close();
    }
  });
});

describe("a file of data declarations and imports or exports of names", () => {
  const projection = 'import type { Shape } from "treaty/runtime";\n\nexport const shape = {a:1, b:["x","y"]} as const;\n\nexport const tool = {name:"t"};\n\nexport { from } from "./llm-reply.js";\n';
  it("is printed as prettier prints it, and never fills the cache", async () => {
    const calls: string[] = [];
    const inner = createFormatCache(undefined, { readOnly: false });
    const pool = createFormatPool({ get: (key) => (calls.push("get"), inner.get(key)), set: (key, text) => (calls.push("set"), inner.set(key, text)), close: inner.close });
    try {
      expect(await pool.format({ path: "v1/llm.ts", language: "typescript", contents: projection })).toBe(await prettier(projection));
      expect(calls).toEqual(["get"]);
      // With one statement of code, the file is formatted through the cache again.
      const code = `${projection}export function f(){return 1}\n`;
      expect(await pool.format({ path: "v1/llm.ts", language: "typescript", contents: code })).toBe(await prettier(code));
      expect(calls).toContain("set");
    } finally {
      await pool.close();
    }
  });
});

describe("statements kept in the cache for the next run", () => {
  const scratch = mkdtempSync(join(tmpdir(), "treaty-statements-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  // Not declarations of data, which are laid out without prettier (json-layout.ts) and never cached.
  const before = "export type A = {x:number};\nexport function b(){return [1,2]}\nexport type C = 'c';\n";
  const after = before.replace("[1,2]", "[1,2,3]");
  /** One run of the pool over `contents` at `path`, with the cache in `dir`. */
  const formatOnce = async (dir: string, contents: string): Promise<string> => {
    const cache = createFormatCache(dir, { readOnly: false });
    const pool = createFormatPool(cache);
    try {
      return await pool.format({ path: "v1/types.ts", language: "typescript", contents });
    } finally {
      await pool.close();
      cache.close();
    }
  };
  /** The cache's statements of the file with each formatted text replaced, through the cache (so its checksums hold). */
  const forge = async (dir: string): Promise<void> => {
    const cache = createFormatCache(dir, { readOnly: false });
    const entry = JSON.parse(cache.get(statementsKey("v1/types.ts"))!) as { statements: [string, string][] };
    const statements = entry.statements.map(([key]) => [key, "export const forged = 1;\n"]);
    cache.set(statementsKey("v1/types.ts"), JSON.stringify({ statements }));
    cache.close();
  };
  /** Every entry of every pack with a byte changed, the packs' indexes left whole. */
  const spoil = (dir: string): void => {
    for (const name of readdirSync(join(dir, "format-packs"))) {
      const file = join(dir, "format-packs", name);
      const bytes = readFileSync(file);
      const end = Number(bytes.subarray(bytes.length - 20).toString());
      for (let at = "treaty format pack 2\n".length; at < end; at += 7) bytes[at] = bytes[at]! ^ 0x01;
      writeFileSync(file, bytes);
    }
  };

  it("serve a changed file's unchanged statements, and the file is as prettier formats it whole", async () => {
    const dir = join(scratch, "kept");
    expect(await formatOnce(dir, before)).toBe(await prettier(before));
    await forge(dir);
    // A checksummed entry is trusted: the unchanged statements come from it (here forged, to show it).
    expect(await formatOnce(dir, after)).toBe("export const forged = 1;\nexport function b() {\n  return [1, 2, 3];\n}\nexport const forged = 1;\n");
  });

  it("are not trusted when their checksum does not verify", async () => {
    const dir = join(scratch, "spoiled");
    await formatOnce(dir, before);
    await forge(dir);
    spoil(dir);
    expect(await formatOnce(dir, after)).toBe(await prettier(after));
  });
});
