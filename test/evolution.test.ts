// Version histories under test/fixtures/evolution-*/: each pair of versions, compared in both
// directions, must give the verdicts its `# verdict a -> b: backward X, forward Y` lines state, and
// the whole report (every difference of every pair, then the diagnostics, including those of
// `--against` when a before/ tree stands for the ref) must equal verdicts.txt. UPDATE=1 rewrites it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verdictOf } from "../src/compat/compare.js";
import { versionDifferences } from "../src/compat/version-differences.js";
import { formatDiagnostic, sortDiagnostics } from "../src/diagnostics/diagnostic.js";
import { againstRef } from "../src/history/against.js";
import { load } from "../src/load/load.js";
import { compile } from "../src/pipeline.js";
import { resolve } from "../src/resolve/resolve.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const UPDATE = process.env["UPDATE"] === "1";
const VERDICT = /^# verdict (\S+) -> (\S+): backward (compatible|breaking), forward (compatible|breaking)$/gm;

const cases = readdirSync(FIXTURES).filter((c) => c.startsWith("evolution-")).sort();

describe("evolution fixtures", () => {
  it("has at least 40 cases", () => expect(cases.length).toBeGreaterThanOrEqual(40));

  for (const name of cases) {
    it(name, () => {
      const dir = join(FIXTURES, name);
      const compiled = compile({ root: dir, idlDir: join(dir, "idl") });
      const project = compiled.value!;
      expect(project, compiled.diagnostics.map(formatDiagnostic).join("\n")).toBeDefined();
      const diagnostics = [...compiled.diagnostics];
      if (existsSync(join(dir, "before"))) {
        const then = resolve(load(join(dir, "before"), join(dir, "before", "idl")).value).value;
        diagnostics.push(...againstRef(project, then, "HEAD"));
      }

      const lines: string[] = [];
      for (const contract of project.contracts) {
        const text = readFileSync(join(dir, contract.file), "utf8");
        for (const [, older, newer, backward, forward] of text.matchAll(VERDICT)) {
          const find = (v: string) => contract.versions.find((x) => x.version === v)!;
          const differences = versionDifferences(contract, find(older!), find(newer!));
          expect({ pair: `${older} -> ${newer}`, backward: verdictOf(differences, "backward"), forward: verdictOf(differences, "forward") }).toEqual({
            pair: `${older} -> ${newer}`,
            backward,
            forward,
          });
        }
        contract.versions.forEach((newer, i) => {
          for (const older of contract.versions.slice(0, i)) {
            lines.push(`${contract.name} ${older.version} -> ${newer.version}`);
            for (const d of versionDifferences(contract, older, newer)) {
              lines.push(`  ${d.kind} ${d.path || "/"} backward=${d.backward} forward=${d.forward}: ${d.reason}`);
            }
          }
        });
      }
      lines.push(...sortDiagnostics(diagnostics).map(formatDiagnostic));
      const report = `${lines.join("\n")}\n`;
      const file = join(dir, "verdicts.txt");
      if (UPDATE) writeFileSync(file, report);
      expect(report).toBe(readFileSync(file, "utf8"));
    });
  }
});
