// maskPointer's fast walk (one position at a time, what every failure pays per issue) prints what
// the general walk prints, on every version shape of this repository's contracts and fixtures and
// on pointers made of their own field names, indexes and keys no shape names.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskPointer, maskPointerByLocate } from "../../src/runtime/reask.js";
import { escapePointer, type VersionShape } from "../../src/runtime/index.js";

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
