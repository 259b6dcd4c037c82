// Golden cases under test/fixtures/repair/: <name>.txt is the raw text, <name>.expected.json what
// repairJson makes of it. UPDATE=1 rewrites the expected files (review the diff by hand).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_REPAIRED_LENGTH, REPAIR_FLAGS, repairJson, type RepairFlag, type RepairResult } from "../../src/runtime/index.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/repair");
const UPDATE = process.env["UPDATE"] === "1";

const golden = (result: RepairResult): unknown =>
  result.ok ? { value: result.value, repairs: result.repairs } : { error: result.error.code, ...(result.error.position === undefined ? {} : { position: result.error.position }) };

const cases = readdirSync(FIXTURES)
  .filter((file) => file.endsWith(".txt"))
  .map((file) => file.slice(0, -".txt".length))
  .sort();

describe("repairJson golden cases", () => {
  it("has at least 40 cases, each fix alone and failures among them", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    const expected = cases.map((name) => JSON.parse(readFileSync(join(FIXTURES, `${name}.expected.json`), "utf8")) as { repairs?: RepairFlag[]; error?: string });
    for (const flag of REPAIR_FLAGS) expect(expected.some((e) => e.repairs?.length === 1 && e.repairs[0] === flag), flag).toBe(true);
    expect(expected.filter((e) => e.error === "UNPARSEABLE").length).toBeGreaterThanOrEqual(10);
  });

  for (const name of cases) {
    it(name, () => {
      const text = readFileSync(join(FIXTURES, `${name}.txt`), "utf8");
      const actual = golden(repairJson(text));
      const path = join(FIXTURES, `${name}.expected.json`);
      if (UPDATE) writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
      expect(actual).toEqual(JSON.parse(readFileSync(path, "utf8")));
    });
  }
});

// ---- properties ---------------------------------------------------------------------------------

const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Writes `v` with the slips `style` asks for, and returns the flags the slips actually used. */
const sloppy = (v: unknown, style: Record<"single" | "typographic" | "unquoted" | "python" | "trailing" | "comments", boolean>) => {
  const used = new Set<RepairFlag>();
  const quote = (s: string): string => {
    if (!style.single && !style.typographic) return JSON.stringify(s);
    const [open, close, flag] = style.single ? (["'", "'", "single-quotes"] as const) : (["\u201C", "\u201D", "typographic-quotes"] as const);
    used.add(flag);
    // Per code point: JSON escapes for everything but `"`, which may stand bare; the closing quote is escaped.
    const body = [...s].map((c) => (c === close ? `\\${c}` : c === '"' ? c : JSON.stringify(c).slice(1, -1))).join("");
    return `${open}${body}${close}`;
  };
  const gap = (): string => {
    if (!style.comments) return "";
    used.add("comments");
    return " /* gap */ ";
  };
  const trailing = (n: number): string => {
    if (!style.trailing || n === 0) return "";
    used.add("trailing-comma");
    return ",";
  };
  const write = (x: unknown): string => {
    if (x === null || typeof x === "boolean") {
      if (!style.python) return String(x);
      used.add("python-literals");
      return x === null ? "None" : x ? "True" : "False";
    }
    if (typeof x === "number") return JSON.stringify(x);
    if (typeof x === "string") return quote(x);
    if (Array.isArray(x)) return `[${gap()}${x.map(write).join(`,${gap()}`)}${trailing(x.length)}]`;
    const entries = Object.entries(x as Record<string, unknown>).map(([k, value]) => {
      const key = style.unquoted && IDENTIFIER.test(k) ? (used.add("unquoted-keys"), k) : quote(k);
      return `${key}${gap()}:${write(value)}`;
    });
    return `{${gap()}${entries.join(",")}${trailing(entries.length)}}`;
  };
  const text = write(v);
  return { text, flags: REPAIR_FLAGS.filter((flag) => used.has(flag)) };
};

// Prose without quotes, brackets or backticks: the words a model puts around its answer.
const prose = fc.oneof(
  fc.constantFrom("Here is the result:", "Sure! Here's the JSON you asked for.", "Hope this helps.", "Let me know if you'd like changes (e.g. more items)."),
  fc.string({ maxLength: 40 }).filter((s) => !/["'{}[\]`\u201C\u2018]/.test(s) && /\S/.test(s)),
);

describe("repairJson properties", () => {
  it("returns JSON.parse's value and no repairs for any valid JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        const text = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
        expect(repairJson(text)).toEqual({ ok: true, value: JSON.parse(text), repairs: [] });
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses an object that names a key twice, wherever it is, at the second naming; keys alike in different objects pass", () => {
    const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 });
    fc.assert(
      fc.property(object, fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("top", "in-array", "nested"), (o, pick, again, where) => {
        const key = Object.keys(o)[pick % Object.keys(o).length]!;
        // Written twice: the object's text, then the key once more (as JSON writes it, or with its first letter escaped).
        const written = key.length > 0 && pick % 2 === 0 ? `"\\u${key.charCodeAt(0).toString(16).padStart(4, "0")}${JSON.stringify(key.slice(1)).slice(1)}` : JSON.stringify(key);
        const inner = `${JSON.stringify(o).slice(0, -1)},${written}:${JSON.stringify(again)}}`;
        const [before, after] = where === "top" ? ["", ""] : where === "in-array" ? ["[1,", "]"] : ['{"outer":{"x":', "}}"];
        const text = `${before}${inner}${after}`;
        const result = repairJson(text);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.position).toBe(before.length + JSON.stringify(o).length);
        // The same keys in sibling objects are no repetition.
        expect(repairJson(`[${JSON.stringify(o)},${JSON.stringify(o)}]`)).toEqual({ ok: true, value: [o, o].map(asJson), repairs: [] });
      }),
      { numRuns: 1000 },
    );
  });

  it("undoes a fence and prose around pretty JSON, naming exactly what was added", () => {
    const wrapping = fc.record({ before: fc.option(prose, { nil: undefined }), after: fc.option(prose, { nil: undefined }), tag: fc.constantFrom("json", "JSON", "jsonc", "") });
    fc.assert(
      fc.property(fc.jsonValue(), wrapping, (v, { before, after, tag }) => {
        const text = [before, "```" + tag, JSON.stringify(v, null, 2), "```", after].filter((part) => part !== undefined).join("\n");
        const flags = before || after ? ["code-fence", "surrounding-prose"] : ["code-fence"];
        expect(repairJson(text)).toEqual({ ok: true, value: asJson(v), repairs: flags });
      }),
      { numRuns: 2000 },
    );
  });

  it("undoes prose around an object or array, and takes no scalar from prose", () => {
    fc.assert(
      fc.property(fc.jsonValue(), prose, prose, (v, before, after) => {
        const result = repairJson(`${before} ${JSON.stringify(v, null, 2)} ${after}`);
        if (typeof v === "object" && v !== null) expect(result).toEqual({ ok: true, value: asJson(v), repairs: ["surrounding-prose"] });
        else expect(result.ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("undoes every mix of the in-value slips, naming exactly those used", () => {
    const style = fc.record({ single: fc.boolean(), typographic: fc.boolean(), unquoted: fc.boolean(), python: fc.boolean(), trailing: fc.boolean(), comments: fc.boolean() });
    fc.assert(
      fc.property(fc.jsonValue(), style, (v, s) => {
        const { text, flags } = sloppy(v, s);
        expect(repairJson(text)).toEqual({ ok: true, value: asJson(v), repairs: flags });
      }),
      { numRuns: 3000 },
    );
  });

  it("never completes a truncated value: every proper prefix of a container fails", () => {
    const container = fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 6 }), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 6 }));
    fc.assert(
      fc.property(container, fc.boolean(), (v, pretty) => {
        const text = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
        const completed = [];
        for (let cut = 1; cut < text.length; cut++) if (repairJson(text.slice(0, cut)).ok) completed.push(text.slice(0, cut));
        expect(completed).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("never puts the input into an error message", () => {
    const canary = "SECRET-CANARY-7f3a";
    const noisy = fc.tuple(fc.string({ maxLength: 30 }), fc.constantFrom("{", "[", '{"k": ', "'", "“", "```json\n", "{k: ", "[1,"), fc.string({ maxLength: 30 }));
    fc.assert(
      fc.property(noisy, ([a, b, c]) => {
        const result = repairJson(`${a}${b}${canary}${c}`);
        if (!result.ok) expect(result.error.message).not.toContain(canary.slice(0, 6));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("repairJson cost", () => {
  it("stays linear on adversarial text", () => {
    const started = performance.now();
    for (const text of ["[/*".repeat(30_000), "[// ".repeat(30_000), "{x ".repeat(50_000), "[x ".repeat(50_000), "[".repeat(100_000), '{"a" '.repeat(30_000), "```\n".repeat(30_000)]) {
      expect(repairJson(text).ok).toBe(false);
    }
    const big = `Here:\n\`\`\`json\n[${Array.from({ length: 50_000 }, (_, i) => `{id: ${i}, 'name': 'n${i}', ok: True,},`).join("")}]\n\`\`\``;
    const result = repairJson(big);
    expect(result.ok && (result.value as unknown[]).length).toBe(50_000);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("repairJson on long text", () => {
  it("repairs text up to MAX_REPAIRED_LENGTH, and past it takes valid JSON only, without reading it leniently", () => {
    const padded = (n: number): string => `\`\`\`json\n{"a": "${"x".repeat(n - 21)}"}\n\`\`\``;
    expect(padded(MAX_REPAIRED_LENGTH).length).toBe(MAX_REPAIRED_LENGTH);
    expect(repairJson(padded(MAX_REPAIRED_LENGTH))).toMatchObject({ ok: true, repairs: ["code-fence"] });
    expect(repairJson(padded(MAX_REPAIRED_LENGTH + 1))).toEqual({
      ok: false,
      error: { code: "UNPARSEABLE", message: `not valid JSON, and too long to repair (more than ${MAX_REPAIRED_LENGTH} characters)` },
      repairs: [],
    });
    const valid = JSON.stringify({ a: "x".repeat(MAX_REPAIRED_LENGTH) });
    expect(repairJson(valid)).toMatchObject({ ok: true, repairs: [] });
    // 10 million unclosed braces: refused at once (they took 1.7 s to read leniently).
    expect(repairJson("{".repeat(1e7)).ok).toBe(false);
  });
});

describe("repairJson and a byte order mark", () => {
  it("ignores a leading one, naming no repair, and names only the real slips after it", () => {
    expect(repairJson('\uFEFF{"a": 1}')).toEqual({ ok: true, value: { a: 1 }, repairs: [] });
    expect(repairJson('\uFEFF```json\n{"a": 1,}\n```')).toEqual({ ok: true, value: { a: 1 }, repairs: ["code-fence", "trailing-comma"] });
    // A failure's position is in the text as given, the mark included.
    const [plain, marked] = [repairJson('{"a": @}'), repairJson('\uFEFF{"a": @}')];
    expect(!plain.ok && !marked.ok && [plain.error.position, marked.error.position]).toEqual([6, 7]);
  });
});
