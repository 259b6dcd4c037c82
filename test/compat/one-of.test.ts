// Untagged unions across versions: a variant added widens (old readers break), one removed narrows
// (new readers break), a change inside a variant is found by matching variants, by JSON type or
// by the constant field that tells them apart.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Difference } from "../../src/compat/difference.js";
import { versionDifferences } from "../../src/compat/version-differences.js";
import { compile } from "../../src/pipeline.js";

const scratch = mkdtempSync(join(tmpdir(), "treaty-compat-one-of-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let projects = 0;
/** `1.0 → 1.1` of a contract whose field `v` is `older`, then `newer` (each a type spec in YAML). */
const differences = (older: string, newer: string): string[] => {
  const root = join(scratch, String(projects++));
  mkdirSync(join(root, "idl"), { recursive: true });
  const yaml = `contract: demo.thing
owner: team
types:
  Text:
    fields: { type: { type: const, value: text }, text: { type: string, maxLength: 10 } }
  Image:
    fields: { type: { type: const, value: image }, url: string }
versions:
  "1.0":
    fields:
      v: ${older}
  "2.0":
    fields:
      v: ${newer}
`;
  writeFileSync(join(root, "idl", "demo.thing.yaml"), yaml);
  const compiled = compile({ root, idlDir: join(root, "idl") });
  const errors = compiled.diagnostics.filter((d) => d.severity === "error");
  if (!compiled.value || errors.length > 0) throw new Error(errors.map((d) => d.message).join("\n"));
  const contract = compiled.value.contracts[0]!;
  const [a, b] = contract.versions;
  return versionDifferences(contract, a!, b!).map((d: Difference) => `${d.kind} ${d.path} ${d.backward}/${d.forward}`);
};

describe("untagged unions between versions", () => {
  it("a variant added breaks forward; removed, backward", () => {
    const two = "{ type: union, variants: [string, int] }";
    const three = "{ type: union, variants: [string, int, bool] }";
    const added = differences(two, three);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((d) => d.endsWith("compatible/breaking"))).toBe(true);
    const removed = differences(three, two);
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((d) => d.endsWith("breaking/compatible"))).toBe(true);
  });

  it("the same variants in another order are no difference", () => {
    expect(differences("{ type: union, variants: [string, int] }", "{ type: union, variants: [int, string] }")).toEqual([]);
  });

  it("a change inside one variant is found in that variant, matched by JSON type", () => {
    const found = differences("{ type: union, variants: [{ type: string, maxLength: 5 }, int] }", "{ type: union, variants: [{ type: string, maxLength: 9 }, int] }");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/compatible\/breaking$/);
  });

  it("object variants matched by their constant field: a bound narrowed inside one breaks backward", () => {
    const found = differences("{ type: union, variants: [Text, Image] }", "{ type: union, variants: [Image, { type: object, fields: { type: { type: const, value: text }, text: { type: string, maxLength: 4 } } }] }");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/text breaking\/compatible$/);
  });

  it("a scalar becoming a union of it and another type widens", () => {
    const found = differences("string", "{ type: union, variants: [string, int] }");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.endsWith("compatible/breaking"))).toBe(true);
  });
});
