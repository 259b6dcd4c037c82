// layoutJson and layoutDeclaration against their referee: on any JSON text (any TypeScript
// declaration of data) they do not decline, they print what prettier's json (babel-ts) parser
// prints with treaty's options, byte for byte.
import fc from "fast-check";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { layoutDeclaration, layoutJson, layoutValue } from "../../src/format/json-layout.js";
import { OneLine } from "../../src/emit/file-builder.js";
import { emitFile } from "../../src/emit/emit.js";
import { plan } from "../../src/plan/plan.js";
import { adapt } from "../../src/adapt/adapt.js";
import { emitLlm } from "../../src/emit/llm.js";
import { emitShape } from "../../src/emit/shape.js";
import { splitStatements } from "../../src/format/statements.js";
import { compile } from "../../src/pipeline.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { join } from "node:path";

const prettier = (text: string): Promise<string> => format(text, { ...PRETTIER_OPTIONS, parser: "json" });

// Widths near the 100 columns where a group flips, so fits decisions are what is tested.
const word = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "b", " ", '"', "\\", "'", "/", "\n", "\u0001"), maxLength: 12 }),
  fc.integer({ min: 0, max: 90 }).map((n) => "x".repeat(n)),
  fc.constantFrom("é", "日本", "\u2028"),
);
const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e21, -0, 0.1, 5e-324));
/** Values with `keys` as object keys and `extra` among the leaves. */
const values = (keys: fc.Arbitrary<string>, extra: readonly fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown> =>
  fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      word,
      number,
      fc.constantFrom(true, false, null),
      ...extra,
      fc.array(tie("v"), { maxLength: 6 }),
      fc.array(number, { maxLength: 40 }),
      fc.array(fc.array(number, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
      fc.dictionary(keys, tie("v"), { maxKeys: 5 }),
    ),
  })).v;
const value = values(word, []);

/**
 * Asserts that `layout` prints what `referee` prints of every text `texts` yields, or declines, and
 * prints at least `least` of the `runs`: declining is for the rare case.
 */
const agreesWithPrettier = async (texts: fc.Arbitrary<string>, layout: (text: string) => string | undefined, referee: (text: string) => Promise<string>, runs: number, least: number): Promise<void> => {
  let printed = 0;
  await fc.assert(
    fc.asyncProperty(texts, async (text) => {
      const mine = layout(text);
      if (mine === undefined) return;
      printed++;
      expect(mine).toBe(await referee(text));
    }),
    { numRuns: runs },
  );
  expect(printed).toBeGreaterThan(least);
};

/** `choices` taken in turn, round and round: the decisions of one rendering. */
const chooser = (choices: readonly boolean[]): (() => boolean) => {
  let i = 0;
  return () => choices[i++ % choices.length]!;
};
const choices = fc.array(fc.boolean(), { minLength: 1, maxLength: 16 });

/** `v` as JSON text, each object expanded (a line break before its first key) or compact by `expand`. */
const render = (v: unknown, expand: () => boolean, indent = ""): string => {
  if (Array.isArray(v)) return `[${v.map((item) => render(item, expand, indent)).join(", ")}]`;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const entries = Object.entries(v);
  if (entries.length === 0) return "{}";
  if (!expand()) return `{${entries.map(([k, item]) => `${JSON.stringify(k)}: ${render(item, expand, indent)}`).join(", ")}}`;
  const inner = `${indent}  `;
  return `{\n${entries.map(([k, item]) => `${inner}${JSON.stringify(k)}: ${render(item, expand, inner)}`).join(",\n")}\n${indent}}`;
};

describe("layoutJson", () => {
  it("prints what prettier prints, or declines", async () => {
    // Declining is for a width that needs non-ASCII text, an escape prettier rewrites.
    const texts = fc.tuple(value, choices).map(([v, c]) => render(v, chooser(c)));
    await agreesWithPrettier(texts, layoutJson, prettier, 600, 300);
  });

  it("prints JSON.stringify's layout of a JSON Schema-like value", async () => {
    const text = JSON.stringify({ type: "object", required: ["a", "b"], properties: { a: { enum: [1, 2, 3] }, b: {} }, n: [1e21, -0.5] }, null, 2);
    expect(layoutJson(text)).toBe(await prettier(text));
  });

  it("prints an empty array or object as [] or {} past the line width, as prettier does", async () => {
    let deep: unknown = [];
    for (let i = 0; i < 60; i++) deep = [deep];
    const text = JSON.stringify({ deep, key: { nested: [{}, [], { a: [] }] } }, null, 2);
    expect(layoutJson(text)).toBe(await prettier(text));
  });

  it("declines what prettier would print differently from its rules (blank lines, rewritten escapes)", () => {
    expect(layoutJson('{\n  "a": 1,\n\n  "b": 2\n}')).toBeUndefined();
    expect(layoutJson('{ "a": "\\/" }')).toBeUndefined();
    expect(layoutJson("// comment\n{}")).toBeUndefined();
  });
});

/** `data` as its file's text (see `EmittedFile.data`): JSON.stringify(data, null, 2), a `OneLine` part on one line. */
const renderData = (v: unknown, indent = ""): string => {
  if (v instanceof OneLine) return JSON.stringify(v.value);
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((item) => `${inner}${renderData(item, inner)}`).join(",\n")}\n${indent}]`;
  const entries = Object.entries(v);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, item]) => `${inner}${JSON.stringify(k)}: ${renderData(item, inner)}`).join(",\n")}\n${indent}}`;
};

/** Values with some parts marked as written on one line. */
const data: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    word,
    number,
    fc.constantFrom(true, false, null),
    fc.array(tie("v"), { maxLength: 6 }),
    fc.array(number, { maxLength: 40 }),
    fc.dictionary(word, tie("v"), { maxKeys: 5 }),
    value.map((v) => new OneLine(v)),
  ),
})).v;

describe("layoutValue", () => {
  it("prints what prettier prints of the text written from the data, or declines", async () => {
    let printed = 0;
    await fc.assert(
      fc.asyncProperty(data, async (d) => {
        const text = `${renderData(d)}\n`;
        const mine = layoutValue(d);
        // The text's layout, without parsing it: the same decisions, and the same declines but
        // where a group holding text other than ASCII is too wide by its ASCII alone (the value's
        // layout stops measuring there and breaks it, as prettier does).
        const fromText = layoutJson(text);
        if (fromText !== undefined) expect(mine).toBe(fromText);
        if (mine === undefined) return;
        printed++;
        expect(mine).toBe(await prettier(text));
      }),
      { numRuns: 600 },
    );
    expect(printed).toBeGreaterThan(300);
  });

  it("writes what JSON.stringify leaves out or writes as null as it does", () => {
    const value = { a: undefined, b: [undefined, () => 1, Number.NaN, Infinity], c: new Map([["k", 1]]), d: -0, e: 1e21 };
    // eslint-disable-next-line no-sparse-arrays
    const holes = [1, , 3];
    for (const v of [value, holes]) expect(layoutValue(v)).toBe(layoutJson(`${JSON.stringify(v, null, 2)}\n`));
    expect(layoutValue({ at: new Date(0) })).toBeUndefined();
    expect(layoutValue({ n: 1n })).toBeUndefined();
  });

  it("lays out a list or a OneLine part met at two places by where each one is", async () => {
    // One list at two columns, flat at one and across lines at the other.
    const shared = ["x".repeat(30), "y".repeat(30)];
    const part = new OneLine({ a: shared, b: 1 });
    const value = { k: shared, [`${"z".repeat(30)}`]: shared, nested: { parts: [part, part] }, again: part };
    const mine = layoutValue(value);
    expect(mine).toBe(layoutJson(`${renderData(value)}\n`));
    expect(mine).toContain(`"k": ["${"x".repeat(30)}", "${"y".repeat(30)}"]`);
    expect(mine).toContain(`"${"z".repeat(30)}": [\n    "${"x".repeat(30)}",`);
    expect(mine).toBe(await prettier(`${renderData(value)}\n`));
  });

  it("lays out every JSON file emitted for the seed contracts from its data as from its text", () => {
    const dirs = { root: join(import.meta.dirname, "../.."), idlDir: join(import.meta.dirname, "../../idl"), outDir: join(import.meta.dirname, "../../generated") };
    const project = compile(dirs).value!;
    const jobs = plan(project, adapt(project, dirs).value, { tests: true, dirs }).value;
    let checked = 0;
    for (const job of jobs) {
      const file = emitFile(project, job, "idl");
      if (file instanceof Promise || file.language !== "json") continue;
      if (file.data === undefined) continue;
      checked++;
      const mine = layoutValue(file.data);
      expect(mine, file.path).toBeDefined();
      expect(mine, file.path).toBe(layoutJson(file.contents));
    }
    expect(checked).toBeGreaterThan(50);
  });
});

const prettierTs = (text: string): Promise<string> => format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" });

// Keys as contracts name fields (some need quotes, some are numbers, some lose their quotes), and
// lengths about the five columns from which a long string moves under its key.
const key = fc.oneof(
  fc.constantFrom("a", "key", "type", "$ref", "_x", "a-b", "1", "1.5", "é", "class", "it's", 'say "x"', "a b", "\\", "__proto__", "description"),
  fc.string({ unit: fc.constantFrom("a", "b", "_", "-", "1", "'", '"'), minLength: 1, maxLength: 8 }),
);
const NAME = "\u0000name";
// Another constant, by name (as a shared schema is referred to).
const tsValue = values(key, [fc.constantFrom("openaiSchema", "fromOpenAI").map((name) => ({ [NAME]: name }))]);

/** `v` as TypeScript text the emitters could write: JSON-like, keys quoted or bare, some trailing commas. */
const renderTs = (v: unknown, choose: () => boolean): string => {
  if (Array.isArray(v)) return `[${v.map((item) => renderTs(item, choose)).join(", ")}${v.length > 0 && choose() ? "," : ""}]`;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (NAME in v) return (v as Record<string, string>)[NAME]!;
  const entries = Object.entries(v);
  if (entries.length === 0) return "{}";
  const printedKey = (k: string): string => (k === "__proto__" ? '["__proto__"]' : /^[A-Za-z_$][\w$]*$/.test(k) && choose() ? k : JSON.stringify(k));
  return `{ ${entries.map(([k, item]) => `${printedKey(k)}: ${renderTs(item, choose)}`).join(", ")}${choose() ? "," : ""} }`;
};

const COMMENTS = ["", "/** One line. */\n", "// A comment.\n// Another.\n\n", "/**\n * A block\n * of two lines.\n */\n", "// @generated\n\n\n// What it is.\n\n"];

describe("layoutDeclaration", () => {
  it("prints what prettier prints, or declines", async () => {
    const heads = ["const a = ", "export const openai = ", "export const TaskResultV1_2Shape: VersionShape = "];
    const texts = fc
      .tuple(tsValue, choices, fc.nat())
      .map(([v, c, n]) => `${COMMENTS[n % COMMENTS.length]}${heads[n % 3]}${renderTs(v, chooser(c))}${n % 2 ? " as const" : ""};\n`);
    await agreesWithPrettier(texts, layoutDeclaration, prettierTs, 800, 400);
  });

  it("moves a long string under a key of five columns or more, never under a shorter one", async () => {
    for (const k of ["abcd", "abcde", '"a-b"', "description"]) {
      const text = `export const x = { ${k}: ${JSON.stringify("y".repeat(92))}, n: 1 } as const;\n`;
      expect(layoutDeclaration(text)).toBe(await prettierTs(text));
    }
  });

  it("declines what is not a declaration of data, or where prettier's layout is not certain", () => {
    for (const text of [
      "export const x = Type.Object({ a: 1 });\n",
      "const re = new RegExp(\"^a$\", \"u\");\n",
      "export const x = { a: { b: 1 } as const };\n",
      `export const x = { key: ${"a".repeat(100)} };\n`,
      `export const x = ${JSON.stringify("z".repeat(100))};\n`,
      "/* not a doc block */\nconst a = 1;\n",
      "// trailing space \nconst a = 1;\n",
      "const a = 1;\nconst b = 2;\n",
      // Where prettier may break after `=` or a colon, or tests ES5's identifier names.
      `export const ${"N".repeat(100)} = { a: 1 };\n`,
      `export const x = { ${"k".repeat(100)}: { a: 1 } };\n`,
      'export const x = { "é": 1 };\n',
    ]) {
      expect(layoutDeclaration(text), text).toBeUndefined();
    }
  });

  it("lays out the LLM projections and shapes of the seed contracts, as prettier does", async () => {
    const project = compile({ root: join(import.meta.dirname, "../.."), idlDir: join(import.meta.dirname, "../../idl") }).value!;
    let direct = 0;
    for (const contract of project.contracts) {
      for (const version of contract.versions) {
        for (const file of [emitLlm(project, contract, version), emitShape(project, contract, version)]) {
          for (const piece of splitStatements(file.contents)) {
            const mine = layoutDeclaration(piece.text);
            if (mine === undefined) continue;
            direct++;
            expect(mine, `${file.path}: ${piece.text.slice(0, 80)}`).toBe(await prettierTs(piece.text));
          }
        }
      }
    }
    // Every projection (four providers of every version) at least.
    expect(direct).toBeGreaterThan(4 * project.contracts.reduce((n, c) => n + c.versions.length, 0));
  });
});
