// An edit of a contract's own `unknown_fields` changes every object that follows it: `check
// --against` reports it once, at the edit, not once per object at each object's field.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";

const repo = mkdtempSync(join(tmpdir(), "treaty-policy-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], { cwd: repo, encoding: "utf8" });

const published = (policy: string) => `contract: demo.policy
owner: demo-team
${policy}versions:
  "1.0":
    fields:
      id: { type: string, maxLength: 10 }
      inner:
        type: object
        fields:
          x: int
      other: { type: object, fields: { y: int } }
`;

it("reports an edit of the contract's unknown_fields once, at the edit", async () => {
  mkdirSync(join(repo, "idl"), { recursive: true });
  const file = join(repo, "idl", "demo.policy.yaml");
  writeFileSync(file, published(""));
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "1.0");
  writeFileSync(file, published("unknown_fields: strip\n"));
  let stderr = "";
  const status = await runCli(["check", "--against", "main"], { cwd: repo, stdout: () => {}, stderr: (t) => (stderr += t) });
  expect(status).toBe(1);
  expect(stderr.split("\n").filter((line) => line.includes("published-version-changed"))).toEqual([
    expect.stringMatching(/^idl\/demo\.policy\.yaml:3:17 - error published-version-changed: published version 1\.0 differs from main: unknown keys: rejected → ignored/),
  ]);
});
