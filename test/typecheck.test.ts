// Every generated TypeScript file, the generated tests included, must compile under `strict`, as a
// producer's build would see it (the code generated from whole published schemas: figures.test.ts).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { strictTypeErrors, tsFiles } from "./support/strict-typecheck.js";

const ROOT = join(import.meta.dirname, "..");

it("generated code type-checks under strict", () => {
  const roots = [join(ROOT, "generated"), ...readdirSync(join(ROOT, "test/fixtures")).filter((c) => c.startsWith("good-")).map((c) => join(ROOT, "test/fixtures", c, "expected"))];
  const files = roots.flatMap(tsFiles);
  expect(files.length).toBeGreaterThan(0);
  expect(strictTypeErrors(files)).toEqual([]);
});
