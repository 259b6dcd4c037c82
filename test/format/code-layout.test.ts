// layoutCode against its referee: on the validators treaty emits and on random programs of the
// subset it prints, whatever it does not decline is what prettier's babel-ts parser prints with
// treaty's options, byte for byte; and it declines little of the validators.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { emitSharedValidators, emitValidator } from "../../src/emit/validator.js";
import { layoutCode, shapeKey } from "../../src/format/code-layout.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { splitStatements } from "../../src/format/statements.js";
import { compile, generate } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

const ROOT = join(import.meta.dirname, "../..");
const prettier = (text: string): Promise<string> => format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" });

// Names of every length up to past half a line, so that fits decisions fall on both sides of 100 columns.
const name = fc
  .tuple(
    fc.constantFrom("a", "v", "f", "x", "is_", "Object", "out", "_"),
    fc.oneof({ arbitrary: fc.integer({ min: 0, max: 8 }), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 44 }), weight: 1 }),
  )
  .map(([head, n]) => `${head}${"abc_1".repeat(9).slice(0, n)}`);
const str = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", " ", '"', "'", "/", "-", "\\"), maxLength: 8 }),
  fc.integer({ min: 0, max: 60 }).map((n) => "s".repeat(n)),
).map((s) => JSON.stringify(s));
const num = fc.constantFrom("0", "1", "100", "2.5", "1e21", "5e-7", "4096");
const BINARY = ["&&", "||", "??", "===", "!==", "<", "<=", ">", ">=", "<<", ">>", ">>>", "+", "-", "*", "/", "%", "|", "&"];

/** Types of casts: names, and names with type arguments of every width. */
const TYPE = fc.oneof(
  fc.constantFrom("T", "Record<string, unknown>", "Array<Issue>", "Map<string, Array<number>>", "AgentContract<Input, Output>"),
  fc.tuple(name, fc.array(fc.oneof(name, name.map((n) => `Array<${n}>`)), { minLength: 1, maxLength: 3 })).map(([n, args]) => `${n}<${args.join(", ")}>`),
);

/** Expressions as the emitters write them: every compound one in parentheses, which prettier drops or keeps by its own rules. */
const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    name,
    str,
    num,
    fc.constantFrom("undefined", "null", "true", "{}", "[]"),
    fc.tuple(tie("e"), name).map(([o, p]) => `(${o}).${p}`),
    fc.tuple(name, name).map(([o, p]) => `${o}.${p}`),
    fc.tuple(name, tie("e")).map(([o, i]) => `${o}[${i}]`),
    fc.tuple(name, fc.array(tie("e"), { maxLength: 4 })).map(([f, args]) => `${f}(${args.join(", ")})`),
    fc.tuple(name, name, fc.array(tie("e"), { maxLength: 4 })).map(([o, m, args]) => `${o}.${m}(${args.join(", ")})`),
    fc.tuple(name, fc.array(tie("e"), { maxLength: 3 })).map(([c, args]) => `new ${c}(${args.join(", ")})`),
    fc.tuple(name, fc.constantFrom("string", "Issue", "unknown"), fc.array(tie("e"), { maxLength: 3 })).map(([c, t, args]) => `new ${c}<${t}>(${args.join(", ")})`),
    fc.tuple(fc.constantFrom("!", "!!", "typeof ", "-"), tie("e")).map(([op, e]) => `${op}(${e})`),
    fc.tuple(tie("e"), name).map(([o, p]) => `delete (${o}).${p}`),
    fc.tuple(tie("e"), fc.constantFrom(...BINARY), tie("e")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie("e"), fc.constantFrom("&&", "||"), tie("e"), tie("e")).map(([a, op, b, c]) => `(${a} ${op} ${b} ${op} ${c})`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([a, b, c]) => `(${a} ? ${b} : ${c})`),
    // Casts as the emitters write them: in parentheses, of a name, a member or a call, read from.
    fc
      .tuple(
        fc.oneof(name, fc.tuple(name, name).map(([o, p]) => `${o}.${p}`), fc.tuple(name, tie("e")).map(([f, a]) => `${f}(${a})`)),
        TYPE,
        fc.oneof(str.map((k) => `[${k}]`), name.map((p) => `.${p}`)),
      )
      .map(([e, t, read]) => `(${e} as ${t})${read}`),
    fc.tuple(name, tie("e")).map(([l, r]) => `(${l} = ${r})`),
    fc.tuple(fc.array(fc.tuple(name, tie("e"), fc.boolean()), { minLength: 1, maxLength: 4 }), fc.boolean()).map(
      ([props, expanded]) =>
        `{${expanded ? "\n" : " "}${props.map(([k, v, shorthand]) => (shorthand ? k : `${k}: ${v}`)).join(", ")} }`,
    ),
    fc.tuple(name, tie("e")).map(([k, v]) => `{ ${JSON.stringify(k)}: ${v}, ...(${v}) }`),
    fc.array(tie("e"), { minLength: 1, maxLength: 4 }).map((items) => `[${items.join(", ")}]`),
    // As TypeBox code is written: a builder taking an object of options last.
    fc.tuple(name, fc.array(tie("e"), { maxLength: 2 }), fc.array(fc.tuple(name, tie("e")), { minLength: 1, maxLength: 4 })).map(
      ([builder, args, options]) => `Type.${builder}(${[...args, `{ ${options.map(([k, v]) => `${k}: ${v}`).join(", ")} }`].join(", ")})`,
    ),
  ),
})).e;

const COMMENTS = ["", "// A comment.\n", "/** One line. */\n", "/**\n * Two\n * lines.\n */\n", "// Then a blank line.\n\n"];

/** Statements, each on its own line(s) at `pad`, as the emitters write them. */
const statement: fc.Arbitrary<(pad: string) => string> = fc.letrec<{ s: (pad: string) => string }>((tie) => ({
  s: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.tuple(name, name, expression).map(([o, m, e]) => (pad: string) => `${pad}${o}.${m}(${e});\n`),
    fc.tuple(name, name, expression).map(([o, p, e]) => (pad: string) => `${pad}${o}.${p} = ${e};\n`),
    fc.tuple(name, name).map(([o, p]) => (pad: string) => `${pad}delete ${o}.${p};\n`),
    fc.option(expression).map((e) => (pad: string) => `${pad}return${e === null ? "" : ` ${e}`};\n`),
    fc.tuple(fc.constantFrom("const", "let"), name, fc.constantFrom("", ": any", ": any[]", ": Issue[] | undefined"), expression).map(
      ([kind, n, type, e]) => (pad: string) => `${pad}${kind} ${n}${type} = ${e};\n`,
    ),
    // A declaration's value cast, as registrations and agents are written.
    fc
      .tuple(name, fc.oneof(name, fc.tuple(name, expression).map(([k, e]) => `{ ${k}: ${e} }`)), fc.constantFrom(" as const", ""), TYPE)
      .map(([n, e, asConst, t]) => (pad: string) => `${pad}export const ${n} = ${e}${asConst} satisfies ${t};\n`),
    fc.tuple(expression, tie("s")).map(([test, body]) => (pad: string) => `${pad}if (${test}) ${body("").trimStart()}`),
    fc.tuple(expression, fc.array(tie("s"), { maxLength: 3 }), fc.option(tie("s"))).map(([test, body, alt]) => (pad: string) => {
      const block = `${pad}if (${test}) {\n${body.map((s) => s(`${pad}  `)).join("")}${pad}}`;
      return alt === null ? `${block}\n` : `${block} else ${alt("").trimStart()}`;
    }),
    fc.tuple(expression, tie("s"), tie("s")).map(([test, a, b]) => (pad: string) => `${pad}if (${test}) ${a("").trimStart()}${pad}else ${b("").trimStart()}`),
    fc.tuple(name, expression, fc.array(tie("s"), { maxLength: 2 })).map(([i, n, body]) => (pad: string) =>
      `${pad}for (let ${i} = 0; ${i} < ${n}; ${i}++) {\n${body.map((s) => s(`${pad}  `)).join("")}${pad}}\n`,
    ),
    fc.tuple(name, expression, tie("s")).map(([k, o, body]) => (pad: string) => `${pad}for (const ${k} in ${o}) ${body("").trimStart()}`),
    fc.tuple(expression, fc.array(fc.tuple(str, fc.boolean()), { minLength: 1, maxLength: 3 }), fc.array(tie("s"), { maxLength: 2 })).map(
      ([d, cases, body]) => (pad: string) =>
        `${pad}switch (${d}) {\n${cases.map(([c, blank]) => `${pad}  case ${c}:\n${blank ? "\n" : ""}`).join("")}${body.map((s) => s(`${pad}    `)).join("")}${pad}    break;\n${pad}  default:\n${pad}    return undefined;\n${pad}}\n`,
    ),
    fc.array(tie("s"), { maxLength: 2 }).map((body) => (pad: string) => `${pad}try {\n${body.map((s) => s(`${pad}  `)).join("")}${pad}} catch {\n${pad}  return false;\n${pad}}\n`),
    fc.tuple(fc.nat(), tie("s"), fc.boolean()).map(([c, s, blank]) => (pad: string) => {
      const comment = COMMENTS[c % COMMENTS.length]!.split("\n").map((l) => (l === "" ? l : `${pad}${l}`)).join("\n");
      return `${comment}${s(pad)}${blank ? "\n" : ""}`;
    }),
  ),
})).s;

const program = fc
  .tuple(fc.boolean(), name, fc.array(fc.tuple(name, fc.constantFrom("any", "string", "Issue[]", "unknown")), { maxLength: 3 }), fc.array(statement, { minLength: 1, maxLength: 5 }))
  .map(
    ([exported, n, params, body]) =>
      `${exported ? "export " : ""}function ${n}(${params.map(([p, t]) => `${p}: ${t}`).join(", ")}): void {\n${body.map((s) => s("  ")).join("")}}\n`,
  );

// The tokens a shape holds by their length only (code-layout.ts, "Layouts by shape"), each respelled
// to another of its length: names holding a digit, `_` or `$`; integers; strings with no escape or
// single quote, unless a key (followed by `:`).
const TOKEN = /"(?:[^"\\\n]|\\.)*"(?=(\s*:)?)|\/\/[^\n]*|\/\*[^]*?\*\/|[A-Za-z_$][\w$]*|\d+(?:\.\d+)?(?:e[+-]?\d+)?/g;
const rotate = (text: string): string =>
  text.replace(/[a-y]|z|[0-8]|9/g, (c) => (c === "z" ? "a" : c === "9" ? "0" : String.fromCharCode(c.charCodeAt(0) + 1)));
const respell = (text: string): string =>
  text.replace(TOKEN, (token: string, key: string | undefined) => {
    if (token.startsWith("//") || token.startsWith("/*")) return token;
    if (token.startsWith('"')) return key !== undefined || /[\\']/.test(token) ? token : rotate(token);
    if (/^\d+$/.test(token)) return token.length > 1 && token[0] === "9" ? `1${rotate(token.slice(1))}` : rotate(token);
    return /^[A-Za-z_$]/.test(token) && /[\d_$]/.test(token) ? rotate(token) : token;
  });

describe("layoutCode", () => {
  it("prints what prettier prints of random programs of its subset, or declines", async () => {
    let printed = 0;
    let broken = 0;
    await fc.assert(
      fc.asyncProperty(program, async (text) => {
        const mine = layoutCode(text);
        if (mine === undefined) return;
        // A random program may declare a name twice, which babel rejects: no referee then.
        const theirs = await prettier(text).catch((error: unknown) => {
          if (error instanceof SyntaxError && /already been declared/.test(error.message)) return undefined;
          throw error;
        });
        if (theirs === undefined) return;
        printed++;
        if (mine.split("\n").length > text.split("\n").length) broken++;
        expect(mine).toBe(theirs);
      }),
      { numRuns: 3000 },
    );
    console.log(`random programs: ${printed} printed, ${broken} of them over more lines`);
    // Declining is for the layouts it does not print (a long ternary, a hugged argument): most programs are printed, many of them broken over lines.
    expect(printed).toBeGreaterThan(500);
    expect(broken).toBeGreaterThan(100);
  });

  it("prints what prettier prints of random imports and exports of names, or declines", async () => {
    const specifier = fc.tuple(fc.boolean(), name, fc.option(name)).map(([type, n, as]) => `${type ? "type " : ""}${n}${as === null ? "" : ` as ${as}`}`);
    const declaration = fc.oneof(
      fc.tuple(fc.boolean(), fc.array(specifier, { maxLength: 6 }), str).map(([type, names, from]) => `import ${type ? "type " : ""}{ ${names.join(", ")} } from ${from};\n`),
      fc.tuple(name, str).map(([n, from]) => `import * as ${n} from ${from};\n`),
      fc.tuple(fc.array(specifier, { minLength: 1, maxLength: 6 }), fc.option(str)).map(([names, from]) => `export { ${names.join(", ")} }${from === null ? "" : ` from ${from}`};\n`),
      fc.tuple(fc.option(name), str).map(([n, from]) => `export *${n === null ? "" : ` as ${n}`} from ${from};\n`),
    );
    let printed = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("", "// @generated by treaty. DO NOT EDIT.\n", "// a header  \n// of two lines\n", "// then blank lines\n\n\n"), fc.array(declaration, { minLength: 1, maxLength: 3 }), async (header, texts) => {
        const text = header + texts.join("");
        const mine = layoutCode(text);
        if (mine === undefined) return;
        const theirs = await prettier(text).catch(() => undefined); // a name declared twice
        if (theirs === undefined) return;
        printed++;
        expect(mine).toBe(theirs);
      }),
      { numRuns: 500 },
    );
    expect(printed).toBeGreaterThan(200);
  });

  it("prints type aliases, re-exports of types and casts as prettier does, or declines", async () => {
    let printed = 0;
    for (const text of [
      'export type * from "./types.js";\n',
      "export type TaskResult = v1_2.TaskResultV1_2;\n",
      'export type TaskStatus = ("SUCCESS" | "PARTIAL" | "FAILED");\n',
      'export type Tags = ("a" | "b")[] | undefined;\n',
      `export type Long = ${Array.from({ length: 12 }, (_, i) => `"value_${i}"`).join(" | ")};\n`,
      'export type Mixed = "a" | ("b" | "c");\n',
      // Casts of a declaration's value, and text other than ASCII in a comment on its own line.
      "export const from = { openai: null, anthropic: null, gemini: null, mcp: null } as const;\n",
      `export const registration = { name: "${"n".repeat(70)}", versions: { "1.0": { ...adapters["1.0"], check: v1_0.check } } } as const satisfies ContractRegistration;\n`,
      "/** demo 1.1 → 1.0: reverses the changes of 1.1. */\nexport function downgrade(v: V, log: AdaptLog): W {\n  return { a: v.a };\n}\n",
      "const x = a + b as T;\n",
      'const s = "→";\n',
    ]) {
      const mine = layoutCode(text);
      if (mine === undefined) continue;
      printed++;
      expect(mine, text).toBe(await prettier(text));
    }
    expect(printed).toBe(7);
  });

  it("prints shifts as prettier does: parenthesized under another shift or a bitwise operator, not taken for comparisons", async () => {
    const long = "a_long_name_of_a_length_abc";
    const texts = [
      "const o: any[] = new Array(n >>> 0);\n",
      "x = a << b << c;\n",
      "x = (a >> b) >> c;\n",
      "x = a >> (b >> c);\n",
      "x = (a + b) >>> c;\n",
      "x = a + (b >>> c);\n",
      "x = (a >>> 1) & b;\n",
      "x = a < b >> c;\n",
      "x = (a < b) >> c;\n",
      `x = ${long} >>> ${long} + ${long} >>> ${long} + ${long};\n`,
      "x = a >= b >> 1;\n",
      "x = a > (b >> 1) > c;\n",
    ];
    for (const text of texts) {
      const mine = layoutCode(text);
      expect(mine, text).toBeDefined();
      expect(mine, text).toBe(await prettier(text));
    }
    // `>>=` is an assignment outside the subset.
    expect(layoutCode("x >>= 1;\n")).toBeUndefined();
  });

  it("prints a ternary that breaks as the value of a declaration, an assignment or a property, or spread, as prettier does", async () => {
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(40));
    const texts = [
      `const x = ${a} ? ${b} : ${c};\n`,
      `x = ${a} === undefined ? ${b} : ${c};\n`,
      `const x = ${a} && ${b} === ${c} ? f(${b}, ${c}) : ${c};\n`,
      // As adapters are written: a field filled when the older version lacks it.
      [
        "export function upgrade(v: V, log: AdaptLog): W {",
        "  const o: W = {",
        '    contract: "task.result",',
        "    quality:",
        "      v.quality === undefined",
        '        ? filled(log, "2.0", "/quality", { verification: "SKIPPED", unresolved_items: [] })',
        "        : v.quality,",
        "  };",
        "  return o;",
        "}",
        "",
      ].join("\n"),
      // A branch that breaks inside: an object past the line, a long call.
      `const o = { q: ${a} === undefined ? { ${b}: 1, ${c}: 2, ${a}: 3 } : v.q };\n`,
      `const x = t ? f(${a}, ${b}, ${c}) : g;\n`,
      `o.p = ${a} || ${b} ? ${c} : ${"d".repeat(70)};\n`,
      // Spread into an object, as an adapter keeps an optional field only where it is present.
      `const budget = { ...(v.budget.${a} === undefined ? {} : { ${a}: v.budget.${a} }) };\n`,
    ];
    for (const text of texts) {
      const mine = layoutCode(text);
      expect(mine, text).toBeDefined();
      expect(mine, text).toBe(await prettier(text));
    }
  });

  it("prints a cast read from and a declaration's cast to a type with type arguments as prettier does, breaking the arguments where prettier does", async () => {
    const long = "a_long_name_of_a_length_abc";
    const texts = [
      'const v1: unknown = (value as Record<string, unknown>)["offers"];\n',
      "const x = (a.b as T).c;\n",
      `const x = (${long}.${long} as Record<${long}, ${long}>)["${long}"];\n`,
      `x = (f(${long}, ${long}) as Map<string, Array<${long}>>).${long}.${long};\n`,
      "export const agent = { a: 1 } as const satisfies AgentContract<Input, Output>;\n",
      `export const registration = { name: "${"n".repeat(50)}" } as const satisfies ContractRegistration<AAAA, BBBB>;\n`,
      `export const registration = { name: "${"n".repeat(60)}" } as const satisfies ContractRegistration<AAAA, BBBB>;\n`,
      `export const registration = { name: "${"n".repeat(50)}" } satisfies ContractRegistration<Array<AAAA>>;\n`,
    ];
    for (const text of texts) {
      const mine = layoutCode(text);
      expect(mine, text).toBeDefined();
      expect(mine, text).toBe(await prettier(text));
    }
    // A cast anywhere else, or type arguments but in a cast, are declined.
    for (const text of [
      "x = (a as T) + 1;\n",
      "f((a as T));\n",
      "const x: Map<string, number> = y;\n",
      "export type X = Record<string, A | B>;\n",
      // Type arguments on an array or in a union, which are printed otherwise.
      "export const x = { a: 1 } satisfies A<B> | C;\n",
      "export const x = { a: 1 } satisfies C | A<B, D>;\n",
      "const v = (x as A<B>[])[0];\n",
    ]) {
      expect(layoutCode(text), text).toBeUndefined();
    }
  });

  it("lays out a piece alike to one it laid out (another name, bound or message) as prettier does: random programs and the seed contracts' validators, respelled", async () => {
    const project = compile({ root: ROOT, idlDir: join(ROOT, "idl") }).value!;
    const seeds = project.contracts.flatMap((contract) =>
      [emitSharedValidators(project, contract), ...contract.versions.map((version) => emitValidator(project, contract, version))].flatMap((file) =>
        splitStatements(file.contents).map((piece) => piece.text),
      ),
    );
    const random = fc.sample(program, { numRuns: 1500, seed: 14 });
    let alike = 0;
    for (const text of [...new Set([...seeds, ...random])]) {
      if (layoutCode(text) === undefined) continue;
      const other = respell(text);
      if (other === text || shapeKey(other) !== shapeKey(text)) continue;
      // Laid out after `text`, so from its shape.
      const mine = layoutCode(other);
      const theirs = await prettier(other).catch(() => undefined); // a name declared twice
      if (theirs === undefined) continue;
      alike++;
      expect(mine, other).toBe(theirs);
    }
    expect(alike).toBeGreaterThan(800);
  });

  it("prints the validators of the seed contracts as prettier does, declining little", async () => {
    const project = compile({ root: ROOT, idlDir: join(ROOT, "idl") }).value!;
    let total = 0;
    let direct = 0;
    const seen = new Set<string>();
    for (const contract of project.contracts) {
      const files = [emitSharedValidators(project, contract), ...contract.versions.map((version) => emitValidator(project, contract, version))];
      for (const file of files) {
        for (const piece of splitStatements(file.contents)) {
          if (seen.has(piece.text)) continue;
          seen.add(piece.text);
          total += piece.text.length;
          const mine = layoutCode(piece.text);
          if (mine === undefined) continue;
          direct += piece.text.length;
          expect(mine, `${file.path}: ${piece.text.slice(0, 80)}`).toBe(await prettier(piece.text));
        }
      }
    }
    // Imports, the file's head and `read` (a ternary over several lines) go to prettier.
    expect(direct / total).toBeGreaterThan(0.8);
  });

  it("lays out what is generated for lists nested 40 deep as prettier does, in a few seconds (nested conditional groups took time exponential in depth: 14 levels 4.6 s, 16 levels 37 s)", async () => {
    let type = "{ type: string, maxLength: 5 }";
    for (let i = 0; i < 40; i++) type = `{ type: list, maxItems: 1, of: ${type} }`;
    const root = tempProject("deep-lists", { "package.json": "{}\n", "idl/d.deep.yaml": `contract: d.deep\nowner: tests\nllm: { providers: [mcp] }\nversions:\n  "1.0":\n    fields:\n      deep: ${type}\n` });
    // A cache of its own: the shared one would hold what an earlier run laid out.
    const shared = process.env["TREATY_CACHE_DIR"];
    process.env["TREATY_CACHE_DIR"] = join(root, ".cache");
    const result = await generate({ root, idlDir: join(root, "idl"), outDir: join(root, "generated"), check: false }).finally(() => {
      process.env["TREATY_CACHE_DIR"] = shared;
    });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const files = (readdirSync(join(root, "generated"), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(join(root, "generated", file), "utf8");
      expect(text, file).toBe(await prettier(text));
    }
  }, 20_000);

  it("declines two strings side by side, whose shape is that of one string it laid out", () => {
    expect(layoutCode('f("abcde");\n')).toBe('f("abcde");\n');
    expect(shapeKey('f("ab""c");\n')).toBe(shapeKey('f("abcde");\n'));
    expect(layoutCode('f("ab""c");\n')).toBeUndefined();
  });

  it("declines what it does not print itself", () => {
    for (const text of [
      // A ternary that breaks where its parent is not a declaration, assignment or property; a chain of two calls.
      `return ${"a".repeat(40)} ? ${"b".repeat(40)} : ${"c".repeat(40)};\n`,
      `f(${"a".repeat(40)} ? ${"b".repeat(40)} : ${"c".repeat(40)});\n`,
      `const x = ${"a".repeat(20)}.b(c).${"d".repeat(50)}(${"e".repeat(40)});\n`,
      "a.b().c();\n",
      // A comment inside a statement or after it, a template, a non-ASCII string, a regular expression.
      "f(a, /* b */ c);\n",
      "f(a); // why\n",
      "const s = `a${b}`;\n",
      'const s = "é";\n',
      "const r = /a+/u;\n",
      // Syntax outside the subset.
      'import "a";\n',
      'import a, { b } from "a";\n',
      "const f = (x) => x;\n",
      "class A {}\n",
    ]) {
      expect(layoutCode(text), text).toBeUndefined();
    }
  });
});
