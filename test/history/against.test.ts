// `treaty check --against` and `treaty diff` in a git repo of a new user's: a compatible minor
// passes, a breaking minor and an edit of a published version fail with their locations.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";

const repo = mkdtempSync(join(tmpdir(), "treaty-history-"));
const file = join(repo, "idl", "billing", "billing.invoice.yaml");
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], { cwd: repo, encoding: "utf8" });

const PUBLISHED = `contract: billing.invoice
owner: billing-team
versions:
  "1.0":
    fields:
      invoice_id: { type: string, pattern: "^INV-[0-9]+$" }
      amount_cents: { type: int, min: 0, description: Total in cents. }
`;

beforeAll(() => {
  mkdirSync(join(repo, "idl", "billing"), { recursive: true });
  writeFileSync(file, PUBLISHED);
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "1.0");
});

const treaty = async (...args: string[]) => {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, { cwd: repo, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
};

const addVersion = (text: string) => writeFileSync(file, PUBLISHED + text);

it("passes on the published state and on a compatible new minor, with a documentation edit", async () => {
  expect((await treaty("check", "--against", "HEAD")).status).toBe(0);
  addVersion(`  "1.1":\n    changes:\n      - add: note\n        type: { type: string, maxLength: 200 }\n        optional: true\n`);
  writeFileSync(file, readFileSync(file, "utf8").replace("Total in cents.", "Total in cents with tax."));
  const { status, stderr } = await treaty("check", "--against", "HEAD");
  expect(status).toBe(0);
  expect(stderr).toContain("warning forward-incompatible: readers on 1.0 fail on 1.1 data");
  expect(stderr).not.toContain("published-version-changed");
});

it("fails on a breaking minor, where the change is written", async () => {
  addVersion(`  "1.1":\n    changes:\n      - constrain: amount_cents\n        min: 1\n`);
  const { status, stderr } = await treaty("check", "--against", "HEAD");
  expect(status).toBe(1);
  expect(stderr).toMatch(/^idl\/billing\/billing\.invoice\.yaml:10:9 - error bump-too-small: 1\.1 is a minor version .*readers on 1\.1 fail on 1\.0 data: lower bound ≥ 0 → ≥ 1;/m);
});

it("fails on an in-place edit of a published version, and prints GitHub annotations", async () => {
  writeFileSync(file, PUBLISHED.replace("min: 0", "min: 5"));
  const text = await treaty("check", "--against", "HEAD");
  expect(text.status).toBe(1);
  expect(text.stderr).toContain("idl/billing/billing.invoice.yaml:7:7 - error published-version-changed: published version 1.0 differs from HEAD: lower bound ≥ 0 → ≥ 5");
  const github = await treaty("check", "--against", "HEAD", "--format", "github");
  expect(github.status).toBe(1);
  expect(github.stdout).toContain("::error file=idl/billing/billing.invoice.yaml,line=7,col=7,title=treaty published-version-changed::published version 1.0 differs from HEAD");
  const json = JSON.parse((await treaty("check", "--against", "HEAD", "--format", "json")).stdout) as { errors: number; diagnostics: { code: string }[] };
  expect(json.errors).toBe(1);
  expect(json.diagnostics.map((d) => d.code)).toEqual(["published-version-changed"]);
});

it("fails when a published version vanishes, and on a ref that does not exist", async () => {
  git("stash", "-u", "-q");
  addVersion(`  "1.1":\n    changes:\n      - add: note\n        type: { type: string, maxLength: 200 }\n        optional: true\n`);
  git("commit", "-qam", "1.1");
  writeFileSync(file, PUBLISHED);
  expect((await treaty("check", "--against", "HEAD")).stderr).toContain("error published-version-removed: version 1.1 of 'billing.invoice' is published at HEAD but no longer defined");
  const missing = await treaty("check", "--against", "no-such-ref");
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain("error read-failed: cannot read git ref 'no-such-ref'");
  expect(missing.stderr).not.toMatch(/\n\s+at /);
});

it("diff prints a reviewer's summary: new versions, verdicts, the bump needed", async () => {
  addVersion(`  "1.1":\n    changes:\n      - add: note\n        type: { type: string, maxLength: 200 }\n        optional: true\n  "1.2":\n    changes:\n      - relax: amount_cents\n`);
  const { status, stdout } = await treaty("diff", "--against", "HEAD");
  expect(status).toBe(0);
  expect(stdout).toContain("## Contract changes since `HEAD`");
  expect(stdout).toContain("#### 1.2 (new)");
  expect(stdout).toContain("Against 1.1: needs a **minor** bump; declared as minor.");
  expect(stdout).toMatch(/\| field "amount_cents" became optional.* \| `\/amount_cents` \| ✅ compatible \| ❌ breaking \|/);
  expect(stdout).not.toContain("#### 1.1");
  expect((await treaty("diff")).status).toBe(2);
});

it("reports a forward break once, against the ref it is new to, and not on later runs", async () => {
  // HEAD holds 1.0 and the 1.1 that adds `note` (committed above); HEAD~1 holds 1.0 only.
  const note = `  "1.1":\n    changes:\n      - add: note\n        type: { type: string, maxLength: 200 }\n        optional: true\n`;
  addVersion(note);
  const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.includes(" - warning "));
  const plain = await treaty("check");
  expect(plain.status).toBe(0);
  expect(warnings(plain.stderr)).toEqual([]);
  expect(warnings((await treaty("check", "--against", "HEAD")).stderr)).toEqual([]);
  expect(warnings((await treaty("check", "--against", "HEAD~1")).stderr)).toEqual([
    'idl/billing/billing.invoice.yaml:10:9 - warning forward-incompatible: readers on 1.0 fail on 1.1 data: optional field "note" added; readers of the old version reject unknown keys (compatibility: backward does not promise this direction)',
  ]);
  addVersion(`${note}  "1.2":\n    changes:\n      - add: memo\n        type: { type: string, maxLength: 200 }\n        optional: true\n`);
  const next = await treaty("check", "--against", "HEAD");
  expect(next.status).toBe(0);
  expect(warnings(next.stderr)).toEqual([
    'idl/billing/billing.invoice.yaml:15:9 - warning forward-incompatible: readers on 1.0 and 1.1 fail on 1.2 data: optional field "memo" added; readers of the old version reject unknown keys (compatibility: backward does not promise this direction)',
  ]);
});

it("under compatibility: forward, a forward break is an error and a backward break of a new version a warning", async () => {
  writeFileSync(file, PUBLISHED.replace("owner: billing-team", "owner: billing-team\ncompatibility: forward") + `  "1.1":\n    changes:\n      - constrain: amount_cents\n        min: 1\n      - add: note\n        type: { type: string, maxLength: 200 }\n        optional: true\n`);
  const { status, stderr } = await treaty("check", "--against", "HEAD~1");
  expect(status).toBe(1);
  expect(stderr).toMatch(/^idl\/billing\/billing\.invoice\.yaml:11:9 - warning backward-incompatible: readers on 1\.1 fail on 1\.0 data: lower bound ≥ 0 → ≥ 1 /m);
  expect(stderr).toMatch(/^idl\/billing\/billing\.invoice\.yaml:13:9 - error bump-too-small: .*promises forward compatibility, but readers on 1\.0 fail on 1\.1 data: optional field "note" added/m);
});

it("reads a file at the ref as in the working tree: a byte-order mark is no column, bytes that are not UTF-8 are read-failed", async () => {
  writeFileSync(file, `\uFEFF${PUBLISHED}`);
  git("commit", "-qam", "with a byte-order mark");
  writeFileSync(file, `\uFEFF${PUBLISHED.replace("min: 0", "min: 5")}`);
  expect((await treaty("check", "--against", "HEAD")).stderr).toContain("idl/billing/billing.invoice.yaml:7:7 - error published-version-changed");
  const latin1 = Buffer.from(PUBLISHED.replace("billing-team", "facturaci\u00f3n"), "latin1");
  writeFileSync(file, latin1);
  git("commit", "-qam", "latin-1");
  writeFileSync(file, PUBLISHED);
  const { status, stderr } = await treaty("check", "--against", "HEAD");
  expect(status).toBe(1);
  expect(stderr).toContain("idl/billing/billing.invoice.yaml:2:17 - error read-failed: cannot read idl/billing/billing.invoice.yaml at 'HEAD': not UTF-8 text (save the file as UTF-8)");
  expect(stderr).not.toMatch(/\n\s+at /);
});
