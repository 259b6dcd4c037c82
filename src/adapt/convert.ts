// How a value of one type becomes a value of another, decided from the two types: a widening
// needs nothing, enum values go through the step's table, objects drop what the target lacks.
import type { Contract, Field, ObjectType, OpenObject, ResolvedVersion, TypeNode } from "../ir/model.js";
import { distinguishVariants } from "../ir/one-of-variants.js";
import { objectPolicy } from "../ir/open-objects.js";
import type { Conversion, Direction, ObjectConversion } from "./model.js";
import { jsonWidens, listBoundsWiden, scalarWidens } from "./widen.js";

export interface ConvertContext {
  readonly source: ResolvedVersion;
  readonly target: ResolvedVersion;
  readonly direction: Direction;
  /** In a step with a `custom` change, what cannot be derived passes unchecked to the custom code. */
  readonly custom: boolean;
  /** Strip projections rebuild every object and drop the keys it does not declare (but in kept objects). */
  readonly project: boolean;
  /** The contract's unknown-key policy; absent in a widening check, where no object is rebuilt. */
  readonly contract?: Pick<Contract, "unknownFields">;
  /** The conversion of enum `name` (same name on both sides); undefined when a stub must do it. */
  enumConversion(name: string): Conversion | undefined;
}

const SAME: Conversion = { kind: "same" };
const UNCHECKED: Conversion = { kind: "unchecked" };

const objectOf = (type: TypeNode, version: ResolvedVersion): (OpenObject & { readonly fields: readonly Field[] }) | undefined => {
  if (type.kind === "object") return type;
  if (type.kind === "named") return version.types.get(type.name);
  return undefined;
};

/** A widening check: a conversion that is `same` throughout, enum values compared by name. */
const widensContext = (from: ResolvedVersion, to: ResolvedVersion): ConvertContext => ({
  source: from,
  target: to,
  direction: "up",
  custom: false,
  project: false,
  enumConversion: (name) => {
    const targetValues = new Set(to.enums.get(name)?.values.map((v) => v.name));
    return from.enums.get(name)?.values.every((v) => targetValues.has(v.name)) ? SAME : undefined;
  },
});

/** Every value of `from` (in version `fromVersion`) is a value of `to` (in `toVersion`). */
export const widens = (from: TypeNode, fromVersion: ResolvedVersion, to: TypeNode, toVersion: ResolvedVersion): boolean =>
  convertType(from, to, widensContext(fromVersion, toVersion))?.kind === "same";

/**
 * When the target cannot hold every source value: going down a widening, the value passes and the
 * target's validator decides (encode reports it); otherwise a stub converts it (undefined).
 */
const narrowing = (from: TypeNode, to: TypeNode, ctx: ConvertContext): Conversion | undefined =>
  ctx.custom || (ctx.direction === "down" && widens(to, ctx.target, from, ctx.source)) ? UNCHECKED : undefined;

/** A field's value, with its presence and nullability, into a target field. */
export const convertField = (from: Field, to: Pick<Field, "type" | "optional" | "nullable">, ctx: ConvertContext): Conversion | undefined => {
  const losesPresence = (from.optional && !to.optional) || (from.nullable !== undefined && to.nullable === undefined);
  const value = convertType(from.type, to.type, ctx);
  if (!losesPresence || value === undefined) return value;
  return narrowing(from.type, to.type, ctx) && UNCHECKED;
};

const convertObject = (fromObject: ReturnType<typeof objectOf>, toObject: ReturnType<typeof objectOf>, ctx: ConvertContext, tag?: string): ObjectConversion | undefined => {
  if (!fromObject || !toObject) return undefined;
  const [fromFields, toFields] = [fromObject.fields, toObject.fields];
  const fields: ObjectConversion["fields"][number][] = [];
  for (const to of toFields) {
    const from = fromFields.find((f) => f.name === to.name);
    if (!from) {
      if (to.optional) continue;
      return undefined;
    }
    const conversion = convertField(from, to, ctx);
    if (!conversion) return undefined;
    fields.push({ name: to.name, optional: from.optional, nullable: from.nullable !== undefined, conversion });
  }
  if (tag !== undefined) fields.unshift({ name: tag, optional: false, nullable: false, conversion: SAME });
  const dropped = fromFields.filter((f) => !toFields.some((t) => t.name === f.name)).map((f) => f.name);
  // Unknown keys: kept where both sides keep them; dropped (and logged) by a strip projection, or
  // where a kept object becomes one that does not keep them.
  const [from, to] = ctx.contract ? [objectPolicy(ctx.contract, fromObject).unknownFields, objectPolicy(ctx.contract, toObject).unknownFields] : [undefined, undefined];
  if (from === "keep" && to === "keep") {
    const known = [...new Set([...fields.map((f) => f.name), ...fromFields.map((f) => f.name), ...toFields.map((f) => f.name)])];
    const keep = { known, claimed: claimedNames(fromFields, toFields), unchecked: !keptKeysWiden(fromObject, ctx.source, toObject, ctx.target) };
    return { kind: "object", fields, dropped, open: false, keep };
  }
  return { kind: "object", fields, dropped, open: ctx.project || from === "keep" };
};

const isSameObject = (c: ObjectConversion): boolean => !c.open && !c.keep?.unchecked && c.dropped.length === 0 && c.fields.every((f) => f.conversion.kind === "same");

/** The names `to` declares and `from` does not (see `KeptKeys.claimed`). */
export const claimedNames = (from: readonly { readonly name: string }[], to: readonly { readonly name: string }[]): string[] => {
  const declared = new Set(from.map((f) => f.name));
  return to.map((f) => f.name).filter((name) => !declared.has(name));
};

/** Every kept key's value of `from` is one `to` keeps: `to` has no `additional`, or `from`'s widens to it. */
export const keptKeysWiden = (from: OpenObject, fromVersion: ResolvedVersion, to: OpenObject, toVersion: ResolvedVersion): boolean =>
  to.additional === undefined || (from.additional !== undefined && widens(from.additional, fromVersion, to.additional, toVersion));


const convertUnion = (from: Extract<TypeNode, { kind: "union" }>, to: TypeNode, ctx: ConvertContext): Conversion | undefined => {
  if (to.kind !== "union" || to.tag !== from.tag) return narrowing(from, to, ctx);
  const variants: { value: string; conversion: ObjectConversion }[] = [];
  let unchecked = false;
  for (const variant of from.variants) {
    const target = to.variants.find((v) => v.value === variant.value);
    const conversion = target && convertObject(objectOf(variant.type, ctx.source), objectOf(target.type, ctx.target), ctx, from.tag);
    if (conversion) variants.push({ value: variant.value, conversion });
    else if (narrowing(from, to, ctx)) unchecked = true;
    else return undefined;
  }
  if (unchecked) return UNCHECKED;
  return variants.every((v) => isSameObject(v.conversion)) ? SAME : { kind: "union", tag: from.tag, variants };
};

const convertEnum = (from: Extract<TypeNode, { kind: "enum" }>, to: TypeNode, ctx: ConvertContext): Conversion | undefined => {
  if (to.kind === "enum" && to.name === from.name) return ctx.enumConversion(from.name) ?? narrowing(from, to, ctx);
  const values = ctx.source.enums.get(from.name)?.values.map((v) => v.name) ?? [];
  const accepts = (value: string): boolean =>
    to.kind === "enum" ? ctx.target.enums.get(to.name)?.values.some((v) => v.name === value) === true : scalarWidens({ kind: "const", value }, to) === true;
  return values.every(accepts) ? SAME : narrowing(from, to, ctx);
};

/**
 * An untagged union on either side: every source variant (or the source itself) must widen to a
 * target variant (or the target itself), or convert through the one target variant it pairs with;
 * otherwise the value passes unchecked or a stub converts it.
 */
const convertOneOf = (from: TypeNode, to: TypeNode, ctx: ConvertContext): Conversion | undefined => {
  const sources = from.kind === "oneOf" ? from.variants.map((v) => v.type) : [from];
  const targets = to.kind === "oneOf" ? to.variants.map((v) => v.type) : [to];
  const widening = sources.every((s) => targets.some((t) => convertType(s, t, ctx)?.kind === "same"));
  return widening ? SAME : (throughVariants(from, sources, targets, ctx) ?? narrowing(from, to, ctx));
};

/**
 * Each source variant's conversion into its pair: a target variant it widens to (the target's
 * variants are disjoint, so the value itself tells which), else the only one it converts to. The
 * source variant is selected at run time by the validators' selectors; a widening check builds none.
 */
const throughVariants = (from: TypeNode, sources: readonly TypeNode[], targets: readonly TypeNode[], ctx: ConvertContext): Conversion | undefined => {
  if (!ctx.contract) return undefined;
  const pairs: Conversion[] = [];
  for (const source of sources) {
    const candidates = targets.map((t) => convertType(source, t, ctx)).filter((c): c is Conversion => c !== undefined && c.kind !== "unchecked");
    const pair = candidates.find((c) => c.kind === "same") ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (!pair) return undefined;
    pairs.push(pair);
  }
  if (from.kind !== "oneOf") return pairs[0];
  const { selectors, overlaps } = distinguishVariants(from, ctx.source, ctx.contract);
  if (overlaps.length > 0) return undefined;
  return { kind: "oneOf", variants: pairs.map((conversion, i) => ({ selector: selectors[i]!, conversion })) };
};

/** Per conversion, the pairs of named types being converted above this point, and those met again inside themselves. */
const converting = new WeakMap<ConvertContext, { readonly open: Set<string>; readonly reentered: Set<string> }>();

/** Nothing to do but where a recursive type comes back to itself: the value passes as it is. */
const unchanged = (c: Conversion): boolean => {
  switch (c.kind) {
    case "same":
    case "again":
      return true;
    case "list":
      return unchanged(c.item);
    case "map":
      return unchanged(c.value);
    case "object":
      return !c.open && !c.keep?.unchecked && c.dropped.length === 0 && c.fields.every((f) => unchanged(f.conversion));
    case "union":
    case "oneOf":
      return c.variants.every((v) => unchanged(v.conversion));
    default:
      return false;
  }
};

/**
 * Named types: a pair met again inside itself (a recursive type) is `again`, a call back to the
 * helper that `named` makes of the pair's conversion; when nothing changes on the way round, the
 * whole is `same`.
 */
const convertNamed = (from: Extract<TypeNode, { kind: "named" }>, to: Extract<TypeNode, { kind: "named" }>, ctx: ConvertContext): Conversion | undefined => {
  const state = converting.get(ctx) ?? { open: new Set<string>(), reentered: new Set<string>() };
  converting.set(ctx, state);
  const key = from.name === to.name ? from.name : `${from.name}_${to.name}`;
  if (state.open.has(key)) {
    state.reentered.add(key);
    return { kind: "again", key };
  }
  state.open.add(key);
  const conversion = convertObject(objectOf(from, ctx.source), objectOf(to, ctx.target), ctx);
  state.open.delete(key);
  const recursive = state.reentered.delete(key);
  if (!conversion) return narrowing(from, to, ctx);
  if (unchanged(conversion)) return SAME;
  return recursive ? { kind: "named", key, conversion } : conversion;
};

/** The conversion from `from` (a type of ctx.source) to `to` (of ctx.target); undefined when only a stub can do it. */
export const convertType = (from: TypeNode, to: TypeNode, ctx: ConvertContext): Conversion | undefined => {
  if (to.kind === "json") return jsonWidens(from, to) ? SAME : narrowing(from, to, ctx);
  if (from.kind === "oneOf" || to.kind === "oneOf") return convertOneOf(from, to, ctx);
  const scalar = scalarWidens(from, to);
  if (scalar !== undefined) return scalar ? SAME : narrowing(from, to, ctx);
  switch (from.kind) {
    case "enum":
      return convertEnum(from, to, ctx);
    case "list": {
      if (to.kind !== "list") return narrowing(from, to, ctx);
      const item = convertType(from.of, to.of, ctx);
      if (!item) return undefined;
      if (!listBoundsWiden(from, to)) return narrowing(from, to, ctx);
      return item.kind === "same" ? SAME : { kind: "list", item };
    }
    case "tuple": {
      if (to.kind !== "tuple" || to.items.length !== from.items.length) return narrowing(from, to, ctx);
      const items = from.items.map((item, i) => convertType(item, to.items[i]!, ctx));
      if (items.some((item) => item === undefined)) return undefined;
      return items.every((item) => item!.kind === "same") ? SAME : { kind: "tuple", items: items as Conversion[] };
    }
    case "map": {
      if (to.kind !== "map") return narrowing(from, to, ctx);
      const value = convertType(from.of, to.of, ctx);
      if (!value) return undefined;
      return value.kind === "same" ? SAME : { kind: "map", value };
    }
    case "named":
      if (to.kind === "named") return convertNamed(from, to, ctx);
    // falls through: a named type into an inline object converts field by field
    case "object": {
      const conversion = convertObject(objectOf(from, ctx.source), objectOf(to, ctx.target), ctx);
      if (!conversion) return narrowing(from, to, ctx);
      return isSameObject(conversion) ? SAME : conversion;
    }
    case "union":
      return convertUnion(from, to, ctx);
    case "contract":
      return to.kind === "contract" && to.contract === from.contract && to.major === from.major ? SAME : narrowing(from, to, ctx);
    default:
      return narrowing(from, to, ctx);
  }
};

/** A strip projection: `type` onto itself, rebuilding objects without the keys they do not declare. */
export const projectType = (type: ObjectType, version: ResolvedVersion, contract: Pick<Contract, "unknownFields">): Conversion =>
  convertType(type, type, {
    source: version,
    target: version,
    direction: "up",
    custom: false,
    project: true,
    contract,
    enumConversion: () => SAME,
  })!;
