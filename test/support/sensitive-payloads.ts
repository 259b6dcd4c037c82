// Payloads with canaries for the redaction and re-ask property tests.
import fc from "fast-check";
import type { ShapeFields, ShapeNode, VersionShape } from "../../src/runtime/index.js";

/**
 * Payloads of any shape with canaries: each sensitive field holds a canary (or a structure of
 * them), objects carry undeclared keys named and valued with canaries, and any value may be
 * replaced by one of the wrong kind that holds a canary. Non-sensitive scalars never hold one.
 */
export const arbitraryPayload = (root: VersionShape): fc.Arbitrary<unknown> => {
  const canary = (kind: "SECRET" | "PII" | "INTERNAL"): fc.Arbitrary<string> => fc.nat(999).map((n) => `${kind}-${n}`);
  const leaked = fc.oneof(canary("SECRET"), canary("PII"));
  const structured = (leaf: fc.Arbitrary<string>): fc.Arbitrary<unknown> =>
    fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(fc.constantFrom("a", "b"), leaf, { maxKeys: 2 }));
  const mapKey = fc.constantFrom("a", "b", "__proto__", "constructor");

  // A json position takes every JSON value: its wrong kind is one JSON cannot write (an undefined inside).
  const wrongKind = (node: ShapeNode): fc.Arbitrary<unknown> =>
    node.kind === "string" ? fc.oneof(fc.array(leaked, { minLength: 1, maxLength: 1 }), fc.record({ SECRET: leaked }))
    : node.kind === "json" ? fc.record({ SECRET: leaked }).map((r) => ({ ...r, hole: undefined }))
    : node.kind === "tuple" ? fc.record({ SECRET: leaked })
    : structured(leaked);

  const fields = (declared: ShapeFields, shape: VersionShape, extra: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<unknown> => {
    const entries = Object.entries(declared).map(([name, field]) => {
      const value =
        field.sensitivity === "secret" ? structured(canary("SECRET"))
        : field.sensitivity === "pii" ? structured(canary("PII"))
        : field.sensitivity === "internal" && field.kind === "string" ? canary("INTERNAL")
        : valueOf(field, shape);
      return [name, value] as const;
    });
    const unknown = fc.dictionary(leaked, leaked, { maxKeys: 2 });
    return fc.tuple(fc.record({ ...Object.fromEntries(entries), ...extra }, { requiredKeys: [] }), unknown).map(([known, extraKeys]) => ({ ...extraKeys, ...known }));
  };

  const valueOf = (node: ShapeNode, shape: VersionShape): fc.Arbitrary<unknown> => {
    const right = ((): fc.Arbitrary<unknown> => {
      switch (node.kind) {
        case "string":
          return fc.constantFrom("plain", "text");
        case "number":
          return fc.integer();
        case "boolean":
          return fc.boolean();
        case "null":
          return fc.constant(null);
        case "enum":
          return fc.constantFrom(...Object.keys(shape.enums[node.name]!));
        case "object":
          return fields(node.fields, shape);
        case "named":
          return fields(shape.types[node.name]!, shape);
        case "list":
          return fc.array(valueOf(node.of, shape), { maxLength: 2 });
        case "map":
          return fc.dictionary(mapKey, valueOf(node.of, shape), { maxKeys: 2 });
        case "json":
          return fc.jsonValue({ maxDepth: 1 });
        case "tuple":
          return fc.tuple(...node.items.map((item) => valueOf(item, shape)));
        case "union":
          return fc.oneof(
            ...Object.entries(node.variants).map(([tag, variant]) => {
              const declared = variant.kind === "named" ? shape.types[variant.name]! : variant.kind === "object" ? variant.fields : {};
              return fields(declared, shape, { [node.tag]: fc.constant(tag) });
            }),
          );
        case "oneOf":
          return fc.oneof(...node.variants.map((variant) => valueOf(variant, shape)));
        case "contract":
          return fc.constantFrom(...Object.entries(node.versions)).chain(([version, nested]) =>
            fields(nested.root, nested, "version" in nested.root ? { version: fc.constant(version) } : {}),
          );
      }
    })();
    return fc.oneof({ arbitrary: right, weight: 5 }, { arbitrary: wrongKind(node), weight: 1 }, { arbitrary: fc.constant(null), weight: 1 });
  };

  return fields(root.root, root);
};
