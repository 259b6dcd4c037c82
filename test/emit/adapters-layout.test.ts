// adapters.ts's table of every version's adapters is emitted with its layout in prettier's format
// where that is certain (emitAdapters' laidOut), so a run need not format it: the layout must be
// prettier's, whatever the names and however many versions the chains cross.
import { format } from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { adapt } from "../../src/adapt/adapt.js";
import { emitAdapters } from "../../src/emit/adapters.js";
import { createFormatCache } from "../../src/format/format-cache.js";
import { createFormatPool } from "../../src/format/format-pool.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { compile } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

/** A contract of `versions` versions, each adding an optional field. */
const contract = (name: string, versions: number): string => {
  const lines = [`contract: ${name}`, "owner: tests", "versions:", '  "1.0":', "    fields:", "      a: string"];
  for (let v = 1; v < versions; v++) lines.push(`  "1.${v}":`, "    changes:", `      - add: f${v}`, "        type: string", "        optional: true");
  return `${lines.join("\n")}\n`;
};

const pool = createFormatPool(createFormatCache(undefined, { readOnly: false }));
afterAll(() => pool.close());

describe("the adapters table", () => {
  it.each([
    ["demo.short", 2, true],
    ["demo.three", 3, true],
    // Chains broken after the arrow.
    ["demo.medium_name", 5, true],
    // Heads too wide for their line: their parameters broken, the body after the arrow or below it.
    ["tool.publish_post.command", 2, true],
    ["some_fairly_long_domain.an_even_longer_contract_name", 2, true],
    ["some_fairly_long_domain.an_even_longer_contract_name_and_more_of_it", 3, true],
    ["some_fairly_long_domain.an_even_longer_contract_name", 4, true],
    // Chains too wide for their lines.
    ["some_fairly_long_domain.an_even_longer_contract_name", 6, false],
    ["demo.many", 9, false],
  ] as const)("of %s over %i versions is prettier's layout (laid out by its emitter: %s)", async (name, versions, known) => {
    const root = tempProject("adapters-layout", { [`idl/${name}.yaml`]: contract(name, versions) });
    const dirs = { root, idlDir: join(root, "idl"), outDir: join(root, "generated") };
    const project = compile(dirs).value!;
    const file = emitAdapters(adapt(project, dirs).value.contracts.get(name)!);
    expect(file.laidOut !== undefined).toBe(known);
    expect(await pool.format(file)).toBe(await format(file.contents, { ...PRETTIER_OPTIONS, parser: "babel-ts" }));
  });
});
