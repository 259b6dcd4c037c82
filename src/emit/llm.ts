import type { Contract, LlmProvider, Project, ResolvedVersion } from "../ir/model.js";
import type { NullPlan } from "../project/model.js";
import { projectVersion } from "../project/project.js";
import { escapePointer } from "../runtime/issue.js";
import { createFileBuilder, generatedComment, jsonFile, writtenLaidOut, type EmittedFile } from "./file-builder.js";
import { isInheritedKey, member } from "./validator-code.js";
import { selectorCode, type PatternRegex } from "./validator-one-of.js";
import { versionFilePath } from "./json-schema.js";

/** The generated function that maps a provider's nulls back to absent fields: `fromOpenAI`. */
const NULL_FUNCTIONS: Readonly<Record<LlmProvider, string>> = { openai: "fromOpenAI", anthropic: "fromAnthropic", gemini: "fromGemini", mcp: "fromMcp" };

const NAMES: Record<LlmProvider, string> = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini", mcp: "MCP" };

const CALLS: Record<LlmProvider, string> = {
  openai: "OpenAI: `response_format` of Chat Completions (or `text.format` of Responses), or `tools[]` as a strict function.",
  anthropic: "Anthropic: one entry of `tools` in Messages, strict.",
  gemini: "Gemini: `generationConfig` of generateContent (`responseJsonSchema`).",
  mcp: "MCP: one `Tool` of a server's `tools/list` result.",
};

/** The projection as written to both files: the provider's request fragment, its ledger, and what was widened. */
const computeProjection = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider) => {
  const projection = projectVersion(project, contract, version, provider).value;
  return { projection, data: { ...projection.request, ledger: projection.ledger, widened: projection.widened } };
};

// The projections of the version last asked about: its llm.ts, llm-reply.ts and JSON files are
// emitted one after another, and each needs them.
let lastProjections: { readonly project: Project; readonly version: ResolvedVersion; readonly byProvider: Map<LlmProvider, ReturnType<typeof computeProjection>> } | undefined;

const projectionData = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider): ReturnType<typeof computeProjection> => {
  if (lastProjections?.project !== project || lastProjections.version !== version) lastProjections = { project, version, byProvider: new Map() };
  let data = lastProjections.byProvider.get(provider);
  if (data === undefined) lastProjections.byProvider.set(provider, (data = computeProjection(project, contract, version, provider)));
  return data;
};

/** Marks where a shared object goes in JSON text: no string of the data prints as this (JSON escapes the NUL). */
const SHARED = (i: number): string => `\u0000shared:${i}`;
const SHARED_TEXT = /"\\u0000shared:(\d+)"/g;

/**
 * `value` as TypeScript literal text, each object it holds more than once by reference (OpenAI's
 * schema is both the response format's and the tool's parameters) declared once, as
 * `<prefix>Schema`, `<prefix>Schema2`, ..., and named where it stands: a reviewer reads it once.
 */
const literal = (value: unknown, prefix: string): { readonly text: string; readonly shared: readonly { name: string; value: string }[] } => {
  const seen = new Map<object, number>();
  const order: object[] = [];
  const count = (v: unknown): void => {
    if (typeof v !== "object" || v === null) return;
    const n = (seen.get(v) ?? 0) + 1;
    seen.set(v, n);
    if (n === 2) order.push(v);
    if (n === 1) for (const item of Object.values(v)) count(item);
  };
  count(value);
  const index = new Map(order.map((v, i) => [v, i] as const));
  const name = (i: number): string => `${prefix}Schema${i === 0 ? "" : i + 1}`;
  const print = (root: unknown): string =>
    JSON.stringify(root, (_, item: unknown) => (typeof item === "object" && item !== null && item !== root && index.has(item) ? SHARED(index.get(item)!) : item)).replace(
      SHARED_TEXT,
      (_, i: string) => name(Number(i)),
    )
      // A literal key `__proto__` (even quoted) sets the prototype; a computed one defines a property.
      // JSON escapes a quote inside a string, so this text is only ever a key.
      .replace(/"__proto__":/g, '["__proto__"]:');
  return { text: print(value), shared: order.map((v, i) => ({ name: name(i), value: print(v) })) };
};

/** A JSON pointer as parts: literal segments, or expressions of the generated code (loop indexes, keys). */
type PathPart = { readonly text: string } | { readonly code: string };

/** The pointer as an expression: adjacent literal parts merged into one string. */
const pathCode = (path: readonly PathPart[]): string => {
  const merged: string[] = [];
  let text = "";
  for (const part of path) {
    if ("text" in part) text += part.text;
    else {
      if (text) merged.push(JSON.stringify(text));
      text = "";
      merged.push(part.code);
    }
  }
  if (text || merged.length === 0) merged.push(JSON.stringify(text));
  return merged.join(" + ");
};

interface PlanContext {
  readonly fresh: () => string;
  /** What the code uses from treaty/runtime. */
  readonly uses: Set<"rebuildRecord" | "recordOfEntries" | "escapePointer">;
  /** The name of the RegExp of a pattern a selector tests, declared once for the file. */
  readonly regex: PatternRegex;
}

/** The file's module-level RegExps, one per pattern its selectors test, named in the order first met. */
const moduleRegexes = (): { readonly regex: PatternRegex; readonly declarations: () => string[] } => {
  const names = new Map<string, string>();
  return {
    regex: (pattern) => {
      let name = names.get(pattern);
      if (name === undefined) names.set(pattern, (name = `re${names.size + 1}`));
      return name;
    },
    declarations: () => [...names].map(([pattern, name]) => `const ${name} = new RegExp(${JSON.stringify(pattern)}, "u");`),
  };
};

/** A field of a record, own properties only: an absent `__proto__` or `constructor` is undefined, not the prototype's. */
const ownField = (input: string, name: string): string => (isInheritedKey(name) ? member(input, name) : `${input}[${JSON.stringify(name)}]`);

/**
 * Straight-line code that reads `input` (at `path`) and leaves in the variable it returns the
 * contract's value: without the nulls `plan` names, maps written as entries made objects again.
 * `input` itself when nothing differs, else copies of the objects and arrays on the way, so the
 * caller's value is never changed (and no object is left slow by `delete`). A map naming a key
 * twice is pushed to `issues` and left as sent.
 */
const planLines = (plan: NullPlan, input: string, path: readonly PathPart[], ctx: PlanContext): { readonly lines: string[]; readonly result: string } => {
  const indent = (lines: readonly string[]): string[] => lines.map((line) => `  ${line}`);
  const result = ctx.fresh();
  const declared = `let ${result}: unknown = ${input};`;
  switch (plan.kind) {
    case "object": {
      const inner = plan.fields.flatMap((field) => {
        if (!field.inner) return [];
        const read = ctx.fresh();
        const mapped = planLines(field.inner, read, [...path, { text: `/${escapePointer(field.name)}` }], ctx);
        return [{ name: field.name, read, lines: [`const ${read} = ${ownField(input, field.name)};`, ...mapped.lines], result: mapped.result }];
      });
      const widened = plan.fields.filter((field) => field.widened).map((field) => field.name);
      const changed = [...inner.map((f) => `${f.result} !== ${f.read}`), ...widened.map((name) => `${input}[${JSON.stringify(name)}] === null`)].join(" || ");
      const replaced = inner.map((f) => `[${JSON.stringify(f.name)}, ${f.result}]`).join(", ");
      ctx.uses.add("rebuildRecord");
      return {
        lines: [
          declared,
          `if (isRecord(${input})) {`,
          ...indent([...inner.flatMap((f) => f.lines), `if (${changed}) ${result} = rebuildRecord(${input}, ${JSON.stringify(widened)}, [${replaced}]);`]),
          "}",
        ],
        result,
      };
    }
    case "items": {
      const [copy, i, item] = [ctx.fresh(), ctx.fresh(), ctx.fresh()];
      const mapped = planLines(plan.inner, item, [...path, { text: "/" }, { code: i }], ctx);
      return {
        lines: [
          declared,
          `if (Array.isArray(${input})) {`,
          `  let ${copy}: unknown[] | undefined;`,
          `  for (let ${i} = 0; ${i} < ${input}.length; ${i}++) {`,
          `    const ${item}: unknown = ${input}[${i}];`,
          ...indent(indent(mapped.lines)),
          `    if (${mapped.result} !== ${item}) (${copy} ??= ${input}.slice())[${i}] = ${mapped.result};`,
          "  }",
          `  if (${copy}) ${result} = ${copy};`,
          "}",
        ],
        result,
      };
    }
    case "positions": {
      const mappedAt = (index: number, item: string): { readonly lines: string[]; readonly result: string } => {
        const inner = plan.positions.find((p) => p.index === index)?.inner;
        return inner ? planLines(inner, item, [...path, { text: `/${index}` }], ctx) : { lines: [], result: item };
      };
      const indexes = Array.from({ length: plan.length }, (_, i) => i);
      if (plan.object) {
        // Keyed by position: every position is read, so the array is always a new one. Only an
        // object of exactly those own keys is one: another (an extra key, a position it only
        // inherits) is left as sent, for the contract's validator to refuse.
        const reads = indexes.map((i) => ({ item: ctx.fresh(), i }));
        const mapped = reads.map(({ item, i }) => ({ item, i, ...mappedAt(i, item) }));
        const exact = [`Object.keys(${input}).length === ${plan.length}`, ...indexes.map((i) => `Object.hasOwn(${input}, ${JSON.stringify(String(i))})`)];
        return {
          lines: [
            declared,
            `if (isRecord(${input}) && ${exact.join(" && ")}) {`,
            ...indent(mapped.flatMap(({ item, i, lines }) => [`const ${item}: unknown = ${input}[${JSON.stringify(String(i))}];`, ...lines])),
            `  ${result} = [${mapped.map((m) => m.result).join(", ")}];`,
            "}",
          ],
          result,
        };
      }
      const copy = ctx.fresh();
      const positions = plan.positions.flatMap(({ index }) => {
        const item = ctx.fresh();
        const mapped = mappedAt(index, item);
        return [`const ${item}: unknown = ${input}[${index}];`, ...mapped.lines, `if (${mapped.result} !== ${item}) (${copy} ??= ${input}.slice())[${index}] = ${mapped.result};`];
      });
      return {
        lines: [declared, `if (Array.isArray(${input})) {`, `  let ${copy}: unknown[] | undefined;`, ...indent(positions), `  if (${copy}) ${result} = ${copy};`, "}"],
        result,
      };
    }
    case "values": {
      const [replaced, key, item] = [ctx.fresh(), ctx.fresh(), ctx.fresh()];
      const mapped = planLines(plan.inner, item, [...path, { text: "/" }, { code: `escapePointer(${key})` }], ctx);
      if (mapped.lines.some((line) => line.includes(`escapePointer(${key})`))) ctx.uses.add("escapePointer");
      ctx.uses.add("rebuildRecord");
      return {
        lines: [
          declared,
          `if (isRecord(${input})) {`,
          `  const ${replaced}: [string, unknown][] = [];`,
          `  for (const [${key}, ${item}] of Object.entries(${input})) {`,
          ...indent(indent(mapped.lines)),
          `    if (${mapped.result} !== ${item}) ${replaced}.push([${key}, ${mapped.result}]);`,
          "  }",
          `  if (${replaced}.length > 0) ${result} = rebuildRecord(${input}, [], ${replaced});`,
          "}",
        ],
        result,
      };
    }
    case "entries": {
      const [value, key, record] = [ctx.fresh(), ctx.fresh(), ctx.fresh()];
      ctx.uses.add("recordOfEntries");
      const at = pathCode(path);
      if (!plan.inner) {
        return { lines: [declared, `if (Array.isArray(${input})) ${result} = recordOfEntries(${input}, issues, () => ${at}) ?? ${input};`], result };
      }
      const mapped = planLines(plan.inner, value, [...path, { text: "/" }, { code: `escapePointer(${key})` }], ctx);
      if (mapped.lines.some((line) => line.includes(`escapePointer(${key})`))) ctx.uses.add("escapePointer");
      // The key is a parameter only where the mapping reports at a path under it.
      const named = new RegExp(`\\b${key}\\b`);
      const parameters = mapped.lines.some((line) => named.test(line)) ? `${value}: unknown, ${key}: string` : `${value}: unknown`;
      return {
        lines: [
          declared,
          `if (Array.isArray(${input})) {`,
          `  const ${record} = recordOfEntries(${input}, issues, () => ${at}, (${parameters}): unknown => {`,
          ...indent(indent([...mapped.lines, `return ${mapped.result};`])),
          "  });",
          `  if (${record}) ${result} = ${record};`,
          "}",
        ],
        result,
      };
    }
    case "tagged":
      return {
        lines: [
          declared,
          `if (isRecord(${input})) {`,
          ...indent(
            plan.variants.flatMap((variant, n) => {
              const mapped = planLines(variant.inner, input, path, ctx);
              return [`${n === 0 ? "" : "} else "}if (${input}[${JSON.stringify(plan.tag)}] === ${JSON.stringify(variant.value)}) {`, ...indent([...mapped.lines, `${result} = ${mapped.result};`])];
            }),
          ),
          "  }",
          "}",
        ],
        result,
      };
    case "select": {
      // The selectors exclude each other, so at most one variant's mapping runs; a value of none is left as sent.
      const any = ctx.fresh();
      const branches = plan.variants.flatMap((variant, n) => {
        const mapped = planLines(variant.inner, input, path, ctx);
        return [`${n === 0 ? "" : "} else "}if (${selectorCode(variant.selector, any, ctx.regex)}) {`, ...indent([...mapped.lines, `${result} = ${mapped.result};`])];
      });
      return { lines: [declared, `const ${any}: any = ${input};`, ...branches, "}"], result };
    }
    case "each": {
      // Nothing tells the versions apart: each one's mapping runs, one after the other.
      let current = input;
      const lines: string[] = [];
      for (const inner of plan.plans) {
        const mapped = planLines(inner, current, path, ctx);
        lines.push(...mapped.lines);
        current = mapped.result;
      }
      return { lines, result: current };
    }
  }
};

/** `<contract>/<vX_Y>/llm.ts`: one export per provider the contract projects to, and (from llm-reply.ts) what undoes each in a reply. */
export const emitLlm = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const file = createFileBuilder(versionFilePath(contract.name, version.version, "llm.ts"), contract.file);
  const projections = contract.llm.providers.map((provider) => ({ provider, ...projectionData(project, contract, version, provider) }));
  const functions = projections.filter(({ projection }) => projection.nulls).map(({ provider }) => NULL_FUNCTIONS[provider]);
  return file.render("llm", {
    label: `${contract.name} ${version.version}`,
    projections: projections.map(({ provider, data }) => ({ name: provider, doc: CALLS[provider], ...literal(data, provider) })),
    exports: [...functions, "from"],
  });
};

/**
 * `<contract>/<vX_Y>/llm-reply.ts`: the null → absent functions and `from`, which the registration
 * carries: apart from llm.ts, so decoding a reply never loads the schemas sent to providers.
 */
export const emitLlmReply = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const file = createFileBuilder(versionFilePath(contract.name, version.version, "llm-reply.ts"), contract.file);
  const projections = contract.llm.providers.map((provider) => ({ provider, ...projectionData(project, contract, version, provider) }));
  const regexes = moduleRegexes();
  const functions = projections
    .filter(({ projection }) => projection.nulls)
    .map(({ provider, projection }) => {
      let n = 0;
      const ctx: PlanContext = { fresh: () => `v${++n}`, uses: new Set(), regex: regexes.regex };
      const mapped = planLines(projection.nulls!, "value", [], ctx);
      for (const name of ctx.uses) file.importValue("treaty/runtime", name);
      const entries = ctx.uses.has("recordOfEntries");
      if (entries) file.importType("treaty/runtime", "Issue");
      return {
        provider: NAMES[provider],
        name: provider,
        function: NULL_FUNCTIONS[provider],
        // Only a map written as entries can fail (a key twice).
        params: entries ? "value: unknown, issues: Issue[] = []" : "value: unknown",
        entries,
        body: [...mapped.lines, `return ${mapped.result};`].map((line) => `  ${line}`).join("\n"),
      };
    });
  const emitted = file.render("llm-reply", {
    label: `${contract.name} ${version.version}`,
    isRecord: IS_RECORD,
    regexes: regexes.declarations(),
    nulls: functions,
    from: projections.map(({ provider, projection }) => ({ name: provider, function: projection.nulls ? NULL_FUNCTIONS[provider] : "null" })),
  });
  return functions.length > 0 ? { ...emitted, laidOut: IS_RECORD_LAID_OUT } : emitted;
};

/**
 * The null functions' helper, written in prettier's layout (an arrow function with a type
 * predicate, which code-layout.ts does not print): its `laidOut` entry keeps prettier out of a run.
 */
const IS_RECORD = `const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);`;
const IS_RECORD_LAID_OUT = writtenLaidOut(`${IS_RECORD}\n`);

/** `<contract>/<vX_Y>/llm/<provider>.json`: the same projection, for reviewers and callers outside TypeScript. */
export const emitLlmJson = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider): EmittedFile =>
  jsonFile(versionFilePath(contract.name, version.version, `llm/${provider}.json`), {
    $comment: generatedComment(contract.file),
    ...projectionData(project, contract, version, provider).data,
  });
