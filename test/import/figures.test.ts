// `treaty import` on whole published schemas (MCP 2026-07-28, 2025-11-25 and 2025-06-18, A2A v0.3.0,
// Apicurio Registry's OpenAPI description): how many definitions become contracts, how many
// exactly, what the rest report; and, for every contract, values generated from its emitted
// schema and mutated around it get Ajv's verdict on the source (exact contracts), or pass wherever
// Ajv passes them (contracts imported with a diagnostic, which accept more by design). The lower
// bounds make a regression of the importer fail; the figures are printed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryFor, mutated } from "../support/arbitrary.js";
import { diagnosticKinds, holdsProtoKey, importPublished, SOURCES, type PublishedSource } from "../support/imported-source.js";
import { strictTypeErrors, tsFiles } from "../support/strict-typecheck.js";

/** Values tried per contract. */
const RUNS = 60;

interface Expected {
  readonly source: PublishedSource;
  /** Lower bounds: contracts, exact ones. */
  readonly contracts: number;
  readonly exact: number;
  /** Upper bound on the diagnostics left. */
  readonly diagnostics: number;
}

const EXPECTED: readonly Expected[] = [
  // The diagnostics include `import-provider-left-out` for each definition whose Anthropic tool
  // would cross a request budget alone (more than 24 optional parameters, 16 of a union type).
  { source: SOURCES.mcp, contracts: 131, exact: 86, diagnostics: 23 },
  { source: SOURCES.mcpPrevious, contracts: 123, exact: 111, diagnostics: 14 },
  { source: SOURCES.mcp2025June, contracts: 76, exact: 70, diagnostics: 7 },
  { source: SOURCES.a2a, contracts: 77, exact: 63, diagnostics: 8 },
  { source: SOURCES.a2aLater, contracts: 81, exact: 65, diagnostics: 10 },
  { source: SOURCES.registry, contracts: 89, exact: 87, diagnostics: 3 },
  { source: SOURCES.ccompat, contracts: 17, exact: 17, diagnostics: 0 },
];

describe("whole published schemas", () => {
  for (const expected of EXPECTED) {
    it(`${expected.source.name}: contracts, exact ones, what the rest report; every contract agrees with Ajv on generated and mutated values`, async () => {
      const imported = await importPublished(expected.source);
      const exact = imported.files.filter((f) => f.exact);
      const kinds = diagnosticKinds(imported.diagnostics);
      const counts = { exact: { values: 0, rejected: 0 }, widened: { values: 0 } };
      for (const file of imported.files) {
        const check = await imported.check(file.contract);
        const referee = imported.referee(file.pointer);
        const valid = arbitraryFor(imported.emitted(file.contract));
        fc.assert(
          fc.property(fc.oneof(valid, mutated(valid)), (value) => {
            fc.pre(!holdsProtoKey(value));
            const ajv = referee(value);
            const treaty = check(value);
            if (file.exact) {
              counts.exact.values++;
              if (!ajv) counts.exact.rejected++;
              expect({ contract: file.contract, value, treaty }).toEqual({ contract: file.contract, value, treaty: ajv });
            } else {
              counts.widened.values++;
              if (ajv) expect({ contract: file.contract, value, treaty }).toEqual({ contract: file.contract, value, treaty: true });
            }
          }),
          { numRuns: RUNS },
        );
      }
      console.log(
        [
          `${expected.source.name}: ${imported.definitions.length} definitions, ${imported.files.length} contracts (one per object definition), ${exact.length} exact, ${imported.files.length - exact.length} with diagnostics`,
          ...Object.entries(kinds).map(([kind, n]) => `  ${n} × ${kind}`),
          `  values compared: ${counts.exact.values} on exact contracts (${counts.exact.rejected} rejected by both), ${counts.widened.values} on the others (accepted wherever Ajv accepts)`,
        ].join("\n"),
      );
      expect(imported.files.length).toBeGreaterThanOrEqual(expected.contracts);
      expect(exact.length).toBeGreaterThanOrEqual(expected.exact);
      expect(imported.diagnostics.length).toBeLessThanOrEqual(expected.diagnostics);
      // Only what the IDL cannot say is reported (and a provider left out): never an error, never a construct it can say.
      expect(imported.diagnostics.every((d) => d.severity === "warning" && ["import-not-expressible", "import-recursive", "import-provider-left-out"].includes(d.code))).toBe(true);
      expect(counts.exact.values).toBeGreaterThan(exact.length * RUNS * 0.9);
      // Both sides of the boundary were tried.
      expect(counts.exact.rejected).toBeGreaterThan(counts.exact.values * 0.1);
      // And the code compiles as a producer's build sees it (a2a.* did not: a name with a letter after a digit).
      expect(strictTypeErrors(tsFiles(imported.generated))).toEqual([]);
    }, 400_000);
  }
});
