// Redaction and re-ask paths through an untagged union, on a shape as emit/shape.ts writes it: the
// shape does not say which variant a value is of, so a value keeps only what every variant of its
// JSON type keeps, and no variant's sensitive field leaks.
import { describe, expect, it } from "vitest";
import { REDACTED, redact, type VersionShape } from "../../src/runtime/index.js";
import { maskPointer } from "../../src/runtime/reask.js";

const shape: VersionShape = {
  root: {
    id: { kind: "oneOf", variants: [{ kind: "string" }, { kind: "number" }] },
    block: {
      kind: "oneOf",
      variants: [
        { kind: "named", name: "Text" },
        { kind: "named", name: "Secretive" },
      ],
    },
    level: { kind: "oneOf", variants: [{ kind: "enum", name: "Level" }, { kind: "list", of: { kind: "boolean" } }] },
    point: { kind: "oneOf", variants: [{ kind: "string" }, { kind: "tuple", items: [{ kind: "number" }, { kind: "number" }] }] },
    hidden: { kind: "oneOf", variants: [{ kind: "string" }, { kind: "number" }], sensitivity: "secret" },
  },
  types: {
    Text: { type: { kind: "string" }, text: { kind: "string" } },
    Secretive: { type: { kind: "string" }, token: { kind: "string", sensitivity: "secret" }, text: { kind: "string", sensitivity: "pii" } },
  },
  enums: { Level: { LOW: "Low.", HIGH: "High." } },
};

describe("redact through an untagged union", () => {
  it("keeps a scalar of the variant its JSON type selects", () => {
    expect(redact({ id: "r-1" }, shape, { internal: false })).toEqual({ id: "r-1" });
    expect(redact({ id: 7 }, shape, { internal: false })).toEqual({ id: 7 });
    expect(redact({ id: true }, shape, { internal: false })).toEqual({ id: REDACTED });
  });

  it("keeps of an object only what every object variant keeps alike: no variant's sensitive field leaks", () => {
    const out = redact({ block: { type: "text", text: "PII-or-not", token: "SECRET-t" } }, shape, { internal: false });
    expect(JSON.stringify(out)).not.toMatch(/PII-or-not|SECRET-t/);
    expect(out).toEqual({ block: { type: "text", text: REDACTED } });
  });

  it("checks enum values and lists by their own variant", () => {
    expect(redact({ level: "HIGH" }, shape, { internal: false })).toEqual({ level: "HIGH" });
    expect(redact({ level: "SECRET-x" }, shape, { internal: false })).toEqual({ level: REDACTED });
    expect(redact({ level: [true, false] }, shape, { internal: false })).toEqual({ level: [true, false] });
  });

  it("keeps a tuple variant's value by its positions", () => {
    expect(redact({ point: [1.5, -2] }, shape, { internal: false })).toEqual({ point: [1.5, -2] });
    expect(redact({ point: "here" }, shape, { internal: false })).toEqual({ point: "here" });
  });

  it("removes a sensitive union field whole", () => {
    expect(redact({ hidden: "SECRET-h", id: 1 }, shape, { internal: false })).toEqual({ id: 1 });
  });
});

describe("re-ask paths through an untagged union", () => {
  it("name a field any object variant declares, and mask what none does", () => {
    expect(maskPointer("/block/text", shape)).toBe("/block/text");
    expect(maskPointer("/block/token", shape)).toBe("/block/token");
    expect(maskPointer("/block/other", shape)).toBe("/block/*");
    expect(maskPointer("/level/1", shape)).toBe("/level/1");
  });
});
