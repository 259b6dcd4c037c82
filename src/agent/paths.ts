// Agent paths (`offers[].offer_id`) resolved to the types they reach, and those types compared
// across contracts: a value one agent provides may feed another only if both sides agree on it.
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { Params } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import type { AgentContractRef, Contract, Field, Project, ResolvedVersion, TypeNode } from "../ir/model.js";
import { versionsOfMajor } from "../ir/names.js";
import { unaddressableAt } from "../resolve/changes.js";

/** A payload an agent reads or writes: the newest version of the major it names. */
export interface Payload {
  readonly contract: Contract;
  readonly version: ResolvedVersion;
}

export const payloadOf = (project: Project, ref: Pick<AgentContractRef, "contract" | "major">): Payload | undefined => {
  const contract = project.contracts.find((c) => c.name === ref.contract);
  const version = contract && versionsOfMajor(contract, ref.major).at(-1);
  return contract && version && { contract, version };
};

/** `booking.offers 1.0`: how a payload is named in messages. */
export const payloadLabel = (at: Payload): string => `${at.contract.name} ${at.version.version}`;

/** A type where the payload it belongs to is known (named types and enums are looked up there). */
export interface Located {
  readonly type: TypeNode;
  readonly at: Payload;
}

export type PathResolution =
  | { readonly ok: true; readonly type: Located; readonly field: Field }
  | { readonly ok: false; readonly code: DiagnosticCode; readonly params: Params };

/** Named types and contract references replaced by the object they stand for. */
const deref = (project: Project, located: Located): Located => {
  const { type, at } = located;
  if (type.kind === "named") return { type: { kind: "object", fields: at.version.types.get(type.name)?.fields ?? [] }, at };
  if (type.kind === "contract") {
    const target = payloadOf(project, type);
    return target ? { type: { kind: "object", fields: target.version.fields }, at: target } : located;
  }
  return located;
};

/** Segments of a path: `offers[].offer_id` → offers (each item), offer_id. */
export const pathSegments = (path: string): { readonly name: string; readonly items: boolean }[] =>
  path.split(".").map((segment) => (segment.endsWith("[]") ? { name: segment.slice(0, -2), items: true } : { name: segment, items: false }));

/** A type as a path step sees it: an untagged union is each of its variants (named types dereferenced). */
const alternatives = (project: Project, located: Located): Located[] =>
  located.type.kind === "oneOf"
    ? located.type.variants.flatMap((v) => alternatives(project, deref(project, { type: v.type, at: located.at })))
    : [located];

/** Of several types a step reaches (a union's variants, a tuple's items), the one they all are, if they agree. */
const agreed = (project: Project, found: readonly Located[]): Located | undefined =>
  found.length > 0 && found.every((f) => sameType(project, f, found[0]!)) ? found[0] : undefined;

export const resolvePath = (project: Project, root: Payload, path: string): PathResolution => {
  let objects: readonly Located[] = [{ type: { kind: "object", fields: root.version.fields }, at: root }];
  let walked = "";
  let result: { type: Located; field: Field } | undefined;
  const segments = pathSegments(path);
  for (const [depth, segment] of segments.entries()) {
    if (result) {
      // Through an untagged union, into the object variants that declare the field.
      objects = alternatives(project, result.type).filter((o) => o.type.kind === "object");
      if (objects.length === 0) return { ok: false, code: "not-an-object", params: { path: walked, field: segment.name } };
    }
    const fieldsOf = (o: Located): readonly Field[] => (o.type.kind === "object" ? o.type.fields : []);
    const declaring = objects.filter((o) => fieldsOf(o).some((f) => f.name === segment.name));
    const at = declaring[0]?.at ?? objects[0]!.at;
    const fields = declaring.length > 0 ? fieldsOf(declaring[0]!) : objects.flatMap(fieldsOf);
    const field = fields.find((f) => f.name === segment.name);
    walked = walked === "" ? segment.name : `${walked}.${segment.name}`;
    const unaddressable = field ? undefined : unaddressableAt(fields, path.split(".").slice(depth).join("."));
    if (unaddressable !== undefined) return { ok: false, code: "unaddressable-field", params: { path, name: unaddressable } };
    if (!field) {
      return { ok: false, code: "unknown-field", params: { path: walked, version: payloadLabel(at), suggestion: didYouMean(segment.name, fields.map((f) => f.name)) } };
    }
    let type = agreed(
      project,
      declaring.map((o) => deref(project, { type: fieldsOf(o).find((f) => f.name === segment.name)!.type, at: o.at })),
    );
    if (!type) return { ok: false, code: "not-an-object", params: { path: walked.slice(0, -segment.name.length - 1), field: segment.name } };
    if (segment.items) {
      // A list's items, a tuple's when they are all of one type, or those of a union's list variants.
      const items = alternatives(project, type).flatMap((t) =>
        (t.type.kind === "list" ? [t.type.of] : t.type.kind === "tuple" ? t.type.items : []).map((item) => deref(project, { type: item, at: t.at })),
      );
      const item = agreed(project, items);
      if (!item) return { ok: false, code: "not-a-list", params: { path: walked, where: payloadLabel(at), type: describeType(project, type) } };
      type = item;
      walked += "[]";
    }
    result = { type, field };
  }
  return { ok: true, ...result! };
};

const enumValues = (located: Located): string[] =>
  located.type.kind === "enum" ? (located.at.version.enums.get(located.type.name)?.values.map((v) => v.name) ?? []) : [];

/** The type in words, for messages: `a string`, `enum Cabin (ECONOMY | BUSINESS)`, `a list of an int`. */
export const describeType = (project: Project, located: Located): string => {
  const type = deref(project, located).type;
  switch (type.kind) {
    case "string":
    case "number":
    case "timestamp":
      return `a ${type.kind}`;
    case "int":
      return "an int";
    case "bool":
      return "a bool";
    case "ref":
      return `a ref<${type.scheme}>`;
    case "const":
      return `the constant ${JSON.stringify(type.value)}`;
    case "enum":
      return `enum ${type.name} (${enumValues(located).join(" | ")})`;
    case "list":
    case "map":
      return `a ${type.kind} of ${describeType(project, { type: type.of, at: located.at })}`;
    case "json":
      return "a JSON value";
    case "tuple":
      return `a tuple [${type.items.map((item) => describeType(project, { type: item, at: located.at })).join(", ")}]`;
    case "object":
      return `an object {${type.fields.map((f) => f.name).join(", ")}}`;
    case "union":
      return `a union on '${type.tag}' (${type.variants.map((v) => v.value).join(" | ")})`;
    case "oneOf":
      return `one of ${type.variants.map((v) => describeType(project, { type: v.type, at: located.at })).join(" | ")}`;
    case "named":
    case "contract":
      return type.kind === "named" ? type.name : `${type.contract}@${type.major}`;
  }
};

/**
 * Whether a value of `a` is always a value of `b` and back: the same kind, the same enum values,
 * the same constant, the same fields with matching types. Constraints (lengths, patterns) may
 * differ: the contracts' validators enforce their own.
 */
export const sameType = (project: Project, left: Located, right: Located): boolean => {
  const a = deref(project, left);
  const b = deref(project, right);
  if (a.type.kind !== b.type.kind) return false;
  switch (a.type.kind) {
    case "ref":
      return a.type.scheme === (b.type as typeof a.type).scheme;
    case "const":
      return a.type.value === (b.type as typeof a.type).value;
    case "enum": {
      const [x, y] = [enumValues(a).sort(), enumValues(b).sort()];
      return x.length === y.length && x.every((v, i) => v === y[i]);
    }
    case "list":
    case "map":
      return sameType(project, { type: a.type.of, at: a.at }, { type: (b.type as typeof a.type).of, at: b.at });
    case "json": {
      const other = b.type as typeof a.type;
      return a.type.maxDepth === other.maxDepth && a.type.maxBytes === other.maxBytes;
    }
    case "tuple": {
      const other = (b.type as typeof a.type).items;
      return a.type.items.length === other.length && a.type.items.every((item, i) => sameType(project, { type: item, at: a.at }, { type: other[i]!, at: b.at }));
    }
    case "object": {
      const other = (b.type as typeof a.type).fields;
      return (
        a.type.fields.length === other.length &&
        a.type.fields.every((f) => {
          const g = other.find((o) => o.name === f.name);
          return g !== undefined && g.optional === f.optional && sameType(project, { type: f.type, at: a.at }, { type: g.type, at: b.at });
        })
      );
    }
    case "union": {
      const other = b.type as typeof a.type;
      return (
        a.type.tag === other.tag &&
        a.type.variants.length === other.variants.length &&
        a.type.variants.every((v) => {
          const w = other.variants.find((o) => o.value === v.value);
          return w !== undefined && sameType(project, { type: v.type, at: a.at }, { type: w.type, at: b.at });
        })
      );
    }
    case "oneOf": {
      // In order: the same variants, each the same type.
      const other = (b.type as typeof a.type).variants;
      return a.type.variants.length === other.length && a.type.variants.every((v, i) => sameType(project, { type: v.type, at: a.at }, { type: other[i]!.type, at: b.at }));
    }
    default:
      return true;
  }
};
