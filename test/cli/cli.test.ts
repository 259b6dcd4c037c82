// The built CLI as a user runs it: exit codes, no stack traces, --help that matches what exists.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const treaty = (args: string[], cwd = ROOT) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });

it("--help lists every command and exits 0", () => {
  const { status, stdout } = treaty(["--help"]);
  expect(status).toBe(0);
  for (const command of ["treaty generate", "treaty check", "--check", "--idl", "--out"]) expect(stdout).toContain(command);
});

it("--version prints package.json's version", async () => {
  const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
  expect(treaty(["--version"]).stdout.trim()).toBe(version);
});

it("bad usage exits 2 with a hint, not a stack trace", () => {
  for (const args of [["generate", "--bogus"], ["frobnicate"], []]) {
    const { status, stderr, stdout } = treaty(args);
    expect(status).toBe(2);
    expect(stderr + stdout).not.toMatch(/\n\s+at /);
  }
});

it("bad contracts exit 1 with file:line:col diagnostics and no stack trace", () => {
  const { status, stderr } = treaty(["generate", "--out", "never-written"], join(ROOT, "test/fixtures/bad-unknown-type"));
  expect(status).toBe(1);
  expect(stderr).toMatch(/^idl\/demo\.thing\.yaml:\d+:\d+ - error unknown-type: /m);
  expect(stderr).not.toMatch(/\n\s+at /);
});

it("check reports the contracts' state without writing", () => {
  expect(treaty(["check"]).status).toBe(0);
  expect(treaty(["check"], join(ROOT, "test/fixtures/bad-min-above-max")).status).toBe(1);
});
