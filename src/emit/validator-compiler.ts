import { rootFields } from "../ir/envelope.js";
import type {
  Contract,
  ContractRefType,
  Field,
  JsonType,
  ListType,
  MapType,
  NumericType,
  OneOfType,
  Project,
  ResolvedVersion,
  StringFormat,
  StringType,
  TupleType,
  TypeNode,
  UnionType,
} from "../ir/model.js";
import { JSON_DEPTH_LIMIT, type JsonFault } from "../runtime/json-value.js";
import { contractTypeName, rootTypeName, versionsOfMajor } from "../ir/names.js";
import { indent, isIdentifier, isObject, lit, member, oneOf, pointerTail, pushIssue } from "./validator-code.js";
import { createHoister, type Hoister } from "./validator-hoister.js";
import { refPattern } from "../ir/ref-pattern.js";
import { objectPolicy, type ObjectPolicy } from "../ir/open-objects.js";
import { hoistRules } from "./validator-rules.js";
import { distinguishVariants } from "../ir/one-of-variants.js";
import { selectorCode } from "./validator-one-of.js";
import { CHECKED, depthGuard, entryCount, VISITS } from "./validator-recursive.js";
import { walkSpread } from "../ir/walk-bound.js";
import { FORMAT_TESTS } from "../runtime/formats.js";
import { MAX_NODES } from "../runtime/max-nodes.js";
import { maxDepthOf, recursiveTypes } from "../ir/recursion.js";

// Turns the IR of one version into straight-line JS. Every type becomes a guard (its JSON type),
// tests (its constraints) and, for containers, a hoisted pair of functions called once the guard
// passed: `is_<base>(v): boolean`, which allocates nothing, and `err_<base>(v, out): void`,
// which pushes an issue for each failure of `v` (its path a pointer below `v`) and none when valid.
// `errors` walks the value once, by err_ alone; a caller puts the segment of where `v` is in front
// of the paths its err_ reported (`nest`), so a path is put together only for an issue, on the way
// back up, and a valid part costs what is_ would (asking is_ before descending walked a failing
// part again at every level above it).
// `check` and `errors` are built from the same pieces, so they cannot disagree. The semantics are
// those of Ajv 8 (with ajv-formats) on the JSON Schema treaty emits for the same IR.

/** A JS expression over the value held by the identifier `x`. */
type Expr = (x: string) => string;

interface Test {
  readonly pass: Expr;
  readonly code: string;
  readonly expected: string;
  readonly problem: string;
  /** When it fails, `errors` examines the value no further (a string past `maxLength`). */
  readonly last?: boolean;
}

/** How a value of one type is checked where it is used. */
interface Compiled {
  /** The JSON type; absent when the tests decide alone (enum, const). */
  readonly guard?: Expr;
  /** The type in words, for `type` and `required` issues. */
  readonly label: string;
  /** Constraints, run once the guard passed. */
  readonly tests: readonly Test[];
  /** The base of the hoisted is_/err_ pair checking the content; absent when anything goes. */
  readonly deep?: string;
  /** An object whose content anything goes for (no `deep`): `read` still copies it. */
  readonly container?: true;
}

interface Scope {
  readonly contract: Contract;
  readonly version: ResolvedVersion;
  /** Prefix of hoisted names: "" for the version being emitted, e.g. `TaskResultV1_0_` for others. */
  readonly prefix: string;
}

/** How one version's payload is checked, for a value already known to be an object. */
interface Entry {
  readonly check: Expr;
  /** `x` passes, `t` (a variable holding `x`) set to its copy. */
  readonly take: (x: string, t: string) => string;
  /** Statements pushing the issues of `x` (paths below it) into the array `out`. */
  readonly errors: (x: string, out: string) => string[];
}

export interface ValidatorCode {
  /** Module-level constants and functions. */
  readonly declarations: readonly string[];
  /** The body of `check(value)`: one boolean expression. */
  readonly check: string;
  /** The body of `read(value)`: one boolean expression that, when true, has set `t` to the copy of `value`. */
  readonly read: string;
  /** The body of `errors(value)`: statements pushing into `out`. */
  readonly errors: readonly string[];
  /** What each of check, read and errors runs first: `checkPolluted()`, and the counts of the runtime's walks (`startWalks()`) and of recursive-type values set back to zero. */
  readonly reset?: string;
  /** What `read` runs first besides `reset`: the count of the values it copies set back to zero (`startReading()`). */
  readonly readReset: string;
}

/** Kinds whose values are never objects or arrays: a `unique` list of them is told apart without walking. */
const PRIMITIVE: ReadonlySet<TypeNode["kind"]> = new Set(["string", "int", "number", "bool", "timestamp", "ref", "enum"]);

// Enums longer than this are looked up in a Set rather than compared value by value.
const ENUM_CHAIN_LIMIT = 8;
/** Objects with more keys than this check for unknown ones in a Set rather than a switch. */
const WIDE_OBJECT = 32;
/** Fields an object's is_, err_ and take_ handle themselves; a wider object's others go to parts of that many. */
const FIELDS_PER_FUNCTION = 32;

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

const bug = (message: string): never => {
  throw new Error(`treaty bug (validator): ${message}`);
};

/** `head` followed by `lines`: in braces, unless one statement reads well on the same line. */
const block = (head: string, lines: readonly string[]): string[] => {
  const [only] = lines;
  const inline = only !== undefined && lines.length === 1 && (head === "else" || !only.startsWith("if "));
  return inline ? [`${head} ${only}`] : [`${head} {`, ...indent(lines), "}"];
};

/**
 * Where a value is, for `errors`, below the value its err_ function was given: `tail`, a JS
 * expression for that part of the pointer (`"/name"`, `"/" + i`; "" for that value itself).
 */
interface Position {
  readonly tail: string;
}

/** The value an err_ function is given. */
const HERE: Position = { tail: '""' };

/** A field (or a tuple's position) `name` of the value an err_ function is given. */
const fieldAt = (name: string): Position => ({ tail: pointerTail([name]) });

/** The item at index `i` (a JS expression) of a list. */
const itemAt = (i: string): Position => ({ tail: `"/" + ${i}` });

/** The value at the key `k` of an object, given the name `escape` has of `escapePointer` in the module. */
const keyAt = (escape: string): Position => ({ tail: `"/" + ${escape}(k)` });

/**
 * The call of `err_<deep>` for the value `x` at `at`, then the issues it reported put under `at`
 * by the runtime's `nest` (only when there are some). `runtime(name)`: the module's name of a
 * treaty/runtime export it uses, imported.
 */
const descend = (deep: string, x: string, at: Position, runtime: (name: string) => string): string[] => {
  const call = `err_${deep}(${x}, out);`;
  return at === HERE ? [call] : ["const before = out.length;", call, `if (out.length > before) ${runtime("nest")}(out, before, ${at.tail});`];
};

/**
 * Statements pushing an issue for each way `x` (at `at`) fails `c`, none when it passes; `x` is
 * never null here when the field is nullable. A container's content is examined by its err_; a
 * test marked `last` that fails ends the examination of `x`. `runtime`: as for `descend`.
 */
const reportLines = (c: Compiled, x: string, at: Position, nullable: boolean, runtime: (name: string) => string): string[] => {
  const orNull = nullable ? " or null" : "";
  const tail = c.deep ? descend(c.deep, x, at, runtime) : [];
  const content = c.tests.reduceRight<string[]>((rest, t) => {
    const report = `if (!(${t.pass(x)})) ${pushIssue("out", at.tail, t.code, c.guard ? t.expected : t.expected + orNull, t.problem)}`;
    return t.last && rest.length > 0 ? [report, ...block("else", rest)] : [report, ...rest];
  }, tail);
  if (!c.guard) return content;
  const wrongType = `if (!(${c.guard(x)})) ${pushIssue("out", at.tail, "type", c.label + orNull, "wrong type")}`;
  if (content.length === 0) return [wrongType];
  const [first] = content;
  return content.length === 1 ? [wrongType, `else ${first}`] : [wrongType, "else {", ...indent(content), "}"];
};

/** A boolean expression: `x` passes `c`. */
const checkExpr = (c: Compiled, x: string, nullable: boolean): string => {
  const parts = [
    ...(c.guard ? [c.guard(x)] : []),
    ...c.tests.map((t) => t.pass(x)),
    ...(c.deep ? [`is_${c.deep}(${x})`] : []),
  ].join(" && ");
  return nullable ? `(${x} === null || (${parts}))` : parts;
};

const TAKE_DECLARED = /^function (take_[\w$]+)\(/;
const TAKE_CALLED = /\btake_[\w$]+(?=\()/g;

/**
 * `declarations` without the `take_` functions `read` never reaches. A container's take_ is built
 * with its is_ and err_, but a reader copies some containers whole instead (a variant of an untagged
 * union, a tuple's item), so nothing calls theirs. Each declaration's top-level functions are
 * looked at one by one; a declaration with none left is dropped.
 */
const withoutUnusedTakes = (declarations: readonly string[], read: string): string[] => {
  const split = declarations.map((text) => (text.includes("function take_") ? text.split(/^(?=function |const |let )/m) : [text]));
  const takes = new Map<string, string>();
  const reached: string[] = [];
  const follow = (text: string, own?: string): void => {
    for (const [name] of text.matchAll(TAKE_CALLED)) if (name !== own) reached.push(name);
  };
  follow(read);
  for (const chunks of split) {
    for (const chunk of chunks) {
      const name = TAKE_DECLARED.exec(chunk)?.[1];
      if (name === undefined) follow(chunk);
      else takes.set(name, chunk);
    }
  }
  const used = new Set<string>();
  for (let name = reached.pop(); name !== undefined; name = reached.pop()) {
    if (used.has(name)) continue;
    used.add(name);
    const chunk = takes.get(name);
    if (chunk !== undefined) follow(chunk, name);
  }
  return split.flatMap((chunks, i) => {
    if (chunks.length === 1 && !TAKE_DECLARED.test(chunks[0]!)) return [declarations[i]!];
    const kept = chunks.filter((chunk) => {
      const name = TAKE_DECLARED.exec(chunk)?.[1];
      return name === undefined || used.has(name);
    });
    if (kept.length === chunks.length) return [declarations[i]!];
    return kept.length === 0 ? [] : [kept.map((chunk) => chunk.trimEnd()).join("\n\n")];
  });
};

export const compileValidator = (
  project: Project,
  contract: Contract,
  version: ResolvedVersion,
  useRuntime: (name: string) => void,
): ValidatorCode => {
  const created: Hoister = createHoister();
  /** Bases of the hoisted pairs that come with a `take_<base>` of their own (objects, lists, tagged unions, recursive types, embedded contracts). */
  const ownTake = new Set<string>();
  // The declarations, noting those that define a take_ of their base.
  const hoister: Hoister = {
    hoist: (key, site, build) => {
      let takes = false;
      const name = created.hoist(key, site, (base) => {
        const text = build(base);
        takes = text.includes(`function take_${base}(`);
        return text;
      });
      if (takes) ownTake.add(name);
      return name;
    },
    declarations: () => created.declarations(),
    known: (key) => created.known(key),
  };
  const runtime = (name: string): string => {
    useRuntime(name);
    return name;
  };
  const recursive = new Map<ResolvedVersion, ReadonlySet<string>>();
  /** The recursive types of a version, worked out once per compile (the walk bound asks too). */
  const recursiveOf = (version: ResolvedVersion): ReadonlySet<string> => {
    const known = recursive.get(version) ?? recursiveTypes(version);
    recursive.set(version, known);
    return known;
  };
  const recursiveIn = (scope: Scope): ReadonlySet<string> => recursiveOf(scope.version);
  // Where the contract does not bound the walk (an unbounded map or list inside another), each
  // entry is counted against MAX_NODES; elsewhere nothing is, and the validator is as it was.
  const counting = walkSpread(project, contract, version, recursiveOf) > MAX_NODES ? entryCount(hoister) : undefined;
  /** is_'s and err_'s first statements for an entry of type `t` of a map, list or object's kept keys: none where unneeded. */
  const countIs = (scope: Scope, t: TypeNode): string[] => (counting && !countsItself(scope, t) ? [counting.is] : []);
  const countErr = (scope: Scope, t: TypeNode): string[] => (counting && !countsItself(scope, t) ? [...counting.err] : []);
  /** A value of a recursive type is counted by its own is_ and err_ (depthGuard). */
  const countsItself = (scope: Scope, t: TypeNode): boolean => t.kind === "named" && recursiveIn(scope).has(t.name);
  /**
   * `read`'s counterpart of `checkExpr`: true when `x` passes `c`, and then `t` (a variable that
   * holds `x`) holds what is handed over, read once: the value itself when it is not a container,
   * else a fresh copy. A container is copied by its own `take_` where it has one (which reads each
   * value once, checking it as it goes), else copied whole and the copy checked; its constraints
   * (list lengths, uniqueness) are tested on the copy.
   */
  const takeExpr = (c: Compiled, x: string, t: string, nullable: boolean): string => {
    let parts: string[];
    if (!c.deep) {
      parts = [...(c.guard ? [c.guard(x)] : []), ...c.tests.map((test) => test.pass(x)), ...(c.container ? [`(${t} = ${runtime("snapshot")}(${x})) !== undefined`] : [])];
    } else if (ownTake.has(c.deep)) {
      parts = [...(c.guard ? [c.guard(x)] : []), `(${t} = take_${c.deep}(${x})) !== undefined`, ...c.tests.map((test) => test.pass(t))];
    } else {
      // Tested before the copy too: a tuple's length bounds what is copied.
      parts = [
        ...(c.guard ? [c.guard(x)] : []),
        ...c.tests.map((test) => test.pass(x)),
        `(${t} = ${runtime("takeChecked")}(${x}, is_${c.deep})) !== undefined`,
        ...c.tests.map((test) => test.pass(t)),
      ];
    }
    const all = parts.length === 0 ? "true" : parts.join(" && ");
    return nullable ? `(${x} === null || (${all}))` : all;
  };

  /** Whether `read` hands over something other than `x` itself for a value of `c`. */
  const copies = (c: Compiled): boolean => c.deep !== undefined || c.container === true;

  /** The statement setting `key` of the fresh object `o` to `value`. */
  const setMember = (key: string, value: string): string =>
    key === "__proto__" ? `${runtime("putKey")}(o, "__proto__", ${value});` : isIdentifier(key) ? `o.${key} = ${value};` : `o[${lit(key)}] = ${value};`;
  /** The statement deleting `key` of the fresh object `o`. */
  const deleteMember = (key: string): string => (isIdentifier(key) ? `delete o.${key};` : `delete o[${lit(key)}];`);
  const scopeOf = (c: Contract, v: ResolvedVersion): Scope => ({
    contract: c,
    version: v,
    prefix: c === contract && v === version ? "" : `${rootTypeName(c.name, v.version)}_`,
  });

  const stringTests = (t: StringType, site: string): Test[] => {
    const tests: Test[] = [];
    // Code points never outnumber UTF-16 units nor fall below half of them: count only in between.
    if (t.minLength !== undefined && t.minLength > 0) {
      const n = t.minLength;
      const length = runtime("codePointLength");
      tests.push({
        pass: (x) => `(${x}.length >= ${2 * n} || ${length}(${x}) >= ${n})`,
        code: "minLength",
        expected: `string of at least ${count(n, "character")}`,
        problem: "too short",
      });
    }
    if (t.maxLength !== undefined) {
      const n = t.maxLength;
      const length = runtime("codePointLength");
      // Past twice the bound in units it is too long in code points too: a huge string is never counted.
      tests.push({
        pass: (x) => `(${x}.length <= ${n} || (${x}.length <= ${2 * n} && ${length}(${x}) <= ${n}))`,
        code: "maxLength",
        expected: `string of at most ${count(n, "character")}`,
        problem: "too long",
        last: true,
      });
    }
    if (t.pattern !== undefined) tests.push(patternTest(t.pattern, site));
    if (t.format !== undefined) tests.push(formatTest(t.format));
    return tests;
  };

  const patternTest = (pattern: string, site: string): Test => {
    new RegExp(pattern, "u"); // resolve validated it; fail here rather than in generated code
    const re = hoister.hoist(`pattern:${pattern}`, site, (base) => `const re_${base} = new RegExp(${lit(pattern)}, "u");`);
    return { pass: (x) => `re_${re}.test(${x})`, code: "pattern", expected: `string matching ${pattern}`, problem: "pattern mismatch" };
  };

  const formatTest = (format: StringFormat): Test => {
    // The runtime exports each test under its own name.
    const fn = runtime(FORMAT_TESTS[format].name);
    return { pass: (x) => `${fn}(${x})`, code: "format", expected: `${format} string`, problem: "invalid format" };
  };

  const numericTests = (t: NumericType, label: string): Test[] => {
    const bound = (limit: number | undefined, op: string, code: string, problem: string): Test[] =>
      limit === undefined ? [] : [{ pass: (x) => `${x} ${op} ${limit}`, code, expected: `${label} ${op} ${limit}`, problem }];
    const m = t.multipleOf;
    const multiple: Test[] =
      m === undefined
        ? []
        : [{ pass: (x) => `${runtime("isMultipleOf")}(${x}, ${m})`, code: "multipleOf", expected: `${label} multiple of ${m}`, problem: "not a multiple" }];
    return [
      ...bound(t.min, ">=", "min", "too small"),
      ...bound(t.exclusiveMin, ">", "exclusiveMin", "too small"),
      ...bound(t.max, "<=", "max", "too large"),
      ...bound(t.exclusiveMax, "<", "exclusiveMax", "too large"),
      ...multiple,
    ];
  };

  const listTests = (t: ListType): Test[] => [
    ...(t.minItems !== undefined && t.minItems > 0
      ? [{ pass: (x: string) => `${x}.length >= ${t.minItems}`, code: "minItems", expected: `array of at least ${count(t.minItems, "item")}`, problem: "too few items" }]
      : []),
    ...(t.maxItems !== undefined
      ? [{ pass: (x: string) => `${x}.length <= ${t.maxItems}`, code: "maxItems", expected: `array of at most ${count(t.maxItems, "item")}`, problem: "too many items" }]
      : []),
    // Among the first maxItems only: past them the list fails anyway.
    ...(t.unique ? walked(t.of.kind, { pass: (x: string) => `!${runtime("hasDuplicates")}(${x}${t.maxItems === undefined ? "" : `, ${t.maxItems}`})`, code: "unique", expected: "array of unique items", problem: "duplicate items" }) : []),
  ];

  const compile = (scope: Scope, type: TypeNode, site: string): Compiled => {
    switch (type.kind) {
      case "string":
        return { guard: (x) => `typeof ${x} === "string"`, label: "string", tests: stringTests(type, site) };
      case "int":
        return { guard: (x) => `Number.isInteger(${x})`, label: "integer", tests: numericTests(type, "integer") };
      case "number":
        return { guard: (x) => `Number.isFinite(${x})`, label: "number", tests: numericTests(type, "number") };
      case "bool":
        return { guard: (x) => `typeof ${x} === "boolean"`, label: "boolean", tests: [] };
      case "timestamp":
        return { guard: (x) => `typeof ${x} === "string"`, label: "date-time string", tests: [formatTest("date-time")] };
      case "ref":
        return {
          guard: (x) => `typeof ${x} === "string"`,
          label: `${type.scheme}:// reference`,
          tests: [patternTest(refPattern(type.scheme), site)],
        };
      case "list":
        return {
          guard: (x) => `Array.isArray(${x})`,
          label: "array",
          tests: listTests(type),
          deep: hoistItems(scope, type, site),
        };
      case "map":
        return { guard: isObject, label: "object", tests: [], deep: hoistValues(scope, type, site) };
      case "json":
        return { label: "JSON value", tests: [budget], deep: hoistJson(type) };
      case "tuple":
        return { guard: (x) => `Array.isArray(${x})`, label: `array of ${count(type.items.length, "item")}`, tests: tupleTests(type), deep: hoistTuple(scope, type, site) };
      case "object":
        return withDeep({ guard: isObject, label: "object", tests: [] }, hoistObject(scope, type.fields, [], site, objectPolicy(scope.contract, type)));
      case "union":
        return {
          guard: isObject,
          label: `object with ${type.tag} ${oneOf(type.variants.map((v) => v.value))}`,
          tests: [],
          deep: hoistUnion(scope, type, site),
        };
      case "oneOf":
        return compileOneOf(scope, type, site);
      case "const": {
        const expected = lit(type.value);
        return { label: expected, tests: [{ pass: (x) => `${x} === ${expected}`, code: "const", expected, problem: "wrong constant" }] };
      }
      case "enum": {
        const def = scope.version.enums.get(type.name) ?? bug(`enum ${type.name} is not resolved`);
        const expected = oneOf(def.values.map((v) => v.name));
        const fn = hoistEnum(scope, type.name, def.values.map((v) => v.name));
        return { label: expected, tests: [{ pass: (x) => `is_${fn}(${x})`, code: "enum", expected, problem: "value not allowed" }] };
      }
      case "named": {
        const named = scope.version.types.get(type.name) ?? bug(`type ${type.name} is not resolved`);
        const key = `${scope.prefix}type:${type.name}`;
        const site = `${scope.prefix}${type.name}`;
        const deep = recursiveIn(scope).has(type.name)
          ? hoister.hoist(key, site, (base) => {
              // Its own fields refer to it: they call its take_, which exists when the fields' one does.
              ownTake.add(base);
              const inner = hoistObject(scope, named.fields, [], `${site}_fields`, objectPolicy(scope.contract, named));
              const taken = inner !== undefined && ownTake.has(inner);
              if (!taken) ownTake.delete(base);
              return depthGuard(hoister, base, inner, type.name, maxDepthOf(named), taken);
            })
          : hoistObject(scope, named.fields, [], site, objectPolicy(scope.contract, named), key);
        return withDeep({ guard: isObject, label: `${type.name} object`, tests: [] }, deep);
      }
      case "contract":
        return { guard: isObject, label: `${type.contract}@${type.major} payload`, tests: [], deep: hoistContract(type) };
    }
  };

  const withDeep = (c: Compiled, deep: string | undefined): Compiled => (deep === undefined ? { ...c, container: true } : { ...c, deep });

  const hoistEnum = (scope: Scope, name: string, values: readonly string[]): string =>
    hoister.hoist(`${scope.prefix}enum:${name}`, `${scope.prefix}${name}`, (base) => {
      if (values.length > ENUM_CHAIN_LIMIT) {
        return [
          `const values_${base}: ReadonlySet<unknown> = new Set<unknown>([${values.map(lit).join(", ")}]);`,
          "",
          `function is_${base}(v: unknown): boolean {`,
          `  return values_${base}.has(v);`,
          "}",
        ].join("\n");
      }
      const test = values.length === 0 ? "false" : values.map((value) => `v === ${lit(value)}`).join(" || ");
      return [`function is_${base}(v: unknown): boolean {`, `  return ${test};`, "}"].join("\n");
    });

  /** The first statement of a function reading fields of the object `v`: only its own count. */
  const ownFields = (): string => `v = ${runtime("ownView")}(v);`;

  /**
   * In `is_<base>` (or its `take_` or `err_`), right after its first read of `v`: an object of
   * another prototype (or any object, while Object.prototype is `polluted`) is examined as its own
   * view instead. After a read V8 knows `v`'s map and folds the prototype test into it, so a plain
   * object pays nothing (a call to ownView up front cost check 40%).
   */
  const ownFieldsAfterRead = (base: string, fn: "is" | "take" | "err" = "is", rest = ""): string =>
    `if (Object.getPrototypeOf(v) !== Object.prototype ? Object.getPrototypeOf(v) !== null : ${runtime("polluted")}) return ${fn}_${base}(${runtime("ownView")}(v)${rest});`;

  /**
   * The runtime's walks over a JSON value (a `json` value, kept JSON data, the canonical texts of a
   * `unique` list) share one count per call (`walksLeft`: at most MAX_NODES values walked so far),
   * asked before each walk and after it: a map whose 2,000 keys hold one shared JSON value of
   * 600,000 values was 1.2 billion values walked. Before, so past the count nothing more is walked;
   * after, so a payload passes when each walk passes and all of them walked at most MAX_NODES
   * values, whatever order check, read and errors walk its parts in. Past it the value fails as the
   * counted entries do, `depth`. The call then starts the count first (`startWalks`, in `reset`).
   */
  let walks = false;
  const walksLeft = (): string => {
    walks = true;
    return `${runtime("walksLeft")}()`;
  };
  const budget: Test = { pass: () => walksLeft(), code: "depth", expected: `at most ${MAX_NODES} nested values`, problem: "too many nested values", last: true };
  /** `test`, a walk of the runtime's, between the two asks of the count; alone where the values are never objects or arrays. */
  const walked = (kind: TypeNode["kind"], test: Test): Test[] => (PRIMITIVE.has(kind) ? [test] : [budget, test, budget]);

  /** `errors` stops a loop over payload entries once it holds MAX_ISSUES issues. */
  const stopAtCap = (): string => `if (out.length >= ${runtime("MAX_ISSUES")}) return;`;

  const hoistItems = (scope: Scope, t: ListType, site: string): string =>
    hoister.hoist(undefined, site, (base) => {
      const item = compile(scope, t.of, `${site}_item`);
      const max = t.maxItems;
      // Items past maxItems are not examined: the maxItems issue already fails the list.
      const bounded =
        max === undefined
          ? ["  for (let i = 0; i < v.length; i++) {"]
          : [`  const n = v.length < ${max} ? v.length : ${max};`, "  for (let i = 0; i < n; i++) {"];
      const rest =
        max === undefined
          ? []
          : [`  if (v.length > ${max}) out.push(${runtime("truncated")}("", v.length - ${max}, "items", ${lit(`array of at most ${count(max, "item")}`)}));`];
      return [
        `function is_${base}(v: any): boolean {`,
        "  for (let i = 0; i < v.length; i++) {",
        ...indent(indent(countIs(scope, t.of))),
        "    const x = v[i];",
        `    if (!(${checkExpr(item, "x", false)})) return false;`,
        "  }",
        "  return true;",
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        ...bounded,
        `    ${stopAtCap()}`,
        ...indent(indent(countErr(scope, t.of))),
        "    const x = v[i];",
        ...indent(indent(reportLines(item, "x", itemAt("i"), false, runtime))),
        "  }",
        ...rest,
        "}",
        "",
        // The length is read once and bounds the copy: a list past maxItems is not copied. The copy
        // is allocated at its length (a push would grow it from nothing), filled before it is returned;
        // `>>> 0` because a Proxy's length may be anything (`new Array("a")` would hold "a").
        `function take_${base}(v: any): any {`,
        "  const n = v.length;",
        ...(max === undefined ? [] : [`  if (n > ${max}) return undefined;`]),
        // Counted against MAX_NODES: items shared by reference are copied each time they are reached.
        `  ${runtime("countTaken")}(n);`,
        "  const o: any[] = new Array(n >>> 0);",
        "  for (let i = 0; i < n; i++) {",
        "    const x = v[i];",
        ...(copies(item) ? ["    let t: any = x;", `    if (!(${takeExpr(item, "x", "t", false)})) return undefined;`, "    o[i] = t;"] : [`    if (!(${checkExpr(item, "x", false)})) return undefined;`, "    o[i] = x;"]),
        "  }",
        "  return o;",
        "}",
      ].join("\n");
    });

  /**
   * A `json` value is checked by the runtime's walk (an explicit stack, bounded), reported at its
   * own path; its type's tests ask the call's count before it, is_ after it (`walksLeft`).
   */
  const hoistJson = (t: JsonType): string =>
    hoister.hoist(`json:${t.maxDepth}:${t.maxBytes}`, "json", (base) => {
      const fault = `${runtime("jsonFault")}(v, ${t.maxDepth}, ${t.maxBytes})`;
      const report = (code: JsonFault, expected: string, problem: string): string[] => [`    case ${lit(code)}:`, `      ${pushIssue("out", HERE.tail, code, expected, problem)}`, "      break;"];
      return [
        `function is_${base}(v: unknown): boolean {`,
        `  return ${fault} === undefined && ${walksLeft()};`,
        "}",
        "",
        `function err_${base}(v: unknown, out: Issue[]): void {`,
        `  switch (${fault}) {`,
        // JSON within its bounds: it fails only past what the call may walk in all (as is_ fails, after the walk).
        "    case undefined:",
        `      if (!${walksLeft()}) ${pushIssue("out", HERE.tail, budget.code, budget.expected, budget.problem)}`,
        "      break;",
        ...report("json", "JSON value", "not JSON"),
        ...(t.maxDepth === undefined
          ? report("jsonDepth", `JSON value nested at most ${JSON_DEPTH_LIMIT} levels deep`, "nested too deep")
          : report("maxDepth", `JSON value nested at most ${count(t.maxDepth, "level")} deep`, "nested too deep")),
        ...(t.maxBytes === undefined ? [] : report("maxBytes", `JSON value of at most ${count(t.maxBytes, "byte")} as JSON`, "too large")),
        "  }",
        "}",
      ].join("\n");
    });

  const tupleTests = (t: TupleType): Test[] => {
    const n = t.items.length;
    const expected = `array of exactly ${count(n, "item")}`;
    return [
      { pass: (x) => `${x}.length >= ${n}`, code: "minItems", expected, problem: "too few items" },
      // Past its length a tuple is not examined further: the maxItems issue already fails it.
      { pass: (x) => `${x}.length <= ${n}`, code: "maxItems", expected, problem: "too many items", last: true },
    ];
  };

  /** A tuple's positions, each with its own type; `err_` examines the positions the array has. */
  const hoistTuple = (scope: Scope, t: TupleType, site: string): string =>
    hoister.hoist(undefined, site, (base) => {
      const items = t.items.map((item, i) => compile(scope, item, `${site}_${i}`));
      return [
        `function is_${base}(v: any): boolean {`,
        `  return ${items.map((item, i) => `(${checkExpr(item, `v[${i}]`, false)})`).join(" && ")};`,
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        ...items.flatMap((item, i) => indent([`if (v.length > ${i}) {`, `  const x = v[${i}];`, ...indent(reportLines(item, "x", fieldAt(String(i)), false, runtime)), "}"])),
        "}",
      ].join("\n");
    });

  const hoistValues = (scope: Scope, t: MapType, site: string): string =>
    hoister.hoist(undefined, site, (base) => {
      const value = compile(scope, t.of, `${site}_value`);
      const escape = runtime("escapePointer");
      const key = t.keyPattern === undefined ? undefined : patternTest(t.keyPattern, `${site}_key`);
      return [
        `function is_${base}(v: any): boolean {`,
        `  ${ownFields()}`,
        "  for (const k in v) {",
        ...indent(indent(countIs(scope, t.of))),
        ...(key === undefined ? [] : [`    if (!${key.pass("k")}) return false;`]),
        "    const x = v[k];",
        `    if (!(${checkExpr(value, "x", false)})) return false;`,
        "  }",
        "  return true;",
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        `  ${ownFields()}`,
        "  for (const k in v) {",
        `    ${stopAtCap()}`,
        ...indent(indent(countErr(scope, t.of))),
        // The issue is at the entry, whose key is masked like every other map key in a path.
        ...(key === undefined ? [] : [`    if (!${key.pass("k")}) ${pushIssue("out", `"/" + ${escape}(k)`, "key", `key matching ${t.keyPattern}`, "key pattern mismatch")}`]),
        "    const x = v[k];",
        ...indent(indent(reportLines(value, "x", keyAt(escape), false, runtime))),
        "  }",
        "}",
      ].join("\n");
    });

  /** Objects: declared fields, plus `extraKeys` checked elsewhere (a union's tag); unknown keys as `policy` says. */
  /**
   * `lead`: a key the object's take_ is handed the value of (its second parameter, `lead`) and
   * copies first, before the fields: a tagged union's variant gets its tag, read once by the union.
   */
  const hoistObject = (scope: Scope, fields: readonly Field[], extraKeys: readonly string[], site: string, policy: ObjectPolicy, key?: string, lead?: string): string | undefined => {
    const reject = policy.unknownFields === "reject";
    const keep = policy.unknownFields === "keep";
    if (fields.length === 0 && !reject && !keep) return undefined;
    return hoister.hoist(key, site, (base) => {
      const compiled = fields.map((field, i) => ({ field, local: `f${i}`, c: compile(scope, field.type, `${site}_${field.name}`) }));
      // Both look at every key: reject fails the unknown ones, keep checks their values.
      const checked = reject || keep;
      const known = [...extraKeys, ...fields.map((f) => f.name)];
      // A switch compares a key with each case in turn: past a few dozen keys, a wide object would
      // cost keys × fields, so its keys go in a Set built once with the module.
      const keySet = known.length > WIDE_OBJECT ? hoister.hoist(`keys:${JSON.stringify(known)}`, `keys_${site}`, (name) => `const ${name} = new Set<string>(${JSON.stringify(known)});`) : undefined;
      // `always`: also where unknown keys pass unexamined (take_ copies a strip object's).
      const unknownKeys = (onUnknown: readonly string[], always = false): string[] =>
        !checked && !always
          ? []
          : keySet !== undefined
            ? ["for (const k in v) {", `  if (!${keySet}.has(k)) {`, ...indent(indent(onUnknown)), "  }", "}"]
            : [
                "for (const k in v) {",
                "  switch (k) {",
                ...known.map((k) => `    case ${lit(k)}:`),
                ...(known.length > 0 ? ["      break;"] : []),
                "    default:",
                ...indent(indent(indent(onUnknown))),
                "  }",
                "}",
              ];
      // Values of kept unknown keys: of `additional`'s type, checked like a map's values at their
      // key, or else JSON data (they are handed over and written again as they are).
      const kept: Compiled | undefined = !keep
        ? undefined
        : policy.additional
          ? compile(scope, policy.additional, `${site}_additional`)
          : { label: "JSON value", tests: walked("json", { pass: (x) => `${runtime("isJsonData")}(${x})`, code: "type", expected: "JSON value", problem: "not JSON data", last: true }) };
      const keptType: TypeNode = policy.additional ?? { kind: "json" };
      const extraIs = kept ? [...countIs(scope, keptType), "const x = v[k];", `if (!(${checkExpr(kept, "x", false)})) return false;`] : ["return false;"];
      const extraErr = kept ? [stopAtCap(), ...countErr(scope, keptType), "const x = v[k];", ...reportLines(kept, "x", keyAt(runtime("escapePointer")), false, runtime)] : [];
      type Entry = (typeof compiled)[number];
      const isLines = ({ field, local, c }: Entry, i: number): string[] => [
        `const ${local} = ${member("v", field.name)};`,
        ...(i === 0 ? [ownFieldsAfterRead(base)] : []),
        field.optional
          ? `if (!(${local} === undefined || ${checkExpr(c, local, field.nullable !== undefined)})) return false;`
          : `if (!(${local} !== undefined && ${checkExpr(c, local, field.nullable !== undefined)})) return false;`,
      ];
      /** `i`: the field's place among the function's, where the first one reads `v` first (-1 in a part, handed `v` as viewed). */
      const errLines = ({ field, local, c }: Entry, i: number): string[] => {
        const nullable = field.nullable !== undefined;
        const at = fieldAt(field.name);
        const report = reportLines(c, local, at, nullable, runtime);
        const notNull = nullable ? ` && ${local} !== null` : "";
        const missing = pushIssue("out", at.tail, "required", c.label + (nullable ? " or null" : ""), "missing field");
        return [
          `const ${local} = ${member("v", field.name)};`,
          ...(i === 0 ? [ownFieldsAfterRead(base, "err", ", out")] : []),
          ...(field.optional
            ? block(`if (${local} !== undefined${notNull})`, report)
            : [`if (${local} === undefined) ${missing}`, ...block(nullable ? `else if (${local} !== null)` : "else", report)]),
        ];
      };
      const unknownExpected = known.length > 0 ? `one of the fields ${known.join(", ")}` : "no fields";
      // An object holds at most as many keys as it declares: past that many unknown ones, the
      // rest are counted, not examined.
      const most = Math.max(known.length, 1);
      const unknownErrors = reject
        ? [
            "let unknown = 0;",
            ...unknownKeys([
              `if (unknown++ < ${most}) ${pushIssue("out", `"/" + ${runtime("escapePointer")}(k)`, "unknown", unknownExpected, "unknown field")}`,
            ]),
            `if (unknown > ${most}) out.push(${runtime("truncated")}("", unknown - ${most}, "unknown fields", ${lit(unknownExpected)}));`,
          ]
        : unknownKeys(extraErr);
      const own = ownFields();
      // take_: is_'s reads and tests, each value copied into a fresh object as it passes, in the
      // order the fields are declared; kept unknown keys follow in the order they come, and a strip
      // object's unknown keys too (copied as they are, for decode to drop and report).
      /** `fail`: how the function reading the field gives up when its value does not pass. */
      const takeLines = ({ field, local, c }: Entry, i: number, fail: string): string[] => {
        const nullable = field.nullable !== undefined;
        const copied = copies(c);
        const taken = copied ? `t${i}` : local;
        const test = copied ? takeExpr(c, local, taken, nullable) : checkExpr(c, local, nullable);
        return [
          `const ${local} = ${member("v", field.name)};`,
          ...(i === 0 ? [ownFieldsAfterRead(base, "take", lead === undefined ? "" : ", lead")] : []),
          ...(copied ? [`let ${taken}: any = ${local};`] : []),
          field.optional ? `if (!(${local} === undefined || ${test})) ${fail}` : `if (!(${local} !== undefined && ${test})) ${fail}`,
        ];
      };
      const takenOf = (i: number): string => (copies(compiled[i]!.c) ? `t${i}` : `f${i}`);
      const wide = compiled.length > FIELDS_PER_FUNCTION;
      /**
       * The statement putting the field's copy into `o`. A wide object's `o` starts with every field
       * (the boilerplate of a literal is copied, where adding each key to a dictionary-mode object
       * grows it: 2,000 fields cost 4×), so one that is absent is deleted instead.
       */
      const setLines = ({ field, local }: Entry, i: number): string[] => {
        const set = setMember(field.name, takenOf(i));
        if (!field.optional) return [set];
        return wide ? [`if (${local} !== undefined) ${set}`, `else ${deleteMember(field.name)}`] : [`if (${local} !== undefined) ${set}`];
      };
      // V8 optimizes no function of more than 60 KB of bytecode: past the first FIELDS_PER_FUNCTION
      // fields, a wide object's fields are checked, reported and copied by functions of that many
      // each, called in turn (a 2,000-field object was checked 5× slower by its one unoptimized function).
      const first = compiled.slice(0, FIELDS_PER_FUNCTION);
      const parts: string[] = [];
      for (let from = FIELDS_PER_FUNCTION; from < compiled.length; from += FIELDS_PER_FUNCTION) {
        const part = compiled.slice(from, from + FIELDS_PER_FUNCTION);
        const at = (j: number): number => from + j;
        parts.push(
          hoister.hoist(undefined, `${site}_part`, (name) =>
            [
              `function is_${name}(v: any): boolean {`,
              ...indent([...part.flatMap((entry, j) => isLines(entry, at(j))), "return true;"]),
              "}",
              "",
              `function err_${name}(v: any, out: Issue[]): void {`,
              ...indent(part.flatMap((entry) => errLines(entry, -1))),
              "}",
              "",
              `function take_${name}(v: any, o: any): boolean {`,
              ...indent([...part.flatMap((entry, j) => takeLines(entry, at(j), "return false;")), ...part.flatMap((entry, j) => setLines(entry, at(j))), "return true;"]),
              "}",
            ].join("\n"),
          ),
        );
      }
      // A computed `["__proto__"]` defines a property; a plain one would set the prototype.
      const literalKey = (name: string): string => (name === "__proto__" ? '["__proto__"]' : isIdentifier(name) ? name : lit(name));
      // The copy is one object literal, allocated at its final shape: of every field when each
      // optional one is present (a provider's strict output always has them), else of the leading
      // required fields, then the rest in order, an optional one only when present (a field added
      // to a literal costs a transition, and past the literal's own a second store); a wide
      // object's, of every field, an absent one deleted.
      const leading = first.findIndex(({ field }) => field.optional);
      const literalCount = wide || leading === -1 ? first.length : leading;
      const literalOf = (count: number): string =>
        [
          ...(lead === undefined ? [] : [`${literalKey(lead)}: lead`]),
          ...first.slice(0, count).map(({ field }, i) => `${literalKey(field.name)}: ${takenOf(i)}`),
          ...compiled.slice(first.length).map(({ field }) => `${literalKey(field.name)}: undefined`),
        ].join(", ");
      const present = first.slice(literalCount).filter(({ field }) => field.optional).map(({ local }) => `${local} !== undefined`);
      const build = wide
        ? [`const o: any = { ${literalOf(first.length)} };`, ...first.filter(({ field }) => field.optional).map(({ field, local }) => `if (${local} === undefined) ${deleteMember(field.name)}`)]
        : present.length === 0
          ? [`const o: any = { ${literalOf(literalCount)} };`]
          : [
              "let o: any;",
              `if (${present.join(" && ")}) o = { ${literalOf(first.length)} };`,
              ...block("else", [`o = { ${literalOf(literalCount)} };`, ...first.slice(literalCount).flatMap((entry, j) => setLines(entry, literalCount + j))]),
            ];
      const keptTake = (): string[] => {
        if (!kept) return ["return undefined;"];
        const test = policy.additional ? takeExpr(kept, "x", "t", false) : `${walksLeft()} && (t = ${runtime("takeChecked")}(x, ${runtime("isJsonData")})) !== undefined && ${walksLeft()}`;
        return ["const x = v[k];", "let t: any = x;", `if (!(${test})) return undefined;`, `${runtime("putKey")}(o, k, t);`];
      };
      const unknownTake = checked ? unknownKeys(keptTake()) : unknownKeys([`${runtime("putKey")}(o, k, ${runtime("strippedEntry")}(v, k));`], true);
      return [
        `function is_${base}(v: any): boolean {`,
        ...indent([
          ...(compiled.length === 0 ? [own] : []),
          ...first.flatMap(isLines),
          ...parts.map((part) => `if (!is_${part}(v)) return false;`),
          ...unknownKeys(extraIs),
          "return true;",
        ]),
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        ...indent([...(compiled.length === 0 ? [own] : []), ...first.flatMap(errLines), ...parts.map((part) => `err_${part}(v, out);`), ...unknownErrors]),
        "}",
        "",
        `function take_${base}(v: any${lead === undefined ? "" : ", lead: any"}): any {`,
        ...indent([
          ...(compiled.length === 0 ? [own] : []),
          ...first.flatMap((entry, i) => takeLines(entry, i, "return undefined;")),
          ...build,
          ...parts.map((part) => `if (!take_${part}(v, o)) return undefined;`),
          ...unknownTake,
          "return o;",
        ]),
        "}",
      ].join("\n");
    });
  };

  const hoistUnion = (scope: Scope, u: UnionType, site: string): string =>
    hoister.hoist(undefined, site, (base) => {
      const variants = u.variants.map((variant) => {
        const object = variant.type.kind === "object" ? variant.type : (scope.version.types.get(variant.type.name) ?? bug(`type ${variant.type.name} is not resolved`));
        return { value: variant.value, deep: hoistObject(scope, object.fields, [u.tag], `${site}_${variant.value}`, objectPolicy(scope.contract, object), undefined, u.tag) };
      });
      const tag = member("v", u.tag);
      const expected = oneOf(u.variants.map((v) => v.value));
      return [
        `function is_${base}(v: any): boolean {`,
        `  const tag = ${tag};`,
        `  ${ownFieldsAfterRead(base)}`,
        "  switch (tag) {",
        ...variants.flatMap(({ value, deep }) => [`    case ${lit(value)}:`, `      return ${deep ? `is_${deep}(v)` : "true"};`]),
        "    default:",
        "      return false;",
        "  }",
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        `  ${ownFields()}`,
        `  switch (${tag}) {`,
        ...variants.flatMap(({ value, deep }) => [`    case ${lit(value)}:`, ...(deep ? [`      err_${deep}(v, out);`] : []), "      break;"]),
        "    default:",
        `      ${pushIssue("out", pointerTail([u.tag]), "tag", expected, "missing or unknown union tag")}`,
        "  }",
        "}",
        ...(variants.every((v) => v.deep !== undefined && ownTake.has(v.deep)) ? unionTake(base, u.tag, variants as { value: string; deep: string }[]) : []),
      ].join("\n");
    });

  /**
   * take_ of a tagged union: the variant's take_, handed the tag as it was read once and switched
   * on, which it copies first (the order `decode` gives however it reads the value).
   */
  const unionTake = (base: string, tag: string, variants: readonly { value: string; deep: string }[]): string[] => {
    return [
      "",
      `function take_${base}(v: any): any {`,
      `  const tag = ${member("v", tag)};`,
      `  ${ownFieldsAfterRead(base, "take")}`,
      "  let o: any;",
      "  switch (tag) {",
      ...variants.flatMap(({ value, deep }) => [`    case ${lit(value)}:`, `      o = take_${deep}(v, tag);`, "      break;"]),
      "    default:",
      "      return undefined;",
      "  }",
      "  return o;",
      "}",
    ];
  };

  /**
   * An untagged union: the variant a value can be of is selected by cheap tests (its JSON type, a
   * distinguishing field) and only that one is checked, so issues point inside it.
   */
  const compileOneOf = (scope: Scope, t: OneOfType, site: string): Compiled => {
    let labels: string[] = [];
    const deep = hoister.hoist(undefined, site, (base) => {
      const { selectors, overlaps } = distinguishVariants(t, scope.version, scope.contract);
      if (overlaps.length > 0) bug(`variants of ${site} overlap`);
      // A selector's pattern is the variant's own: one module-level RegExp serves both.
      const regex = (pattern: string): string => `re_${hoister.hoist(`pattern:${pattern}`, `${site}_select`, (re) => `const re_${re} = new RegExp(${lit(pattern)}, "u");`)}`;
      const variants = t.variants.map((v, i) => ({ c: compile(scope, v.type, `${site}_${i + 1}`), select: selectorCode(selectors[i]!, "v", regex) }));
      labels = variants.map((v) => v.c.label);
      const expected = labels.join(" | ");
      return [
        `function is_${base}(v: any): boolean {`,
        ...variants.map(({ c, select }) => `  if (${select}) return ${checkExpr(c, "v", false)};`),
        "  return false;",
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        ...variants.flatMap(({ c, select }, i) => [`  ${i === 0 ? "" : "} else "}if (${select}) {`, ...indent(indent(reportLines(c, "v", HERE, false, runtime)))]),
        "  } else {",
        `    ${pushIssue("out", HERE.tail, "union", expected, "matches no variant")}`,
        "  }",
        "}",
      ].join("\n");
    });
    return { label: labels.join(" | "), tests: [], deep };
  };

  /** `other@N`: any version of that major passes; issues come from the version that fits best. */
  const hoistContract = (ref: ContractRefType): string =>
    hoister.hoist(`contract:${ref.contract}@${ref.major}`, `${contractTypeName(ref.contract)}At${ref.major}`, (base) => {
      const target = project.contracts.find((c) => c.name === ref.contract) ?? bug(`contract ${ref.contract} is not in the project`);
      const versions = versionsOfMajor(target, ref.major);
      if (versions.length === 0) bug(`contract ${ref.contract} has no version ${ref.major}.x`);
      const entries = versions.map((v) => versionEntry(scopeOf(target, v)));
      const [newest, ...older] = [...entries].reverse();
      return [
        `function is_${base}(v: any): boolean {`,
        `  return ${entries.map((entry) => `(${entry.check("v")})`).join(" || ")};`,
        "}",
        "",
        `function err_${base}(v: any, out: Issue[]): void {`,
        `  if (${counting ? `!${counting.fails(`is_${base}(v)`)}` : `is_${base}(v)`}) return;`,
        "  // The fewest issues, the newest version on a tie.",
        "  let best: Issue[] = [];",
        ...indent(newest!.errors("v", "best")),
        ...older.flatMap((entry) => [
          "  {",
          "    const o: Issue[] = [];",
          ...indent(indent(entry.errors("v", "o"))),
          "    if (o.length < best.length) best = o;",
          "  }",
        ]),
        "  out.push(...best);",
        "}",
        "",
        // The first version whose own reading passes; each is a reading of its own.
        `function take_${base}(v: any): any {`,
        "  let t: any = v;",
        ...entries.map((entry) => `  if (${entry.take("v", "t")}) return t;`),
        "  return undefined;",
        "}",
      ].join("\n");
    });

  const versionEntry = (scope: Scope): Entry => {
    const object = hoistObject(scope, rootFields(scope.contract, scope.version), [], `${scope.prefix}root`, objectPolicy(scope.contract), `${scope.prefix}root`);
    const rules = hoistRules(hoister, scope.version.rules, scope.prefix, ownFields, runtime);
    const bases = [object, rules].filter((b): b is string => b !== undefined);
    return {
      check: (x) => (bases.length === 0 ? "true" : bases.map((b) => `is_${b}(${x})`).join(" && ")),
      take: (x, t) => {
        const copy = object === undefined ? `${runtime("snapshot")}(${x})` : ownTake.has(object) ? `take_${object}(${x})` : `${runtime("takeChecked")}(${x}, is_${object})`;
        return [`(${t} = ${copy}) !== undefined`, ...(rules ? [`is_${rules}(${t})`] : [])].join(" && ");
      },
      errors: (x, out) => [
        ...(object ? [`err_${object}(${x}, ${out});`] : []),
        ...(rules ? [`err_${rules}(${x}, ${out});`] : []),
      ],
    };
  };

  const entry = versionEntry(scopeOf(contract, version));
  const entryErrors = entry.errors("value", "out");
  runtime("capIssues");
  const read = `${isObject("value")} && ${entry.take("value", "t")}`;
  const counters = [hoister.known(VISITS), hoister.known(CHECKED)].filter((c) => c !== undefined);
  return {
    // Each call first asks whether Object.prototype lends objects fields (see `polluted`).
    reset: [`${runtime("checkPolluted")}();`, ...(walks ? [`${runtime("startWalks")}();`] : []), ...counters.map((c) => `${c} = 0;`)].join("\n    "),
    readReset: `${runtime("startReading")}();`,
    declarations: withoutUnusedTakes(hoister.declarations(), read),
    check: `${isObject("value")} && ${entry.check("value")}`,
    read,
    errors: [
      `if (!(${isObject("value")})) ${pushIssue("out", HERE.tail, "type", "object", "wrong type")}`,
      ...(entryErrors.length > 0 ? block("else", entryErrors) : []),
    ],
  };
};
