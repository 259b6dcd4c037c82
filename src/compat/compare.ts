// The compatibility engine: every difference between two shapes, judged in both directions.
//
// backward: a reader on the NEW version reads data written under the OLD one (old ⊆ new);
// forward:  a reader on the OLD version reads data written under the NEW one (new ⊆ old).
//
// Verdicts judge a reader that validates a payload as it is, with one allowance: a reader on the
// newer version decodes older payloads through the adapters its version declares, so a `require`
// with a default, a `rename` and an enum `map` make the backward direction of their change
// compatible (the reason says so). A reader on the older version knows nothing of later changes:
// forward verdicts never count them. Undeclared keys follow each object's openness (see `Openness`):
// adding an optional field breaks forward under `reject` and is compatible both ways under `strip`.
// Patterns are compared by the strings they accept (ir/pattern-language.ts). What cannot be decided
// (a pattern with a backreference, two formats) is breaking both ways, and says why.
import type { Change, JsonValue, SourceLocation } from "../ir/model.js";
import { accepts, isMultiple, undeclaredKeyShape } from "./accepts.js";
import { createDeclared, type Declared } from "./declared.js";
import type { Difference, DifferenceKind, Direction, Verdict } from "./difference.js";
import { defined } from "./intersect.js";
import { patternIncludes, patternsDisjoint } from "../ir/pattern-language.js";
import {
  ANY,
  NEVER,
  canonicalJson,
  sortOf,
  variantsOf,
  type ArrayShape,
  type Bound,
  type EnumShape,
  type NumberShape,
  type ObjectShape,
  type Openness,
  type Property,
  type Shape,
  type ShapeRule,
  type StringShape,
  type UnionShape,
} from "./shape.js";

export interface CompareOptions {
  /** The changes declared by the versions after the old one up to the new one, oldest first. */
  readonly declared?: readonly Change[];
}

interface Context {
  readonly declared: Declared;
  /** The versions' roots, where moved fields and the fields of rules are found. */
  readonly oldRoot: Shape;
  readonly newRoot: Shape;
  /** Pairs being compared: meeting one again inside itself is recursion, compatible so far. */
  readonly active: Map<Shape, Set<Shape>>;
  /** Pairs whose `fits` is being answered, likewise. */
  readonly fitting: Map<Shape, Set<Shape>>;
}

/** Where the engine is in the payload. */
interface At {
  readonly path: string;
  /** The dotted path declared changes use, while only inline object fields lead here. */
  readonly dotted: string | undefined;
  readonly loc: SourceLocation | undefined;
  /** Prefix of every reason here (`variant "card": `, `inside not: `). */
  readonly note: string;
  /** Inside `not`, accepting more means the whole accepts less: the directions swap. */
  readonly swapped: boolean;
}

const verdict = (ok: boolean): Verdict => (ok ? "compatible" : "breaking");

/** A reason for both directions, or the reason of each when they differ (see `Difference.perDirection`). */
type Reason = string | Explained;

const report = (at: At, kind: DifferenceKind, backward: boolean, forward: boolean, reason: Reason, loc?: SourceLocation): Difference => {
  const [b, f] = at.swapped ? [forward, backward] : [backward, forward];
  const { text, per } = typeof reason === "string" ? { text: reason, per: undefined } : reason;
  const perDirection = per && defined({ backward: at.note + (at.swapped ? per.forward : per.backward), forward: at.note + (at.swapped ? per.backward : per.forward) });
  return defined({ kind, path: at.path, backward: verdict(b), forward: verdict(f), reason: at.note + text, perDirection, loc: loc ?? at.loc });
};

const widened = (at: At, kind: DifferenceKind, reason: string): Difference => report(at, kind, true, false, reason);
const narrowed = (at: At, kind: DifferenceKind, reason: string): Difference => report(at, kind, false, true, reason);

const escapePointer = (name: string): string => name.replace(/~/g, "~0").replace(/\//g, "~1");

const childAt = (ctx: Context, at: At, name: string, shape: Shape | undefined): At => {
  const dotted = at.dotted === undefined ? undefined : at.dotted === "" ? name : `${at.dotted}.${name}`;
  const declaredLoc = dotted === undefined ? undefined : ctx.declared.fieldLoc(dotted);
  return { ...at, path: `${at.path}/${escapePointer(name)}`, dotted, loc: declaredLoc ?? shape?.loc ?? at.loc };
};

/** A place inside values (items, map values, variants): declared changes cannot name it. */
const innerAt = (at: At, segment: string | undefined, note = ""): At => ({
  ...at,
  path: segment === undefined ? at.path : `${at.path}/${segment}`,
  dotted: undefined,
  note: at.note + note,
});

const describe = (shape: Shape): string => {
  switch (shape.kind) {
    case "any":
      return "any value";
    case "never":
      return "no value";
    case "number":
      return shape.integer ? "integer" : "number";
    case "string":
      return shape.scheme === undefined ? "string" : `ref<${shape.scheme}>`;
    case "enum":
      return shape.values.length === 1 ? canonicalJson(shape.values[0]!.value) : `one of ${shape.values.length} values`;
    case "union":
      return `one of ${shape.variants.length} variants`;
    case "contract":
      return `${shape.contract}@${shape.major}`;
    default:
      return shape.kind;
  }
};

/** Whether every value of `narrow` is accepted by `wide` as far as the engine can tell. */
const fits = (ctx: Context, narrow: Shape, wide: Shape): boolean => {
  const asking = ctx.fitting.get(narrow) ?? new Set<Shape>();
  // Asked again while answering (a recursive schema): assume it fits, as for recursive pairs.
  if (asking.has(wide)) return true;
  ctx.fitting.set(narrow, asking.add(wide));
  try {
    const at: At = { path: "", dotted: undefined, loc: undefined, note: "", swapped: false };
    return compareAt({ ...ctx, active: new Map() }, at, narrow, wide).every((d) => d.backward === "compatible");
  } finally {
    asking.delete(wide);
  }
};

// ---- kinds without inner structure -------------------------------------------------------------

const topDiffs = (at: At, o: Shape, n: Shape): Difference[] => {
  if (o.kind === "any" && n.kind === "any") {
    return [...countDiffs(at, "maxDepth", o.maxDepth, n.maxDepth, false), ...countDiffs(at, "maxBytes", o.maxBytes, n.maxBytes, false)];
  }
  if (o.kind === n.kind && o.kind === "never") return [];
  if (n.kind === "any" || o.kind === "never") {
    return [widened(at, "type-widened", `${describe(o)} → ${describe(n)}: the new version accepts more`)];
  }
  return [narrowed(at, "type-narrowed", `${describe(o)} → ${describe(n)}: the new version accepts less`)];
};

const nullDiffs = (at: At, o: Shape, n: Shape): Difference[] => {
  if (o.kind === "null" && n.kind === "null") return [];
  if (o.kind === "null") {
    return n.nullable
      ? [widened(at, "type-widened", `null → ${describe(n)} or null`)]
      : [report(at, "type-changed", false, false, `null → ${describe(n)}`)];
  }
  return o.nullable
    ? [narrowed(at, "type-narrowed", `${describe(o)} or null → null`)]
    : [report(at, "type-changed", false, false, `${describe(o)} → null`)];
};

const nullableDiffs = (at: At, o: Shape, n: Shape): Difference[] => {
  if (!o.nullable === !n.nullable) return [];
  return n.nullable
    ? [widened(at, "nullable-added", "null is now allowed; readers of the old version reject it")]
    : [narrowed(at, "nullable-removed", "null is no longer allowed; data written under the old version may carry it")];
};

const descriptionDiffs = (at: At, o: Shape, n: Shape): Difference[] =>
  (o.description ?? "").trim() === (n.description ?? "").trim()
    ? []
    : [report(at, "description-changed", true, true, "description changed")];

// ---- bounds ------------------------------------------------------------------------------------

/** A count bound (lengths, items, properties): `lower` bounds widen when they drop. */
const countDiffs = (at: At, name: string, o: number | undefined, n: number | undefined, lower: boolean): Difference[] => {
  if (o === n) return [];
  const looser = n === undefined || (o !== undefined && (lower ? n < o : n > o));
  const what = o === undefined ? `${name} ${n} added` : n === undefined ? `${name} ${o} removed` : `${name} ${o} → ${n}`;
  return [looser ? widened(at, "constraint-widened", what) : narrowed(at, "constraint-narrowed", what)];
};

/** Integer bounds as inclusive ones, so `> 9` and `≥ 10` compare equal. */
const integral = (bound: Bound | undefined, upper: boolean): Bound | undefined => {
  if (bound === undefined) return undefined;
  const value = upper
    ? bound.exclusive ? Math.ceil(bound.value) - 1 : Math.floor(bound.value)
    : bound.exclusive ? Math.floor(bound.value) + 1 : Math.ceil(bound.value);
  return { value, exclusive: false };
};

const boundText = (bound: Bound | undefined, upper: boolean): string =>
  bound === undefined ? "none" : `${upper ? (bound.exclusive ? "<" : "≤") : bound.exclusive ? ">" : "≥"} ${bound.value}`;

const boundDiffs = (at: At, o: Bound | undefined, n: Bound | undefined, upper: boolean): Difference[] => {
  if (o?.value === n?.value && o?.exclusive === n?.exclusive) return [];
  const name = upper ? "upper bound" : "lower bound";
  const beyond = (a: Bound, b: Bound): boolean =>
    a.value === b.value ? !a.exclusive && b.exclusive : upper ? a.value > b.value : a.value < b.value;
  const looser = n === undefined || (o !== undefined && beyond(n, o));
  const what = `${name} ${boundText(o, upper)} → ${boundText(n, upper)}`;
  return [looser ? widened(at, "constraint-widened", what) : narrowed(at, "constraint-narrowed", what)];
};

/** A keyword that either holds or not (format, encodings): any change of value is undecidable. */
const keywordDiffs = (at: At, name: string, o: string | undefined, n: string | undefined): Difference[] => {
  if (o === n) return [];
  if (o === undefined) return [narrowed(at, "constraint-narrowed", `${name} "${n}" added`)];
  if (n === undefined) return [widened(at, "constraint-widened", `${name} "${o}" removed`)];
  return [report(at, "constraint-changed", false, false, `${name} "${o}" → "${n}": values of one are not values of the other`)];
};

// ---- strings and numbers -----------------------------------------------------------------------

/** A string a pattern decision shows, quoted on one line, long ones cut. */
const shown = (witness: string): string => JSON.stringify(witness.length <= 40 ? witness : `${witness.slice(0, 40)}…`);

/**
 * Patterns compared by the strings they accept (ir/pattern-language.ts): a pattern rewritten to the
 * same language is no difference, one that accepts more breaks forward only, and each direction
 * that breaks names a string that shows it. A pair the automata cannot decide counts as breaking.
 */
const patternDiffs = (at: At, o: string | undefined, n: string | undefined): Difference[] => {
  if (o === n) return [];
  const backward = patternIncludes(n, o);
  const forward = patternIncludes(o, n);
  if (backward?.holds === true && forward?.holds === true) return [];
  const what = o === undefined ? `pattern /${n}/ added` : n === undefined ? `pattern /${o}/ removed` : `pattern /${o}/ → /${n}/`;
  const undecided = "whether one accepts every string of the other was not decided (a backreference, a lookaround or too large an automaton), so it counts as breaking";
  const why = [
    backward === undefined ? undecided : backward.holds ? undefined : `${shown(backward.witness)} is no longer accepted`,
    forward === undefined && backward !== undefined ? undecided : forward?.holds === false ? `${shown(forward.witness)} is accepted now` : undefined,
  ].filter((part) => part !== undefined);
  const backwardOk = backward?.holds === true;
  const forwardOk = forward?.holds === true;
  const kind = backwardOk ? "constraint-widened" : forwardOk ? "constraint-narrowed" : "constraint-changed";
  return [report(at, kind, backwardOk, forwardOk, `${what}: ${why.join("; ")}`)];
};

const schemeDiffs = (at: At, o: string | undefined, n: string | undefined): Difference[] => {
  if (o === n) return [];
  if (o === undefined) return [narrowed(at, "ref-scheme-changed", `string → ref<${n}>: only ${n}:// references are accepted now`)];
  if (n === undefined) return [widened(at, "ref-scheme-changed", `ref<${o}> → string: any string is accepted now`)];
  return [report(at, "ref-scheme-changed", false, false, `ref<${o}> → ref<${n}>: references of one scheme are rejected by the other`)];
};

const stringDiffs = (at: At, o: StringShape, n: StringShape): Difference[] => [
  ...schemeDiffs(at, o.scheme, n.scheme),
  ...countDiffs(at, "minLength", o.minLength, n.minLength, true),
  ...countDiffs(at, "maxLength", o.maxLength, n.maxLength, false),
  ...patternDiffs(at, o.pattern, n.pattern),
  ...keywordDiffs(at, "format", o.format, n.format),
  ...keywordDiffs(at, "contentEncoding", o.contentEncoding, n.contentEncoding),
  ...keywordDiffs(at, "contentMediaType", o.contentMediaType, n.contentMediaType),
];

const multipleDiffs = (at: At, o: number | undefined, n: number | undefined): Difference[] => {
  if (o === n) return [];
  if (o === undefined) return [narrowed(at, "constraint-narrowed", `multipleOf ${n} added`)];
  if (n === undefined) return [widened(at, "constraint-widened", `multipleOf ${o} removed`)];
  if (isMultiple(n, o)) return [narrowed(at, "constraint-narrowed", `multipleOf ${o} → ${n}`)];
  if (isMultiple(o, n)) return [widened(at, "constraint-widened", `multipleOf ${o} → ${n}`)];
  return [report(at, "constraint-changed", false, false, `multipleOf ${o} → ${n}: neither divides the other`)];
};

const numberDiffs = (at: At, o: NumberShape, n: NumberShape): Difference[] => {
  const integers = o.integer && n.integer;
  const bounds = (s: NumberShape, upper: boolean) => {
    const bound = upper ? s.upper : s.lower;
    return integers ? integral(bound, upper) : bound;
  };
  const type =
    o.integer === n.integer
      ? []
      : n.integer
        ? [narrowed(at, "type-narrowed", "number → integer: data written under the old version may carry fractions")]
        : [widened(at, "type-widened", "integer → number: readers of the old version reject fractions")];
  return [
    ...type,
    ...boundDiffs(at, bounds(o, false), bounds(n, false), false),
    ...boundDiffs(at, bounds(o, true), bounds(n, true), true),
    ...multipleDiffs(at, o.multipleOf, n.multipleOf),
  ];
};

// ---- enums -------------------------------------------------------------------------------------

const valueText = (member: { readonly value: unknown }): string => JSON.stringify(member.value);

const enumDiffs = (ctx: Context, at: At, o: EnumShape, n: EnumShape): Difference[] => {
  const oldKeys = new Map(o.values.map((m) => [canonicalJson(m.value), m]));
  const newKeys = new Map(n.values.map((m) => [canonicalJson(m.value), m]));
  const name = n.name ?? o.name;
  const changeLoc = (value: JsonValue): SourceLocation | undefined =>
    name === undefined ? undefined : ctx.declared.enumLoc(name, typeof value === "string" ? value : canonicalJson(value));
  const out: Difference[] = [];
  for (const [key, member] of newKeys) {
    if (oldKeys.has(key)) {
      const before = oldKeys.get(key)!;
      if ((before.description ?? "") !== (member.description ?? "")) {
        out.push(report(at, "description-changed", true, true, `meaning of ${valueText(member)} changed`, member.loc));
      }
      continue;
    }
    const reason =
      o.fallback === undefined
        ? `value ${valueText(member)} added; readers of the old version reject it`
        : `value ${valueText(member)} added; readers of the old version read it as ${o.fallback} (fallback)`;
    out.push(report(at, "enum-value-added", true, o.fallback !== undefined, reason, changeLoc(member.value) ?? member.loc));
  }
  for (const [key, member] of oldKeys) {
    if (newKeys.has(key)) continue;
    const mapped = name === undefined || typeof member.value !== "string" ? undefined : ctx.declared.enumMapping(name, member.value);
    const reason = mapped
      ? `value ${valueText(member)} removed; the new version's adapters map it to ${mapped.to} (declared)`
      : n.fallback !== undefined
        ? `value ${valueText(member)} removed; readers of the new version read it as ${n.fallback} (fallback)`
        : `value ${valueText(member)} removed; data written under the old version may carry it`;
    out.push(report(at, "enum-value-removed", mapped !== undefined || n.fallback !== undefined, true, reason, mapped?.loc ?? changeLoc(member.value)));
  }
  if (o.fallback !== n.fallback) {
    const [kind, reason]: [DifferenceKind, string] =
      o.fallback === undefined
        ? ["enum-fallback-added", `fallback ${n.fallback} added: readers of the new version read values they do not know as ${n.fallback}`]
        : n.fallback === undefined
          ? ["enum-fallback-removed", `fallback ${o.fallback} removed: readers of the new version will reject values added later`]
          : ["enum-fallback-changed", `fallback ${o.fallback} → ${n.fallback}`];
    out.push(report(at, kind, true, true, reason, name === undefined ? undefined : ctx.declared.enumLoc(name, "")));
  }
  return out;
};

/** A fixed set of values against an open type: compatible where the type accepts every value. */
const enumVersusType = (at: At, o: Shape, n: Shape): Difference[] => {
  if (o.kind === "enum") {
    const ok = o.values.every((m) => accepts(n, m.value));
    return ok
      ? [widened(at, "type-widened", `${describe(o)} → any ${describe(n)}: readers of the old version reject other values`)]
      : [report(at, "type-changed", false, false, `${describe(o)} → ${describe(n)}, which rejects some of the old values`)];
  }
  const values = n as EnumShape;
  const ok = values.values.every((m) => accepts(o, m.value));
  return ok
    ? [narrowed(at, "type-narrowed", `${describe(o)} → ${describe(n)}: only fixed values are accepted now`)]
    : [report(at, "type-changed", false, false, `${describe(o)} → ${describe(n)}, which the old type rejects`)];
};

// ---- unions ------------------------------------------------------------------------------------

interface Pairing {
  readonly oldIndex: number;
  readonly newIndex: number;
  readonly diffs: Difference[];
}

const variantLabel = (n: Shape, index: number): string => {
  if (n.kind !== "union" || n.variants.length < 2) return "";
  const variant = n.variants[index]!;
  return variant.key !== undefined ? `variant "${variant.key}": ` : `variant ${index + 1} (${describe(variant.shape)}): `;
};

/** Variants paired by tag value, else by JSON type with the fewest differences first. */
const pairVariants = (ctx: Context, at: At, o: Shape, n: Shape): Pairing[] => {
  const ov = variantsOf(o);
  const nv = variantsOf(n);
  const compareVariants = (i: number, j: number): Pairing => ({
    oldIndex: i,
    newIndex: j,
    diffs: compareAt(ctx, { ...innerAt(at, undefined, variantLabel(n, j)), loc: nv[j]!.shape.loc ?? at.loc }, ov[i]!.shape, nv[j]!.shape),
  });
  const tagged = o.kind === "union" && n.kind === "union" && o.tag !== undefined && o.tag === n.tag;
  if (tagged) {
    return ov.flatMap((variant, i) => {
      const j = nv.findIndex((candidate) => candidate.key === variant.key);
      return j < 0 ? [] : [compareVariants(i, j)];
    });
  }
  const candidates = ov
    .flatMap((variant, i) => nv.map((other, j) => (sortOf(variant.shape) === sortOf(other.shape) ? compareVariants(i, j) : undefined)))
    .filter((p): p is Pairing => p !== undefined)
    .sort((a, b) => a.diffs.length - b.diffs.length || a.oldIndex - b.oldIndex || a.newIndex - b.newIndex);
  const pairs: Pairing[] = [];
  for (const candidate of candidates) {
    if (!pairs.some((p) => p.oldIndex === candidate.oldIndex || p.newIndex === candidate.newIndex)) pairs.push(candidate);
  }
  return pairs;
};

/** Two variants of the same JSON type may both match a value, so exclusivity can matter. */
const overlaps = (shape: UnionShape): boolean =>
  shape.tag === undefined && new Set(shape.variants.map((v) => sortOf(v.shape))).size < shape.variants.length;

/**
 * Whether variant `index` of `shape` may share a value with another variant of a `oneOf`, which
 * then rejects that value: removing, adding or changing such a variant moves values in or out of
 * the overlap, so it can break the direction the variant's own change keeps.
 */
const sharesValues = (shape: Shape, index: number): boolean => {
  if (shape.kind !== "union" || !shape.exclusive || shape.disjoint || shape.tag !== undefined) return false;
  const own = valueSorts(shape.variants[index]!.shape);
  // The union's own `nullable` is a null variant folded in.
  if (shape.nullable && own.has("null")) return true;
  const mine = shape.variants[index]!.shape;
  return shape.variants.some((v, i) => i !== index && [...valueSorts(v.shape)].some((sort) => own.has(sort) && !(sort === "string" && stringsApart(mine, v.shape))));
};

/** Two string shapes no string is of both: their patterns are disjoint (ir/pattern-language.ts). */
const stringsApart = (a: Shape, b: Shape): boolean =>
  a.kind === "string" && b.kind === "string" && a.pattern !== undefined && b.pattern !== undefined && patternsDisjoint(a.pattern, b.pattern)?.disjoint === true;

const ALL_SORTS: ReadonlySet<string> = new Set(["null", "boolean", "number", "string", "array", "object"]);

/** The JSON types a value of `shape` may have: a nested union's and a schema without `type` count too. */
const valueSorts = (shape: Shape): ReadonlySet<string> => {
  const sorts = new Set<string>();
  if (shape.kind === "any") return ALL_SORTS;
  if (shape.kind === "union") for (const v of shape.variants) for (const sort of valueSorts(v.shape)) sorts.add(sort);
  else if (shape.kind === "enum") for (const member of shape.values) sorts.add(sortOf({ kind: "enum", values: [member] }));
  else if (shape.kind === "contract") sorts.add("object");
  else if (shape.kind !== "never") sorts.add(shape.kind);
  if (shape.nullable) sorts.add("null");
  return sorts;
};

const exclusivityDiffs = (at: At, o: Shape, n: Shape): Difference[] => {
  if (o.kind !== "union" || n.kind !== "union" || o.exclusive === n.exclusive) return [];
  if (o.exclusive && overlaps(o)) {
    return [widened(at, "constraint-widened", "oneOf → anyOf: values matching several variants are accepted now")];
  }
  if (n.exclusive && overlaps(n)) {
    return [narrowed(at, "constraint-narrowed", "anyOf → oneOf: values matching several variants are rejected now")];
  }
  return [];
};

const unionDiffs = (ctx: Context, at: At, o: Shape, n: Shape): Difference[] => {
  const ov = variantsOf(o);
  const nv = variantsOf(n);
  const pairs = pairVariants(ctx, at, o, n);
  const out = pairs.flatMap((p) => p.diffs);
  const SHARED = "in a oneOf whose variants may share values, which it rejects";
  // A value of two variants, rejected by the old oneOf, may be of one after the change (the new
  // version accepts it: forward breaks); one of a single old variant may be of two new ones.
  for (const p of pairs) {
    const changed = p.diffs.some((d) => d.backward === "breaking" || d.forward === "breaking");
    const [before, after] = [sharesValues(o, p.oldIndex), sharesValues(n, p.newIndex)];
    if (changed && (before || after)) {
      out.push(report(at, "constraint-changed", !after, !before, `${variantLabel(n, p.newIndex)}changed ${SHARED}: values move in or out of that overlap`));
    }
  }
  const tagged = o.kind === "union" && n.kind === "union" && o.tag !== undefined && o.tag === n.tag;
  ov.forEach((variant, i) => {
    if (pairs.some((p) => p.oldIndex === i)) return;
    const name = variant.key !== undefined ? `"${variant.key}"` : describe(variant.shape);
    const kept = !tagged && nv.some((other) => fits(ctx, variant.shape, other.shape));
    const shared = sharesValues(o, i);
    const reason = `${kept ? `variant ${name} removed; its values are still accepted by another variant` : `variant ${name} removed; data written under the old version may use it`}${
      shared ? `; it was ${SHARED}: the new version accepts those` : ""
    }`;
    out.push(report(at, "variant-removed", kept, !shared, reason));
  });
  nv.forEach((variant, j) => {
    if (pairs.some((p) => p.newIndex === j)) return;
    const name = variant.key !== undefined ? `"${variant.key}"` : describe(variant.shape);
    const known = !tagged && ov.some((other) => fits(ctx, variant.shape, other.shape));
    const shared = sharesValues(n, j);
    const reason = `${known ? `variant ${name} added; its values were already accepted by another variant` : `variant ${name} added; readers of the old version reject it`}${
      shared ? `; it is ${SHARED}: values it shares with another are rejected now` : ""
    }`;
    out.push(report(at, "variant-added", !shared, known, reason, variant.shape.loc ?? at.loc));
  });
  return [...out, ...exclusivityDiffs(at, o, n)];
};

// ---- arrays ------------------------------------------------------------------------------------

const arrayDiffs = (ctx: Context, at: At, o: ArrayShape, n: ArrayShape): Difference[] => {
  const length = Math.max(o.prefix?.length ?? 0, n.prefix?.length ?? 0);
  const positions = Array.from({ length }, (_, i) =>
    compareAt(ctx, innerAt(at, String(i)), o.prefix?.[i] ?? o.items, n.prefix?.[i] ?? n.items),
  ).flat();
  const unique =
    !o.unique === !n.unique
      ? []
      : n.unique
        ? [narrowed(at, "constraint-narrowed", "items must be unique now")]
        : [widened(at, "constraint-widened", "items need not be unique any more")];
  const contains =
    o.contains && n.contains
      ? compareAt(ctx, innerAt(at, undefined, "contains: "), o.contains, n.contains)
      : o.contains
        ? [widened(at, "constraint-widened", `contains ${describe(o.contains)} removed`)]
        : n.contains
          ? [narrowed(at, "constraint-narrowed", `contains ${describe(n.contains)} added`)]
          : [];
  return [
    ...positions,
    ...compareAt(ctx, innerAt(at, "*"), o.items, n.items),
    ...countDiffs(at, "minItems", o.minItems, n.minItems, true),
    ...countDiffs(at, "maxItems", o.maxItems, n.maxItems, false),
    ...unique,
    ...contains,
  ];
};

// ---- objects -----------------------------------------------------------------------------------

/** What a reader of `shape` accepts under an undeclared key (undefined: rejects it). */
const readerOf = (shape: ObjectShape, key: string): Shape | undefined => undeclaredKeyShape(shape, key, true);
/** What a writer of `shape` may put under an undeclared key (undefined: never writes it). */
const writerOf = (shape: ObjectShape, key: string): Shape | undefined => undeclaredKeyShape(shape, key, false);

/** Whether a change keeps one direction compatible, and what fails in that direction when it does not. */
interface Check {
  readonly direction: Direction;
  readonly ok: boolean;
  readonly why: string;
}

interface Explained {
  readonly text: string;
  /** Set when both directions break: each direction's own explanation. */
  readonly per?: { readonly backward: string; readonly forward: string };
}

/**
 * Joins the explanations of the directions that break, or the one given for a compatible change;
 * when both break, each direction also gets a reason naming only what fails in it.
 */
const explain = (head: string, checks: readonly Check[], otherwise: string): Explained => {
  const join = (whys: readonly string[]): string => (whys.length === 0 ? head : `${head}; ${whys.join("; ")}`);
  const broken = checks.filter((c) => !c.ok);
  const text = broken.length > 0 ? join(broken.map((c) => c.why)) : otherwise === "" ? head : `${head}; ${otherwise}`;
  const whys = (direction: Direction) => broken.filter((c) => c.direction === direction).map((c) => c.why);
  const both = whys("backward").length > 0 && whys("forward").length > 0;
  return both ? { text, per: { backward: join(whys("backward")), forward: join(whys("forward")) } } : { text };
};

/** `adapted`: why the new version's adapters make old data fit, when a declared change does. */
const addedDiff = (ctx: Context, at: At, o: ObjectShape, p: Property, given?: string, loc?: SourceLocation): Difference => {
  const here = childAt(ctx, at, p.name, p.shape);
  const oldWriter = writerOf(o, p.name);
  const oldReader = readerOf(o, p.name);
  // Added optional by one version and required with a default by a later one: filled in old data, as a `require` alone is.
  const filled = p.required && given === undefined && here.dotted !== undefined ? ctx.declared.requireDefault(here.dotted) : undefined;
  const adapted = given ?? (filled && `the new version's adapters fill it with ${JSON.stringify(filled.value)} in old data (declared default)`);
  const backward: Check = adapted
    ? { direction: "backward", ok: true, why: "" }
    : p.required
      ? { direction: "backward", ok: false, why: "data written under the old version lacks it" }
      : { direction: "backward", ok: oldWriter === undefined || fits(ctx, oldWriter, p.shape), why: "old data may carry it as an undeclared key with values the new type rejects" };
  const forward: Check =
    oldReader === undefined
      ? { direction: "forward", ok: false, why: "readers of the old version reject unknown keys" }
      : { direction: "forward", ok: fits(ctx, p.shape, oldReader), why: "readers of the old version accept the key only with other values" };
  const otherwise = o.extra.kind === "strip" ? "readers of the old version ignore unknown keys" : "";
  const head = `${p.required ? "required" : "optional"} field "${p.name}" added${adapted ? `; ${adapted}` : ""}`;
  return report(here, "field-added", backward.ok, forward.ok, explain(head, [backward, forward], otherwise), loc);
};

const removedDiff = (ctx: Context, at: At, n: ObjectShape, p: Property, adapted?: string, loc?: SourceLocation): Difference => {
  const here = childAt(ctx, at, p.name, undefined);
  const newReader = readerOf(n, p.name);
  const newWriter = writerOf(n, p.name);
  const backward: Check = adapted
    ? { direction: "backward", ok: true, why: "" }
    : newReader === undefined
      ? { direction: "backward", ok: false, why: "readers of the new version reject it as an unknown key" }
      : { direction: "backward", ok: fits(ctx, p.shape, newReader), why: "readers of the new version accept the key only with other values" };
  const forward: Check = p.required
    ? { direction: "forward", ok: false, why: "readers of the old version require it" }
    : { direction: "forward", ok: newWriter === undefined || fits(ctx, newWriter, p.shape), why: "new data may carry it as an undeclared key with values the old type rejects" };
  const otherwise = n.extra.kind === "strip" ? "readers of the new version ignore unknown keys" : "";
  const head = `${p.required ? "required" : "optional"} field "${p.name}" removed${adapted ? `; ${adapted}` : ""}`;
  return report(here, "field-removed", backward.ok, forward.ok, explain(head, [backward, forward], otherwise), loc);
};

const requirednessDiffs = (ctx: Context, here: At, from: Property, to: Property): Difference[] => {
  if (from.required === to.required) return [];
  if (from.required) {
    return [report(here, "field-optional", true, false, `field "${to.name}" became optional; readers of the old version require it`)];
  }
  const filled = here.dotted === undefined ? undefined : ctx.declared.requireDefault(here.dotted);
  const reason = filled
    ? `field "${to.name}" became required; the new version's adapters fill it with ${JSON.stringify(filled.value)} in old data (declared default)`
    : `field "${to.name}" became required; data written under the old version may lack it`;
  return [report(here, "field-required", filled !== undefined, true, reason, filled?.loc)];
};

/**
 * A field the new version reads from another key of old data (a declared rename or move): the
 * new version's adapters carry it over; readers of the old version see the key missing and a new one.
 */
const relocatedDiffs = (ctx: Context, at: At, o: ObjectShape, was: Property, to: Property, change: { kind: DifferenceKind; head: string; loc: SourceLocation; from: string }): Difference[] => {
  const here = childAt(ctx, at, to.name, to.shape);
  const oldReader = readerOf(o, to.name);
  const forward: Check[] = [
    { direction: "forward", ok: !was.required, why: `readers of the old version require "${change.from}"` },
    {
      direction: "forward",
      ok: oldReader !== undefined && fits(ctx, to.shape, oldReader),
      why: oldReader === undefined ? `readers of the old version reject the unknown key "${to.name}"` : `readers of the old version accept "${to.name}" only with other values`,
    },
  ];
  return [
    report(here, change.kind, true, forward.every((c) => c.ok), explain(change.head, forward, ""), change.loc),
    ...requirednessDiffs(ctx, here, was, to),
    ...compareAt(ctx, here, was.shape, to.shape),
  ];
};

/** The property at a dotted path of inline objects. */
const propertyAt = (root: Shape, path: string): Property | undefined => {
  let shape = root;
  let found: Property | undefined;
  for (const name of path.split(".")) {
    found = shape.kind === "object" ? shape.properties.find((p) => p.name === name) : undefined;
    if (!found) return undefined;
    shape = found.shape;
  }
  return found;
};

/** An object with no declared keys, standing in for the side where a moved field's container is missing. */
const emptyLike = (extra: Openness): ObjectShape => ({ kind: "object", properties: [], extra });

/** A property only the new side has: moved here, a container created for moved fields, or added. */
const newPropertyDiffs = (ctx: Context, at: At, o: ObjectShape, p: Property): Difference[] => {
  const here = childAt(ctx, at, p.name, p.shape);
  if (here.dotted !== undefined) {
    const from = ctx.declared.movedFrom(here.dotted).find((m) => propertyAt(ctx.oldRoot, m.path));
    if (from) {
      const head = `field "${from.path}" moved to "${here.dotted}" (declared); the new version's adapters move it`;
      return relocatedDiffs(ctx, at, o, propertyAt(ctx.oldRoot, from.path)!, p, { kind: "field-moved", head, loc: from.loc, from: from.path });
    }
    const move = ctx.declared.movesUnder(here.dotted, "to");
    if (move) {
      return [
        addedDiff(ctx, at, o, p, "the new version's adapters create it for the fields moved into it (declared)", move),
        ...compareAt(ctx, here, emptyLike(o.extra), p.shape),
      ];
    }
  }
  return [addedDiff(ctx, at, o, p)];
};

/** A property only the old side has: moved elsewhere (reported there), emptied by moves, or removed. */
const oldPropertyDiffs = (ctx: Context, at: At, n: ObjectShape, p: Property): Difference[] => {
  const here = childAt(ctx, at, p.name, undefined);
  if (here.dotted !== undefined) {
    if (ctx.declared.movedAway(here.dotted)) return [];
    // An object a declared move empties: reported at the move, which is where it goes.
    const move = ctx.declared.movesUnder(here.dotted, "from");
    if (move) {
      return [
        removedDiff(ctx, at, n, p, "the new version's adapters move its fields out (declared)", move),
        ...compareAt(ctx, here, p.shape, emptyLike(n.extra)),
      ];
    }
  }
  return [removedDiff(ctx, at, n, p)];
};

const opennessRank = (openness: Openness): number => (openness.kind === "closed" ? 0 : openness.kind === "open" ? 1 : 2);
const opennessText = (openness: Openness): string =>
  openness.kind === "closed" ? "rejected" : openness.kind === "strip" ? "ignored" : `allowed (${describe(openness.shape)})`;

/** What readers accept under undeclared keys (undefined: they reject them). */
const read = (openness: Openness): Shape | undefined =>
  openness.kind === "closed" ? undefined : openness.kind === "strip" ? ANY : openness.shape;
/** What writers may put under undeclared keys (undefined: they write none). */
const written = (openness: Openness): Shape | undefined => (openness.kind === "open" ? openness.shape : undefined);

const opennessDiffs = (ctx: Context, at: At, o: ObjectShape, n: ObjectShape): Difference[] => {
  if (o.extra.kind === "open" && n.extra.kind === "open") return compareAt(ctx, innerAt(at, "*"), o.extra.shape, n.extra.shape);
  if (o.extra.kind === n.extra.kind) return [];
  const fitsOpt = (w: Shape | undefined, r: Shape | undefined) => w === undefined || (r !== undefined && fits(ctx, w, r));
  const backward: Check = { direction: "backward", ok: fitsOpt(written(o.extra), read(n.extra)), why: "old data may carry undeclared keys that readers of the new version reject" };
  const forward: Check = { direction: "forward", ok: fitsOpt(written(n.extra), read(o.extra)), why: "new data may carry undeclared keys that readers of the old version reject" };
  const otherwise =
    o.extra.kind === "open" || n.extra.kind === "open"
      ? "readers of either version accept the undeclared keys the other may write"
      : "writers of either version write only declared keys";
  const reason = explain(`unknown keys: ${opennessText(o.extra)} → ${opennessText(n.extra)}`, [backward, forward], otherwise);
  const kind = opennessRank(n.extra) > opennessRank(o.extra) ? "unknown-fields-opened" : "unknown-fields-closed";
  return [report(at, kind, backward.ok, forward.ok, reason)];
};

const patternPropertyDiffs = (ctx: Context, at: At, o: ObjectShape, n: ObjectShape): Difference[] => {
  const patterns = [...new Set([...(o.patterns ?? []), ...(n.patterns ?? [])].map((p) => p.pattern))];
  const shapeFor = (s: ObjectShape, pattern: string): Shape => s.patterns?.find((p) => p.pattern === pattern)?.shape ?? read(s.extra) ?? NEVER;
  return patterns.flatMap((pattern) => compareAt(ctx, innerAt(at, `(${pattern})`), shapeFor(o, pattern), shapeFor(n, pattern)));
};

const dependentDiffs = (ctx: Context, at: At, o: ObjectShape, n: ObjectShape): Difference[] => {
  const out: Difference[] = [];
  const required = (s: ObjectShape, key: string) => new Set(s.dependentRequired?.filter((d) => d.key === key).flatMap((d) => d.names));
  for (const key of new Set([...(o.dependentRequired ?? []), ...(n.dependentRequired ?? [])].map((d) => d.key))) {
    const before = required(o, key);
    const after = required(n, key);
    for (const name of after) if (!before.has(name)) out.push(narrowed(at, "constraint-narrowed", `when "${key}" is present, "${name}" is now required too`));
    for (const name of before) if (!after.has(name)) out.push(widened(at, "constraint-widened", `when "${key}" is present, "${name}" is no longer required`));
  }
  const schemaOf = (s: ObjectShape, key: string): Shape => s.dependentSchemas?.find((d) => d.key === key)?.shape ?? ANY;
  for (const key of new Set([...(o.dependentSchemas ?? []), ...(n.dependentSchemas ?? [])].map((d) => d.key))) {
    out.push(...compareAt(ctx, innerAt(at, undefined, `when "${key}" is present: `), schemaOf(o, key), schemaOf(n, key)));
  }
  return out;
};

/** Whether data of the version with root `root` can carry enough of the rule's fields to trigger it. */
const canTrigger = (root: Shape, rule: ShapeRule): boolean =>
  rule.fields.filter((path) => propertyAt(root, path) !== undefined).length >= rule.trigger;

/** A rule added narrows, a rule removed widens, unless the other version's data never holds what triggers it. */
const ruleDiffs = (ctx: Context, at: At, o: ObjectShape, n: ObjectShape): Difference[] => {
  const before = new Set((o.rules ?? []).map((r) => r.text));
  const after = new Set((n.rules ?? []).map((r) => r.text));
  const added = (n.rules ?? []).filter((r) => !before.has(r.text)).map((r) => {
    const ok = !canTrigger(ctx.oldRoot, r);
    return report(at, "constraint-narrowed", ok, true, `rule ${r.text} added${ok ? "; data written under the old version never has the fields that trigger it" : ""}`);
  });
  const removed = (o.rules ?? []).filter((r) => !after.has(r.text)).map((r) => {
    const ok = !canTrigger(ctx.newRoot, r);
    return report(at, "constraint-widened", true, ok, `rule ${r.text} removed${ok ? "; data written under the new version never has the fields that trigger it" : ""}`);
  });
  return [...added, ...removed];
};

const objectDiffs = (ctx: Context, at: At, o: ObjectShape, n: ObjectShape): Difference[] => {
  const oldByName = new Map(o.properties.map((p) => [p.name, p]));
  const newByName = new Map(n.properties.map((p) => [p.name, p]));
  const renames = new Map<string, { from: Property; loc: SourceLocation }>();
  if (at.dotted !== undefined) {
    for (const p of n.properties) {
      // A former name may be taken again (`rename: a → c`, then `add: a`; or a swap): the old field
      // is still the one renamed, and the new one of its name is another field.
      const former = ctx.declared.formerNames(at.dotted, p.name).find((f) => f.name !== p.name && oldByName.has(f.name));
      if (former) renames.set(p.name, { from: oldByName.get(former.name)!, loc: former.loc });
    }
  }
  const renamedAway = new Set([...renames.values()].map((r) => r.from.name));
  const out: Difference[] = [];
  for (const p of o.properties) {
    // The field of its name in the new version is not it when it was renamed away, or when the new one was renamed into its name.
    const kept = renamedAway.has(p.name) || renames.has(p.name) ? undefined : newByName.get(p.name);
    if (kept) {
      const here = childAt(ctx, at, p.name, kept.shape);
      out.push(...requirednessDiffs(ctx, here, p, kept), ...compareAt(ctx, here, p.shape, kept.shape));
    } else if (!renamedAway.has(p.name)) out.push(...oldPropertyDiffs(ctx, at, n, p));
  }
  for (const p of n.properties) {
    if (oldByName.has(p.name) && !renamedAway.has(p.name)) continue;
    const rename = renames.get(p.name);
    if (!rename) {
      out.push(...newPropertyDiffs(ctx, at, o, p));
      continue;
    }
    const head = `field "${rename.from.name}" renamed to "${p.name}" (declared); the new version's adapters read "${rename.from.name}" as "${p.name}"`;
    out.push(...relocatedDiffs(ctx, at, o, rename.from, p, { kind: "field-renamed", head, loc: rename.loc, from: rename.from.name }));
  }
  const names =
    o.propertyNames || n.propertyNames
      ? compareAt(ctx, innerAt(at, undefined, "key names: "), o.propertyNames ?? { kind: "string" }, n.propertyNames ?? { kind: "string" })
      : [];
  return [
    ...out,
    ...opennessDiffs(ctx, at, o, n),
    ...patternPropertyDiffs(ctx, at, o, n),
    ...names,
    ...countDiffs(at, "minProperties", o.minProperties, n.minProperties, true),
    ...countDiffs(at, "maxProperties", o.maxProperties, n.maxProperties, false),
    ...dependentDiffs(ctx, at, o, n),
    ...ruleDiffs(ctx, at, o, n),
  ];
};

// ---- dispatch ----------------------------------------------------------------------------------

const kindDiffs = (ctx: Context, at: At, o: Shape, n: Shape): Difference[] => {
  const edges = ["any", "never"];
  if (edges.includes(o.kind) || edges.includes(n.kind)) return topDiffs(at, o, n);
  if (o.kind === "null" || n.kind === "null") return nullDiffs(at, o, n);
  const nullable = nullableDiffs(at, o, n);
  if (o.kind === "union" || n.kind === "union") return [...nullable, ...unionDiffs(ctx, at, o, n)];
  if (o.kind === "enum" && n.kind === "enum") return [...nullable, ...enumDiffs(ctx, at, o, n)];
  if (o.kind === "enum" || n.kind === "enum") return [...nullable, ...enumVersusType(at, o, n)];
  if (o.kind !== n.kind) return [...nullable, report(at, "type-changed", false, false, `${describe(o)} → ${describe(n)}`)];
  switch (o.kind) {
    case "string":
      return [...nullable, ...stringDiffs(at, o, n as StringShape)];
    case "number":
      return [...nullable, ...numberDiffs(at, o, n as NumberShape)];
    case "array":
      return [...nullable, ...arrayDiffs(ctx, at, o, n as ArrayShape)];
    case "object":
      return [...nullable, ...objectDiffs(ctx, at, o, n as ObjectShape)];
    case "contract": {
      const m = n as Extract<Shape, { kind: "contract" }>;
      return o.contract === m.contract && o.major === m.major
        ? nullable
        : [...nullable, report(at, "contract-ref-changed", false, false, `${describe(o)} → ${describe(m)}: payloads of one are not payloads of the other`)];
    }
    default:
      return nullable;
  }
};

/** `not` and `if`/`then`/`else` beside the kind's own constraints. */
const guardDiffs = (ctx: Context, at: At, o: Shape, n: Shape): Difference[] => {
  const out: Difference[] = [];
  if (o.not && n.not) out.push(...compareAt(ctx, { ...innerAt(at, undefined, "inside not: "), swapped: !at.swapped }, o.not, n.not));
  else if (o.not) out.push(widened(at, "constraint-widened", `not ${describe(o.not)} removed`));
  else if (n.not) out.push(narrowed(at, "constraint-narrowed", `not ${describe(n.not)} added`));
  const oc = o.conditional;
  const nc = n.conditional;
  if (oc && nc) {
    if (compareAt(ctx, at, oc.if, nc.if).some((d) => d.kind !== "description-changed")) {
      out.push(report(at, "constraint-changed", false, false, "the if condition changed: which values get which branch cannot be compared"));
    } else {
      out.push(...compareAt(ctx, innerAt(at, undefined, "then: "), oc.then ?? ANY, nc.then ?? ANY));
      out.push(...compareAt(ctx, innerAt(at, undefined, "else: "), oc.else ?? ANY, nc.else ?? ANY));
    }
  } else if (oc) out.push(widened(at, "constraint-widened", "if/then/else removed"));
  else if (nc) out.push(narrowed(at, "constraint-narrowed", "if/then/else added"));
  return out;
};

/** The field's description sits on the list on one side and on the item on the other; compare neither. */
const undescribed = (shape: Shape): Shape => ({ ...shape, description: undefined });

/** A declared `wrap` (T → list of T) or `head` (list of T → T): the new version's adapters convert old values. */
const reshapeDiffs = (ctx: Context, at: At, o: Shape, n: Shape): Difference[] | undefined => {
  const change = at.dotted === undefined ? undefined : ctx.declared.reshape(at.dotted);
  if (change?.op === "wrap" && o.kind !== "array" && n.kind === "array") {
    const ok = (n.minItems ?? 0) <= 1 && (n.maxItems ?? 1) >= 1;
    const reason = `${describe(o)} → list of ${describe(n.items)}; the new version's adapters wrap old values in a list (declared)${ok ? "" : `, which minItems ${n.minItems} rejects`}; readers of the old version reject lists`;
    return [report(at, "type-changed", ok, false, reason, change.loc), ...compareAt(ctx, innerAt(at, "*"), undescribed(o), undescribed(n.items))];
  }
  if (change?.op === "head" && o.kind === "array" && n.kind !== "array") {
    const ok = change.default !== undefined || (o.minItems ?? 0) >= 1;
    const empty = ok ? "" : "; an empty list in old data has no first item and no declared default";
    const reason = `list of ${describe(o.items)} → ${describe(n)}; the new version's adapters take the first item (declared)${empty}; readers of the old version expect a list`;
    return [report(at, "type-changed", ok, false, reason, change.loc), ...compareAt(ctx, { ...at, dotted: undefined }, undescribed(o.items), undescribed(n))];
  }
  return undefined;
};

const compareAt = (ctx: Context, at: At, o: Shape, n: Shape): Difference[] => {
  if (o === n) return [];
  const active = ctx.active.get(o) ?? new Set<Shape>();
  if (active.has(n)) return [];
  ctx.active.set(o, active.add(n));
  try {
    const kinds = reshapeDiffs(ctx, at, o, n) ?? kindDiffs(ctx, at, o, n);
    return [...descriptionDiffs(at, o, n), ...kinds, ...guardDiffs(ctx, at, o, n)];
  } finally {
    active.delete(n);
  }
};

/** Every difference between two shapes, each judged in both directions. */
export const compare = (older: Shape, newer: Shape, options: CompareOptions = {}): Difference[] => {
  const ctx: Context = { declared: createDeclared(options.declared ?? []), oldRoot: older, newRoot: newer, active: new Map(), fitting: new Map() };
  return compareAt(ctx, { path: "", dotted: "", loc: newer.loc, note: "", swapped: false }, older, newer);
};

/** A direction is breaking when any difference breaks it. */
export const verdictOf = (differences: readonly Difference[], direction: Direction): Verdict =>
  differences.some((d) => d[direction] === "breaking") ? "breaking" : "compatible";
