// Golden tests of `treaty diff` over test/fixtures/diff-*/: ref/ is committed as the ref, then the
// case's idl/ replaces it in the working tree; the Markdown and JSON summaries must equal
// summary.md and summary.json (UPDATE=1 rewrites them), and check --against must locate each
// change where diff does, and see the projection changes diff lists in its ledgers.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import type { DiffReport } from "../../src/history/review.js";
import type { ContractProjections } from "../../src/project/report.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const UPDATE = process.env["UPDATE"] === "1";
const scratch = mkdtempSync(join(tmpdir(), "treaty-diff-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const treaty = async (cwd: string, ...args: string[]) => {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
};

/** A git repo whose HEAD holds the case's ref/ and whose working tree holds its idl/. */
const repoFor = (name: string): string => {
  const repo = mkdtempSync(join(scratch, `${name}-`));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], { cwd: repo, stdio: "pipe" });
  cpSync(join(FIXTURES, name, "ref"), repo, { recursive: true });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "ref");
  rmSync(join(repo, "idl"), { recursive: true });
  cpSync(join(FIXTURES, name, "idl"), join(repo, "idl"), { recursive: true });
  return repo;
};

const golden = (file: string, actual: string) => {
  if (UPDATE) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
};

const cases = readdirSync(FIXTURES).filter((c) => c.startsWith("diff-")).sort();

describe("treaty diff", () => {
  it("has cases", () => expect(cases.length).toBeGreaterThanOrEqual(3));

  for (const name of cases) {
    it(`${name}: Markdown and JSON summaries, exit status, locations shared with check`, async () => {
      const repo = repoFor(name);
      const markdown = await treaty(repo, "diff", "--against", "HEAD");
      golden(join(FIXTURES, name, "summary.md"), markdown.stdout);
      const json = await treaty(repo, "diff", "--against", "HEAD", "--format", "json");
      golden(join(FIXTURES, name, "summary.json"), json.stdout);
      const report = JSON.parse(json.stdout) as DiffReport;
      // Exit 1 exactly when a finding is an error, unless --exit-zero.
      expect([markdown.status, json.status]).toEqual(report.errors > 0 ? [1, 1] : [0, 0]);
      expect((await treaty(repo, "diff", "--against", "HEAD", "--exit-zero")).status).toBe(0);

      // Every compatibility finding of check --against is located where diff lists the change.
      const checked = JSON.parse((await treaty(repo, "check", "--against", "HEAD", "--format", "json")).stdout) as DiffReport["contracts"][number];
      const where = (loc: { file: string; line: number; col: number } | undefined) => (loc ? `${loc.file}:${loc.line}:${loc.col}` : "");
      const listed = new Set(report.contracts.flatMap((c) => c.versions.flatMap((v) => v.changes.map((change) => where(change.loc)))));
      const located = checked.diagnostics.filter((d) => ["bump-too-small", "published-version-changed", "forward-incompatible", "backward-incompatible"].includes(d.code));
      expect(located.map((d) => where(d.loc)).filter((loc) => !listed.has(loc))).toEqual([]);
      // Projection changes are between the ledgers check reports for the new version and its base.
      // (check leaves them out when an error stops it.)
      const projections = (checked as unknown as { projections?: ContractProjections[] }).projections ?? [];
      expect(projections.length === 0).toBe(report.errors > 0);
      const ledger = (contract: string, version: string, provider: string) => {
        const p = projections.find((c) => c.contract === contract)!.versions.find((v) => v.version === version)!.providers.find((q) => q.provider === provider)!;
        return p.status === "projected" ? p.ledger : [];
      };
      for (const c of projections.length > 0 ? report.contracts : []) {
        for (const v of c.versions.filter((v) => v.projections)) {
          for (const p of v.projections!) {
            for (const e of p.added) expect(ledger(c.contract, v.version, p.provider)).toContainEqual(e);
            for (const e of p.removed) expect(ledger(c.contract, v.base!, p.provider)).toContainEqual(e);
          }
        }
      }
      // And the summary carries the same findings check prints.
      expect(report.contracts.flatMap((c) => c.diagnostics).map((d) => `${d.code} ${where(d.loc)}`).sort()).toEqual(
        checked.diagnostics.filter((d) => report.contracts.some((c) => [c.file, `HEAD:${c.file}`].includes(d.loc?.file ?? ""))).map((d) => `${d.code} ${where(d.loc)}`).sort(),
      );
    });
  }

  it("refuses an unknown --format with the formats it knows", async () => {
    const { status, stderr } = await treaty(repoFor(cases[0]!), "diff", "--against", "HEAD", "--format", "github");
    expect(status).toBe(2);
    expect(stderr).toContain("markdown, json");
  });

  it("with --format json, a broken config, a contract that does not compile and a ref that does not resolve are JSON on stdout, never text", async () => {
    const repo = repoFor(cases[0]!);
    const json = async (...args: string[]) => {
      const run = await treaty(repo, "diff", "--against", "HEAD", "--format", "json", ...args);
      expect([run.status, run.stderr]).toEqual([1, ""]);
      return JSON.parse(run.stdout) as { errors: number; diagnostics: { code: string; loc?: { file: string; line: number } }[] };
    };
    writeFileSync(join(repo, "treaty.config.json"), '{ "idl": 3 }\n');
    expect((await json()).diagnostics).toMatchObject([{ code: "invalid-value", loc: { file: "treaty.config.json", line: 1 } }]);
    rmSync(join(repo, "treaty.config.json"));
    const contract = join(repo, "idl", readdirSync(join(repo, "idl"), { recursive: true }).map(String).find((f) => f.endsWith(".yaml"))!);
    const text = readFileSync(contract, "utf8");
    writeFileSync(contract, `${text}\nunknown_key: 1\n`);
    expect((await json()).errors).toBeGreaterThan(0);
    writeFileSync(contract, text);
    const run = await treaty(repo, "diff", "--against", "no-such-ref", "--format", "json");
    expect([run.status, run.stderr]).toEqual([1, ""]);
    expect(JSON.parse(run.stdout).errors).toBe(1);
  });
});
