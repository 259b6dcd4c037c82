// A YAML alias in a value (an example, a default) stands for the value its anchor names, as in
// any YAML reader; before, treaty read it as `{ source: "<anchor>" }` and generated tests from that.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";

const scratch = mkdtempSync(join(tmpdir(), "treaty-aliases-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("an alias in an example or a default is the anchored value", () => {
  mkdirSync(join(scratch, "idl"));
  writeFileSync(
    join(scratch, "idl", "demo.alias.yaml"),
    [
      "contract: demo.alias",
      "owner: team",
      "versions:",
      '  "1.0":',
      "    fields:",
      "      tags: { type: list, of: { type: string, maxLength: 8 }, maxItems: 4, optional: true, default: &tags [a, b] }",
      "examples:",
      '  - { version: "1.0", valid: { contract: demo.alias, version: "1.0", tags: *tags } }',
      "",
    ].join("\n"),
  );
  const { value, diagnostics } = compile({ root: scratch, idlDir: join(scratch, "idl") });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const version = value!.contracts[0]!.versions[0]!;
  expect(version.fields.find((f) => f.name === "tags")!.default).toEqual(["a", "b"]);
  expect(version.examples[0]!.value).toEqual({ contract: "demo.alias", version: "1.0", tags: ["a", "b"] });
});
