// `generated/<contract>/adapters.ts`: one function per step (a version's changes applied or
// reversed), and per version the chain of steps to the canonical version and back. Everything
// is decided by the adapt stage; this renders it as straight-line code.
import type { Contract, Field, ResolvedVersion } from "../ir/model.js";
import type { ContractAdapters, Conversion, FieldPath, FieldPlan, Fill, KeptKeys, Step, ValuePlan, VersionAdapters } from "../adapt/model.js";
import { contractDir, rootTypeName, versionId } from "../ir/names.js";
import { fieldAtSegments } from "../resolve/changes.js";
import { escapePointer } from "../runtime/issue.js";
import { createFileBuilder, type EmittedFile, type FileBuilder } from "./file-builder.js";
import { printKey } from "./typebox.js";
import { isIdentifier, isInheritedKey, member } from "./validator-code.js";
import { selectorCode } from "./validator-one-of.js";

const RUNTIME = "treaty/runtime";

const q = (value: unknown): string => JSON.stringify(value);

/** A JSON pointer as the body of a template literal: static (`/a/b`) or not (`${at}/b`). */
type At = string;

const atCode = (at: At): string => (/(^|[^\\])\$\{/.test(at) ? `\`${at}\`` : q(at.replace(/\\([\\`$])/g, "$1")));

/** A field name as one segment of an `At`: pointer-escaped, and escaped again for the template literal. */
const segment = (name: string): At => escapePointer(name).replace(/[\\`]|\$\{/g, (c) => `\\${c}`);

const pointer = (path: FieldPath): At => path.map((name) => `/${segment(name)}`).join("");

interface StepScope {
  readonly b: FileBuilder;
  /** The step's source version: the model source paths walk. */
  readonly source: ResolvedVersion;
  /** Version named in drop records (the payload the pointer points into). */
  readonly sourceVersion: string;
  readonly targetVersion: string;
  /** Helper functions of the step, by structural key. */
  readonly helpers: Map<string, { name: string; code: string }>;
  readonly prefix: string;
  /** Statements the step runs before it builds its value (drop records). */
  readonly statements: string[];
}

const helperName = (scope: StepScope, suffix: string): string => `${scope.prefix}_${suffix}`;

/** Registers a helper once per structure; `render` receives the name (for recursion-free code it is only a label). */
const helper = (scope: StepScope, key: string, suffix: () => string, render: (name: string) => string): string => {
  const known = scope.helpers.get(key);
  if (known) return known.name;
  const name = helperName(scope, suffix());
  const entry = { name, code: "" };
  scope.helpers.set(key, entry);
  entry.code = render(name);
  return name;
};

/** Code converting `input` (a present, non-null value) at pointer `at`. */
const convert = (conversion: Conversion, input: string, at: At, scope: StepScope, depth: number): string => {
  switch (conversion.kind) {
    case "same":
      return input;
    case "unchecked":
      scope.b.importValue(RUNTIME, "unchecked");
      return `unchecked(${input})`;
    case "stub":
      return `${conversion.stub.name}(${input}, v)`;
    case "enum": {
      const table = conversion.table;
      // A value rewritten into one that does not come back is named in `dropped`, at its pointer.
      const logs = table.entries.some((e) => e.lossy);
      const name = helper(scope, q(["enum", table]), () => table.enum, (fn) => {
        const drop = `      log.dropped.push({ version: ${q(scope.sourceVersion)}, path: at });\n`;
        const cases = table.entries.map((e) => `    case ${q(e.from)}:\n${e.lossy ? drop : ""}      return ${e.to.kind === "value" ? q(e.to.value) : `${e.to.stub.name}(x)`};`);
        const doc = table.unchecked
          ? `\n/** ${table.enum} values; a value ${scope.targetVersion} lacks passes unmapped, and the ${scope.targetVersion} validator rejects it. */`
          : `\n/** ${table.enum} values of ${scope.sourceVersion} as ${scope.targetVersion} has them${logs ? "; one that does not come back is named in `log.dropped`" : ""}. */`;
        if (logs) scope.b.importType(RUNTIME, "AdaptLog");
        return `${doc}\nfunction ${fn}(x: any${logs ? ", at: string, log: AdaptLog" : ""}): any {\n  switch (x) {\n${cases.join("\n")}\n    default:\n      return x;\n  }\n}`;
      });
      return logs ? `${name}(${input}, ${atCode(at)}, log)` : `${name}(${input})`;
    }
    case "list": {
      const [x, i] = [`x${depth}`, `i${depth}`];
      return `${input}.map((${x}: any, ${i}: number) => ${convert(conversion.item, x, `${at}/\${${i}}`, scope, depth + 1)})`;
    }
    case "tuple":
      return `[${conversion.items.map((item, i) => convert(item, `${input}[${i}]`, `${at}/${i}`, scope, depth + 1)).join(", ")}]`;
    case "map": {
      scope.b.importValue(RUNTIME, "escapePointer");
      const [k, x] = [`k${depth}`, `x${depth}`];
      return `Object.fromEntries(Object.entries(${input}).map(([${k}, ${x}]: [string, any]) => [${k}, ${convert(conversion.value, x, `${at}/\${escapePointer(${k})}`, scope, depth + 1)}]))`;
    }
    case "object":
    case "union":
    case "oneOf": {
      scope.b.importType(RUNTIME, "AdaptLog");
      const name = helper(scope, structureKey(conversion), () => String(scope.helpers.size + 1), (fn) => renderHelper(conversion, fn, scope));
      return `${name}(${input}, ${atCode(at)}, log)`;
    }
    case "named":
    case "again": {
      // One helper per recursive type, registered before its body renders, so `again` inside calls it.
      scope.b.importType(RUNTIME, "AdaptLog");
      const name = helper(scope, q(["named", conversion.key]), () => conversion.key, (fn) =>
        {
        if (conversion.kind === "again") throw new Error(`treaty bug: recursive conversion ${conversion.key} outside itself`);
        return renderHelper(conversion.conversion, fn, scope);
      },
      );
      return `${name}(${input}, ${atCode(at)}, log)`;
    }
  }
};

/** A helper's structural key; a variant selector's sorts are a set, which JSON would print as `{}`. */
const structureKey = (conversion: Conversion): string => JSON.stringify(conversion, (_, value: unknown) => (value instanceof Set ? [...value].sort() : value));

/**
 * `name` as a parameter of a function whose body is `body`: `_name` when the body never reads it, so
 * the generated code compiles under `noUnusedParameters` too. The generated code reads `log` only
 * as `log.…` or an argument, and `at` only as `${at}` or an argument: an occurrence in a string (a
 * field named `log` in a pointer) is not followed by one of those, or at worst keeps the name.
 */
const param = (name: "log" | "at", body: string): string => (new RegExp(`(?<![\\w$./"'])${name}(?=[.,)}])`).test(body) ? name : `_${name}`);

const renderHelper = (conversion: Extract<Conversion, { kind: "object" | "union" | "oneOf" }>, fn: string, scope: StepScope): string => {
  const signature = (body: string): string => `function ${fn}(x: any, ${param("at", body)}: string, ${param("log", body)}: AdaptLog): any {`;
  if (conversion.kind === "oneOf") {
    // The source validated, so the first variant selected is the value's; the selectors are the validators'.
    // A pattern a selector tests is a module-level RegExp, built once (adapters run on every decode).
    const regex = (pattern: string): string => helper(scope, `pattern:${pattern}`, () => `re${scope.helpers.size + 1}`, (name) => `const ${name} = new RegExp(${JSON.stringify(pattern)}, "u");`);
    const cases = conversion.variants.map((v) => `  if (${selectorCode(v.selector, "x", regex)}) return ${convert(v.conversion, "x", "${at}", scope, 1)};`);
    const body = `${cases.join("\n")}\n  return x;`;
    return `\n${signature(body)}\n${body}\n}`;
  }
  if (conversion.kind === "union") {
    const cases = conversion.variants.map((v) => `    case ${q(v.value)}:\n      return ${convert(v.conversion, "x", "${at}", scope, 1)};`);
    const body = `  switch (x[${q(conversion.tag)}]) {\n${cases.join("\n")}\n    default:\n      return x;\n  }`;
    return `\n${signature(body)}\n${body}\n}`;
  }
  const version = q(scope.sourceVersion);
  const lines: string[] = [];
  for (const name of conversion.dropped) {
    lines.push(`  if (${member("x", name)} !== undefined) log.dropped.push({ version: ${version}, path: \`\${at}/${segment(name)}\` });`);
  }
  if (conversion.open) {
    scope.b.importValue(RUNTIME, "escapePointer");
    const known = conversion.fields.map((f) => `key !== ${q(f.name)}`).join(" && ") || "true";
    lines.push(`  for (const key of Object.keys(x)) if (${known}) log.dropped.push({ version: ${version}, path: \`\${at}/\${escapePointer(key)}\` });`);
  }
  if (conversion.keep) scope.b.importValue(RUNTIME, "keptKeys");
  if (conversion.keep?.claimed.length) {
    scope.b.importValue(RUNTIME, "dropClaimed");
    lines.push(`  dropClaimed(x, ${q(conversion.keep.claimed)}, log, ${version}, at);`);
  }
  const kept = conversion.keep ? [`...keptKeys(x, ${q(conversion.keep.known)})`] : [];
  const entries = conversion.fields.map((f): ObjectEntry => {
    const access = member("x", f.name);
    const value = convert(f.conversion, access, `\${at}/${segment(f.name)}`, scope, 1);
    const read = value === access && isInheritedKey(f.name) ? `${value}!` : value;
    const nullSafe = f.nullable && value !== access ? `${access} === null ? null : ${value}` : read;
    return { key: f.name, value: nullSafe, ...(f.optional && { absent: `${access} === undefined` }) };
  });
  const body = [...lines, ...returnObject("o", "any", kept, entries).map((l) => `  ${l}`)].map((l) => `${l}\n`).join("");
  return `\n${signature(body)}\n${body}}`;
};

/** Walks source paths: `?.` after a segment that may be absent or null, unless a guard made it present. */
const createAccess = (source: ResolvedVersion, guarded: ReadonlySet<string>) => (path: FieldPath): string => {
  let code = "v";
  path.forEach((segment, i) => {
    const prefix = path.slice(0, i);
    const parent = i > 0 ? fieldAtSegments(source.fields, prefix) : undefined;
    const mayBeMissing = parent !== undefined && (parent.optional || parent.nullable !== undefined) && !guarded.has(prefix.join("."));
    code = member(code, segment, mayBeMissing);
  });
  return code;
};

interface ValueScope extends StepScope {
  readonly guarded: ReadonlySet<string>;
}

const sourceField = (scope: ValueScope, path: FieldPath): Field => fieldAtSegments(scope.source.fields, path)!;

/** When the planned value is absent: a condition, undefined (never) or "always". */
const absentWhen = (plan: ValuePlan, scope: ValueScope): string | undefined | "always" => {
  const access = createAccess(scope.source, scope.guarded);
  // Absent when a segment is optional, or a parent is null (read through `?.`), unless a guard holds it.
  const mayLack = (path: FieldPath): boolean =>
    path.some((_, i) => {
      const key = path.slice(0, i + 1).join(".");
      if (scope.guarded.has(key)) return false;
      const field = fieldAtSegments(scope.source.fields, path.slice(0, i + 1))!;
      return field.optional || (i < path.length - 1 && field.nullable !== undefined);
    });
  switch (plan.kind) {
    case "source":
      return mayLack(plan.path) ? `${access(plan.path)} === undefined` : undefined;
    case "object":
      return plan.guard && mayLack(plan.guard) ? `${access(plan.guard)} === undefined` : undefined;
    case "wrap":
      return absentWhen(plan.of, scope);
    case "head": {
      const of = absentWhen(plan.of, scope);
      if (plan.empty || plan.of.kind !== "source") return of;
      const listType = sourceField(scope, plan.of.path).type;
      if (listType.kind === "list" && (listType.minItems ?? 0) >= 1) return of; // never empty
      const list = access(plan.of.path);
      const empty = sourceField(scope, plan.of.path).nullable !== undefined ? `(${list} !== null && ${list}.length === 0)` : `${list}.length === 0`;
      return of === undefined ? empty : of === "always" ? of : `${of} || ${empty}`;
    }
    case "absent":
      return "always";
    default:
      return undefined;
  }
};

const fillCode = (fill: Fill, path: FieldPath, scope: ValueScope): string => {
  if (fill.kind === "stub") return `${fill.stub.name}(v)`;
  scope.b.importValue(RUNTIME, "filled");
  return `filled(log, ${q(scope.targetVersion)}, ${q(pointer(path))}, ${q(fill.value)})`;
};

/** The value of a plan, assuming it is present. */
const valueCode = (plan: ValuePlan, path: FieldPath, scope: ValueScope): string => {
  const access = createAccess(scope.source, scope.guarded);
  switch (plan.kind) {
    case "source": {
      const input = access(plan.path);
      const value = convert(plan.conversion, input, pointer(plan.path), scope, 0);
      return sourceField(scope, plan.path).nullable !== undefined && value !== input ? `${input} === null ? null : ${value}` : value;
    }
    case "object": {
      const inner: ValueScope = plan.guard ? { ...scope, guarded: new Set([...scope.guarded, plan.guard.join(".")]) } : scope;
      const literal = objectExpression(keptCode(plan.kept, scope), objectEntries(plan.fields, path, inner));
      return plan.guard && sourceField(scope, plan.guard).nullable !== undefined ? `${access(plan.guard)} === null ? null : ${literal}` : literal;
    }
    case "constant":
    case "default":
    case "stub":
      return fillCode(plan.kind === "constant" ? { kind: "default", value: plan.value } : plan, path, scope);
    case "fill": {
      const absent = absentWhen(plan.of, scope);
      const of = valueCode(plan.of, path, scope);
      if (absent === undefined) return of;
      return absent === "always" ? fillCode(plan.fill, path, scope) : `${absent} ? ${fillCode(plan.fill, path, scope)} : ${of}`;
    }
    case "wrap": {
      const of = plan.of;
      if (of.kind === "source" && sourceField(scope, of.path).nullable !== undefined) {
        const input = access(of.path);
        return `${input} === null ? null : [${convert(of.conversion, input, pointer(of.path), scope, 0)}]`;
      }
      return `[${valueCode(of, path, scope)}]`;
    }
    case "head":
      return headCode(plan, path, scope);
    case "unchecked": {
      scope.b.importValue(RUNTIME, "unchecked");
      const absent = absentWhen(plan.of, scope);
      const of = valueCode(plan.of, path, scope);
      const plain = plan.of.kind === "source" && plan.of.conversion.kind === "same";
      return `unchecked(${absent === undefined || plain ? of : `${absent} ? undefined : ${of}`})`;
    }
    case "absent":
      return "undefined";
  }
};

const headCode = (plan: Extract<ValuePlan, { kind: "head" }>, path: FieldPath, scope: ValueScope): string => {
  const of = plan.of;
  if (of.kind !== "source") return `(${valueCode(of, path, scope)})[0]!`;
  const access = createAccess(scope.source, scope.guarded);
  const list = access(of.path);
  // Items after the first have nowhere to go.
  const top = createAccess(scope.source, new Set())(of.path);
  scope.statements.push(
    `for (let i = 1; i < (${top}?.length ?? 0); i++) log.dropped.push({ version: ${q(scope.sourceVersion)}, path: \`${pointer(of.path)}/\${i}\` });`,
  );
  const item = of.conversion.kind === "list" ? of.conversion.item : of.conversion;
  const first = convert(item, `${list}[0]!`, `${pointer(of.path)}/0`, scope, 0);
  const value = plan.empty ? `${list}.length > 0 ? ${first} : ${fillCode(plan.empty, path, scope)}` : first;
  return sourceField(scope, of.path).nullable !== undefined ? `${list} === null ? null : ${value}` : value;
};

/** The spread of a kept object's unknown keys, first, so declared fields win. */
const keptCode = (kept: (KeptKeys & { readonly source: FieldPath }) | undefined, scope: ValueScope): string[] => {
  if (!kept) return [];
  scope.b.importValue(RUNTIME, "keptKeys");
  const source = createAccess(scope.source, scope.guarded)(kept.source);
  if (kept.claimed.length > 0) {
    scope.b.importValue(RUNTIME, "dropClaimed");
    scope.statements.push(`dropClaimed(${source}, ${q(kept.claimed)}, log, ${q(scope.sourceVersion)}, ${atCode(pointer(kept.source))});`);
  }
  return [`...keptKeys(${source}, ${q(kept.known)})`];
};

/** A field of an object an adapter builds; left out when `absent` holds. */
interface ObjectEntry {
  readonly key: string;
  readonly value: string;
  readonly absent?: string;
}

const objectEntries = (fields: readonly FieldPlan[], path: FieldPath, scope: ValueScope): ObjectEntry[] => {
  const entries: ObjectEntry[] = [];
  for (const field of fields) {
    const fieldPath = [...path, field.name];
    const absent = absentWhen(field.value, scope);
    if (absent === "always") continue;
    const code = valueCode(field.value, fieldPath, scope);
    // An own-property read is `T | undefined` to TypeScript; `absent` has ruled undefined out.
    const value = isInheritedKey(field.name) && code.endsWith(": undefined)") ? `${code}!` : code;
    entries.push({ key: field.name, value, ...(absent !== undefined && { absent }) });
  }
  return entries;
};

/** An object literal of `lead` (spreads, the envelope) then `entries`, a field that may be absent spread in. */
const objectExpression = (lead: readonly string[], entries: readonly ObjectEntry[]): string => {
  const fields = entries.map(({ key, value, absent }) => (absent === undefined ? `${printKey(key)}: ${value}` : `...(${absent} ? {} : { ${printKey(key)}: ${value} })`));
  return `{ ${[...lead, ...fields].join(", ")} }`;
};

/**
 * Statements building, as `name`, the object `objectExpression` would: a literal up to the first
 * field that may be absent, then the rest assigned in order (a spread per optional field cost
 * about 40 ns). With every required field in the literal it is checked as the type (excess keys
 * included); otherwise asserted to be it. A draft lacks what its hand-written stub adds.
 * `__proto__` cannot be assigned as an own key: an object declaring it is built by the expression.
 */
const objectStatements = (name: string, type: string, lead: readonly string[], entries: readonly ObjectEntry[], draft = false): string[] => {
  const first = entries.findIndex((e) => e.absent !== undefined);
  if (first === -1 || entries.some((e) => e.key === "__proto__")) return [`const ${name} = ${objectExpression(lead, entries)} as ${type};`];
  const assigned = entries.slice(first).map(({ key, value, absent }) => {
    const target = isIdentifier(key) ? `${name}.${key}` : `${name}[${JSON.stringify(key)}]`;
    return absent === undefined ? `${target} = ${value};` : `if (${present(absent)}) ${target} = ${value};`;
  });
  const complete = !draft && entries.slice(first).every((e) => e.absent !== undefined);
  const literal = objectExpression(lead, entries.slice(0, first));
  return [complete ? `const ${name}: ${type} = ${literal};` : `const ${name} = ${literal} as ${type};`, ...assigned];
};

/** The negation of an `absent` condition: `x !== undefined` for a plain `x === undefined`. */
const present = (absent: string): string =>
  absent.endsWith(" === undefined") && !/\|\||&&| \? /.test(absent) ? `${absent.slice(0, -" === undefined".length)} !== undefined` : `!(${absent})`;

/** `return` of the object `objectExpression` would build: the literal itself when no field may be absent. */
const returnObject = (name: string, type: string, lead: readonly string[], entries: readonly ObjectEntry[]): string[] =>
  entries.some((e) => e.absent !== undefined) ? [...objectStatements(name, type, lead, entries), `return ${name};`] : [`return ${objectExpression(lead, entries)};`];

const stepDoc = (contract: Contract, step: Step): string => {
  const what = step.direction === "up" ? `applies the changes of ${step.target.version}` : `reverses the changes of ${step.source.version}`;
  const exact = step.exact ? "Lossless." : "Lossy: what it drops is recorded in `log.dropped`.";
  const checked = step.unchecked ? " Its result may fail the target's validation." : "";
  return `/** ${contract.name} ${step.source.version} → ${step.target.version}: ${what}. ${exact}${checked} */`;
};

const renderStep = (adapters: ContractAdapters, step: Step, b: FileBuilder): string => {
  const { contract } = adapters;
  const [source, target] = [rootTypeName(contract.name, step.source.version), rootTypeName(contract.name, step.target.version)];
  b.importType(`./${versionId(step.source.version)}/types.js`, source);
  b.importType(`./${versionId(step.target.version)}/types.js`, target);
  b.importType(RUNTIME, "AdaptLog");
  const scope: ValueScope = {
    b,
    source: step.source,
    sourceVersion: step.source.version,
    targetVersion: step.target.version,
    helpers: new Map(),
    prefix: step.name,
    statements: [],
    guarded: new Set(),
  };
  for (const path of step.dropped) {
    scope.statements.push(
      `if (${createAccess(step.source, new Set())(path)} !== undefined) log.dropped.push({ version: ${q(step.source.version)}, path: ${q(pointer(path))} });`,
    );
  }
  const envelope = contract.envelope === "embedded" ? [`contract: ${q(contract.name)}`, `version: ${q(step.target.version)}`] : [];
  const lead = [...keptCode(step.kept, scope), ...envelope];
  const entries = objectEntries(step.fields, [], scope);
  const body = step.custom
    ? [...objectStatements("draft", target, lead, entries, true), `return ${step.custom.name}.${step.direction === "up" ? "upgrade" : "downgrade"}(v, draft, log);`]
    : returnObject("o", target, lead, entries);
  const helpers = [...scope.helpers.values()].map((h) => h.code).join("\n");
  const lines = [...scope.statements, ...body].map((line) => `  ${line}`).join("\n");
  return `${helpers}${helpers ? "\n\n" : ""}${stepDoc(contract, step)}\nexport function ${step.name}(v: ${source}, ${param("log", lines)}: AdaptLog): ${target} {\n${lines}\n}`;
};

const chain = (steps: readonly Step[], input: string): string => steps.reduce((code, step) => `${step.name}(${code}, log)`, input);

/** The head of an entry of a version's adapters, up to its arrow: `name: (value: From, log: AdaptLog): To =>`. */
const adapterHead = (name: string, from: string, to: string, body: string): string => `${name}: (value: ${from}, ${param("log", body)}: AdaptLog): ${to} =>`;

/** One entry of a version's adapters: `name: (value: From, log: AdaptLog): To => body`. */
const adapter = (name: string, from: string, to: string, body: string): string => `${adapterHead(name, from, to, body)} ${body}`;

/** Prettier's printWidth (format/prettier-format.ts). */
const WIDTH = 100;

/**
 * An entry of `adapter` as prettier prints it as a property at column 4 (of a version's object):
 * on one line where it fits, else broken after its arrow with the body on the next line. Where the
 * head alone is too wide, its parameters are broken one a line and the head closed on a line of its
 * own (`): To =>`), which the body follows alike. Undefined where the body is too wide for its line
 * (prettier then breaks inside it).
 */
const prettyAdapter = (name: string, from: string, to: string, body: string): string | undefined => {
  const head = `    ${adapterHead(name, from, to, body)}`;
  const ended = (last: string): string | undefined => {
    if (last.length + body.length + 2 <= WIDTH) return `${last} ${body},`;
    return last.length <= WIDTH && body.length + 7 <= WIDTH ? `${last}\n      ${body},` : undefined;
  };
  if (head.length <= WIDTH) return ended(head);
  const close = ended(`    ): ${to} =>`);
  return close === undefined ? undefined : `    ${name}: (\n      value: ${from},\n      ${param("log", body)}: AdaptLog,\n${close}`;
};

const renderVersion = (adapters: ContractAdapters, version: VersionAdapters, b: FileBuilder): { code: string; helpers: string; pretty: string | undefined } => {
  const { contract } = adapters;
  const own = rootTypeName(contract.name, version.version.version);
  const canonical = rootTypeName(contract.name, adapters.canonical.version);
  b.importType(`./${versionId(version.version.version)}/types.js`, own);
  b.importType(`./${versionId(adapters.canonical.version)}/types.js`, canonical);
  b.importType(RUNTIME, "AdaptLog");
  const toBody = chain(version.toCanonical, "value");
  const fromBody = chain(version.fromCanonical, "value");
  const lines = [
    `path: ${q(version.path)}`,
    `lossless: ${version.lossless}`,
    `revalidate: ${version.revalidate}`,
    adapter("toCanonical", own, canonical, toBody),
    adapter("fromCanonical", canonical, own, fromBody),
  ];
  let helpers = "";
  if (version.strip) {
    const scope: StepScope = {
      b,
      source: version.version,
      sourceVersion: version.version.version,
      targetVersion: version.version.version,
      helpers: new Map(),
      prefix: `strip${versionId(version.version.version)[0]!.toUpperCase()}${versionId(version.version.version).slice(1)}`,
      statements: [],
    };
    lines.push(adapter("strip", own, own, convert(version.strip, "value", "", scope, 0)));
    helpers = [...scope.helpers.values()].map((h) => h.code).join("\n");
  }
  // Its layout in prettier's format, where certain: not for a strip adapter, whose body is a conversion.
  const path = `    path: [${version.path.map((v) => q(v)).join(", ")}],`;
  const entries = [prettyAdapter("toCanonical", own, canonical, toBody), prettyAdapter("fromCanonical", canonical, own, fromBody)];
  const pretty =
    version.strip || path.length > WIDTH || entries.some((e) => e === undefined)
      ? undefined
      : `  ${q(version.version.version)}: {\n${path}\n    lossless: ${version.lossless},\n    revalidate: ${version.revalidate},\n${entries.join("\n")}\n  },\n`;
  return { code: `${q(version.version.version)}: {\n    ${lines.join(",\n    ")},\n  }`, helpers, pretty };
};

/** `generated/<contract>/adapters.ts` for one contract. */
export const emitAdapters = (adapters: ContractAdapters): EmittedFile => {
  const { contract } = adapters;
  const b = createFileBuilder(`${contractDir(contract.name)}/adapters.ts`, contract.file);
  for (const stub of adapters.stubs) b.importValue(adapters.layout.fromGenerated, stub.name);
  const steps = adapters.steps.map((step) => renderStep(adapters, step, b));
  const versions = adapters.versions.map((version) => renderVersion(adapters, version, b));
  // The last statement, and its layout where every version's is certain (the most common file of a
  // contract that prettier would otherwise format: one a contract, each different).
  const doc = `/** Every version of ${contract.name} with its adapters to the canonical version (${adapters.canonical.version}) and back. */\nexport const adapters = {\n`;
  const table = `${doc}${versions.map((v) => `  ${v.code},\n`).join("")}} as const;\n`;
  const emitted = b.render("adapters", {
    declarations: [...steps, ...versions.map((v) => v.helpers).filter((h) => h !== "")],
    table: table.slice(0, -1),
  });
  if (versions.some((v) => v.pretty === undefined)) return emitted;
  return { ...emitted, laidOut: new Map([[table, `${doc}${versions.map((v) => v.pretty).join("")}} as const;\n`]]) };
};
