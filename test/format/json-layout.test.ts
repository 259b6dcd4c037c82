// layoutJson against its referee: on any JSON text it does not decline, it prints what prettier's
// json parser prints with treaty's options, byte for byte.
import fc from "fast-check";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { layoutJson } from "../../src/format/json-layout.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";

const prettier = (text: string): Promise<string> => format(text, { ...PRETTIER_OPTIONS, parser: "json" });

// Widths near the 100 columns where a group flips, so fits decisions are what is tested.
const word = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "b", " ", '"', "\\", "'", "/", "\n", "\u0001"), maxLength: 12 }),
  fc.integer({ min: 0, max: 90 }).map((n) => "x".repeat(n)),
  fc.constantFrom("é", "日本", "\u2028"),
);
const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e21, -0, 0.1, 5e-324));
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    word,
    number,
    fc.constantFrom(true, false, null),
    fc.array(tie("v"), { maxLength: 6 }),
    fc.array(number, { maxLength: 40 }),
    fc.array(fc.array(number, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
    fc.dictionary(word, tie("v"), { maxKeys: 5 }),
  ),
})).v;

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
    let printed = 0;
    await fc.assert(
      fc.asyncProperty(value, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), async (v, choices) => {
        let i = 0;
        const text = render(v, () => choices[i++ % choices.length]!);
        const mine = layoutJson(text);
        if (mine === undefined) return;
        printed++;
        expect(mine).toBe(await prettier(text));
      }),
      { numRuns: 600 },
    );
    // Declining is for the rare case (a width that needs non-ASCII text, an escape prettier rewrites).
    expect(printed).toBeGreaterThan(300);
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
