// maskPointer's fast walk (one position at a time, what every failure pays per issue) prints what
// the general walk prints, on every version shape of this repository's contracts and fixtures and
// on pointers made of their own field names, indexes and keys no shape names; and masking an
// issue's path without walking the shape (a plain shape's) prints the same, on the issues each
// version's validator reports on its base payload spoiled at random.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskIssuePath, maskPointer, maskPointerByLocate } from "../../src/runtime/reask.js";
import { escapePointer, type Issue, type VersionShape } from "../../src/runtime/index.js";

const ROOT = join(import.meta.dirname, "../..");

/** Every shape.ts under `dir`. */
const shapeFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === "shape.ts")
    .map((e) => join(e.parentPath, e.name));

/** The field names, enum names and tags a shape holds: the segments a real pointer into it has. */
const names = (shape: VersionShape): string[] => {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "fields" || key === "root" || key === "types" || key === "variants") for (const name of Object.keys(value as object)) found.add(name);
      if (key === "tag" && typeof value === "string") found.add(value);
      walk(value);
    }
  };
  walk(shape);
  return [...found];
};

const files = [...shapeFiles(join(ROOT, "generated")), ...shapeFiles(join(ROOT, "test/fixtures"))];

describe("maskPointer", () => {
  it("reads every generated shape", () => expect(files.length).toBeGreaterThan(20));

  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))("prints what the general walk prints: %s", async (_, file) => {
    const module = (await import(file)) as Record<string, unknown>;
    const shape = Object.values(module).find((v): v is VersionShape => typeof v === "object" && v !== null && "root" in v)!;
    expect(shape).toBeDefined();
    const segment = fc.oneof(fc.constantFrom(...names(shape), "0", "1", "2", "10", "01", "-1", ""), fc.string({ maxLength: 4 }));
    const pointer = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.map((p) => `/${escapePointer(p)}`).join(""));
    fc.assert(
      fc.property(pointer, (p) => {
        expect(maskPointer(p, shape)).toBe(maskPointerByLocate(p, shape));
      }),
      { numRuns: 300 },
    );
  });
});

/** Every version directory (its shape.ts beside validator.ts) and the base payload its contract's cases file gives it. */
const versionDirs = files
  .map((file) => ({ dir: dirname(file), cases: join(dirname(dirname(file)), `${basename(dirname(dirname(file)))}.cases.json`) }))
  .filter(({ dir, cases }) => existsSync(join(dir, "validator.ts")) && existsSync(cases))
  .map(({ dir, cases }) => {
    const file = JSON.parse(readFileSync(cases, "utf8")) as { versions: string[]; bases: Record<string, { value?: unknown }> };
    const version = basename(dir).slice(1).replace("_", ".");
    return { dir, base: file.bases[version]?.value };
  })
  .filter((v): v is { dir: string; base: Record<string, unknown> } => typeof v.base === "object" && v.base !== null && !Array.isArray(v.base));

/** `base` with values replaced and unknown keys added at random places (objects and lists), as a producer gets it wrong. */
const spoiled = (base: Record<string, unknown>) =>
  fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom("extra", "__proto__", "a/b", "~x", "0"), fc.string({ maxLength: 3 })), fc.jsonValue({ maxDepth: 1 }), fc.boolean()), { maxLength: 5 }).map((edits) => {
    const copy = structuredClone(base);
    const containers: Record<string, unknown>[] = [];
    const collect = (value: unknown): void => {
      if (typeof value !== "object" || value === null) return;
      containers.push(value as Record<string, unknown>);
      for (const child of Object.values(value)) collect(child);
    };
    collect(copy);
    for (const [at, key, value, replace] of edits) {
      const target = containers[at % containers.length]!;
      const keys = Object.keys(target);
      if (replace && keys.length > 0) target[keys[at % keys.length]!] = value;
      else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  });

describe("maskIssuePath", () => {
  it("has versions with bases to spoil", () => expect(versionDirs.length).toBeGreaterThan(20));

  it.each(versionDirs.map((v) => [v.dir.slice(ROOT.length + 1), v] as const))("masks each issue a validator reports as maskPointer does: %s", async (_, { dir, base }) => {
    const shapeModule = (await import(join(dir, "shape.ts"))) as Record<string, unknown>;
    const shape = Object.values(shapeModule).find((v): v is VersionShape => typeof v === "object" && v !== null && "root" in v)!;
    const { errors } = (await import(join(dir, "validator.ts"))) as { errors: (value: unknown) => Issue[] };
    fc.assert(
      fc.property(spoiled(base), (value) => {
        for (const issue of errors(value)) expect(maskIssuePath(issue, shape)).toBe(maskPointer(issue.path, shape));
      }),
      { numRuns: 100 },
    );
  });
});
