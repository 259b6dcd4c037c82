// Imports one resolved contract version (IR) into the compatibility model. The envelope is left
// out: its `version` constant differs by design (it selects the reader), so it is no difference.
import type { Contract, EnumDef, Field, NumericType, OpenObject, ResolvedVersion, Rule, TypeNode, UnionType } from "../ir/model.js";
import { objectPolicy } from "../ir/open-objects.js";
import { defined, stricterBound } from "./intersect.js";
import { NEVER, type Bound, type EnumShape, type NumberShape, type ObjectShape, type Openness, type Shape, type ShapeRule } from "./shape.js";

interface Scope {
  readonly contract: Contract;
  readonly version: ResolvedVersion;
  /**
   * One shape per named type, shared by every reference, so a recursive type is a cyclic shape
   * (as `$ref`s are in shape-of-json-schema) that the engine compares co-inductively.
   */
  readonly named: Map<string, Shape>;
  /** Named types still being imported, and what to finish once each is (fields whose shape copies it). */
  readonly pending: Map<string, (() => void)[]>;
}

/**
 * An object's `unknown_fields` as the engine models it: reject is closed, strip ignores, and keep
 * is open (a writer passes its unknown keys on, a reader accepts them) with `additional`'s shape or any.
 */
const openness = (scope: Scope, object?: OpenObject): Openness => {
  const policy = objectPolicy(scope.contract, object);
  switch (policy.unknownFields) {
    case "reject":
      return { kind: "closed" };
    case "strip":
      return { kind: "strip" };
    case "keep":
      return { kind: "open", shape: policy.additional === undefined ? { kind: "any" } : typeShape(scope, policy.additional) };
  }
};

const bound = (inclusive: number | undefined, exclusive: number | undefined, upper: boolean): Bound | undefined =>
  stricterBound(
    inclusive === undefined ? undefined : { value: inclusive, exclusive: false },
    exclusive === undefined ? undefined : { value: exclusive, exclusive: true },
    upper,
  );

const numberShape = (node: NumericType): NumberShape =>
  defined({
    kind: "number",
    integer: node.kind === "int",
    lower: bound(node.min, node.exclusiveMin, false),
    upper: bound(node.max, node.exclusiveMax, true),
    multipleOf: node.multipleOf,
  });

const enumShape = (def: EnumDef): EnumShape =>
  defined({
    kind: "enum",
    name: def.name,
    values: def.values.map((value) => ({ value: value.name, description: value.meaning, loc: value.loc })),
    fallback: def.fallback,
    description: def.description,
  });

const lookup = <T>(map: ReadonlyMap<string, T>, name: string): T => {
  const found = map.get(name);
  if (found === undefined) throw new Error(`treaty bug: unresolved name '${name}' reached the compatibility check`);
  return found;
};

const objectShape = (scope: Scope, fields: readonly Field[], object?: OpenObject): ObjectShape => ({
  kind: "object",
  properties: fields.map((field) => ({ name: field.name, required: !field.optional, shape: fieldShape(scope, field) })),
  extra: openness(scope, object),
});

/** Every variant declares the tag as a constant, as the emitted JSON Schema does. */
const unionShape = (scope: Scope, node: UnionType): Shape => ({
  kind: "union",
  tag: node.tag,
  exclusive: true,
  variants: node.variants.map((variant) => {
    const object = variant.type.kind === "object" ? variant.type : lookup(scope.version.types, variant.type.name);
    const tag: Field = { name: node.tag, type: { kind: "const", value: variant.value }, optional: false, loc: variant.loc };
    return { key: variant.value, shape: { ...objectShape(scope, [tag, ...object.fields], object), loc: variant.loc } };
  }),
});

const typeShape = (scope: Scope, node: TypeNode): Shape => {
  switch (node.kind) {
    case "string":
      return defined({ kind: "string", minLength: node.minLength, maxLength: node.maxLength, pattern: node.pattern, format: node.format });
    case "int":
    case "number":
      return numberShape(node);
    case "bool":
      return { kind: "boolean" };
    case "timestamp":
      return { kind: "string", format: "date-time" };
    case "ref":
      return { kind: "string", scheme: node.scheme };
    case "list":
      return defined({
        kind: "array",
        items: typeShape(scope, node.of),
        minItems: node.minItems,
        maxItems: node.maxItems,
        unique: node.unique ? true : undefined,
      });
    case "map":
      return defined({
        kind: "object",
        properties: [],
        extra: { kind: "open", shape: typeShape(scope, node.of) },
        propertyNames: node.keyPattern === undefined ? undefined : { kind: "string", pattern: node.keyPattern },
      });
    case "json":
      return defined({ kind: "any", maxDepth: node.maxDepth, maxBytes: node.maxBytes });
    case "tuple": {
      const prefix = node.items.map((item) => typeShape(scope, item));
      return { kind: "array", prefix, items: NEVER, minItems: prefix.length, maxItems: prefix.length };
    }
    case "object":
      return objectShape(scope, node.fields, node);
    case "union":
      return unionShape(scope, node);
    case "oneOf":
      // Proved disjoint by `check`: exactly one variant matches, as JSON Schema `oneOf` says.
      return { kind: "union", exclusive: true, disjoint: true, variants: node.variants.map((variant) => ({ shape: { ...typeShape(scope, variant.type), loc: variant.loc } })) };
    case "const":
      return { kind: "enum", values: [{ value: node.value }] };
    case "enum":
      return enumShape(lookup(scope.version.enums, node.name));
    case "named": {
      const known = scope.named.get(node.name);
      if (known) return known;
      const type = lookup(scope.version.types, node.name);
      // Filled in place once imported: a reference back into the type while importing it gets this object.
      const placeholder: Record<string, unknown> = { kind: "any" };
      scope.named.set(node.name, placeholder as unknown as Shape);
      scope.pending.set(node.name, []);
      Object.assign(placeholder, defined({ ...objectShape(scope, type.fields, type), description: type.description, loc: type.loc }));
      for (const finish of scope.pending.get(node.name)!) finish();
      scope.pending.delete(node.name);
      return placeholder as unknown as Shape;
    }
    case "contract":
      return { kind: "contract", contract: node.contract, major: node.major };
  }
};

/** A field's shape: its type's, nullable when the field says what null means, located at the field. */
const fieldShape = (scope: Scope, field: Field): Shape => {
  const shape = typeShape(scope, field.type);
  const located = (): Shape =>
    defined({
      ...shape,
      nullable: field.nullable !== undefined ? true : undefined,
      description: field.description ?? shape.description,
      loc: field.loc,
    });
  const finishing = field.type.kind === "named" ? scope.pending.get(field.type.name) : undefined;
  if (!finishing) return located();
  // A recursive type's field inside itself: its shape is copied once the type is complete.
  const placeholder: Record<string, unknown> = { kind: "any" };
  finishing.push(() => Object.assign(placeholder, located()));
  return placeholder as unknown as Shape;
};

const shapeRule = (rule: Rule): ShapeRule => {
  switch (rule.kind) {
    case "before":
      return { text: `before(${rule.first}, ${rule.second})`, fields: [rule.first, rule.second], trigger: 2 };
    case "exclusive":
      return { text: `exclusive(${rule.fields.join(", ")})`, fields: rule.fields, trigger: 2 };
    case "requires":
      return { text: `requires(${rule.if} → ${rule.then.join(", ")})`, fields: [rule.if], trigger: 1 };
  }
};

/** The payload of `version` (without the envelope) as the engine compares it. */
export const shapeOfVersion = (contract: Contract, version: ResolvedVersion): Shape => {
  let shape = shapes.get(version);
  if (shape === undefined) {
    const scope: Scope = { contract, version, named: new Map(), pending: new Map() };
    const rules = version.rules.map(shapeRule);
    shape = defined({ ...objectShape(scope, version.fields), rules: rules.length > 0 ? rules : undefined, loc: version.loc });
    shapes.set(version, shape);
  }
  return shape;
};

// Each version's shape, made once: the bump rules compare every pair of versions of a major, so
// a contract of 121 versions made 14,520 shapes of them (5 of its 10 s of `check`).
const shapes = new WeakMap<ResolvedVersion, Shape>();
