// The built CLI as a user runs it: exit codes, no stack traces, --help that matches what exists.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const treaty = (args: string[], cwd = ROOT) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });

it("--help lists every command and exits 0", () => {
  const { status, stdout } = treaty(["--help"]);
  expect(status).toBe(0);
  for (const command of ["treaty generate", "treaty check", "--check", "--idl", "--out"]) expect(stdout).toContain(command);
});

it("help <command> prints that command's usage, as <command> --help does; help alone, all of them; a name that is no command is a usage error", async () => {
  const { COMMANDS } = await import("../../src/cli/commands/index.js");
  const run = async (args: string[]) => {
    let stdout = "";
    let stderr = "";
    const status = await runCli(args, { cwd: ROOT, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { status, stdout, stderr };
  };
  for (const { name, usage } of COMMANDS) {
    const own = await run([name, "--help"]);
    expect(own).toEqual({ status: 0, stdout: `Usage:\n${usage}\n`, stderr: "" });
    expect(await run(["help", name])).toEqual(own);
    expect(await run(["--help", name])).toEqual(own);
  }
  const all = await run(["help"]);
  expect(all.status).toBe(0);
  for (const { usage } of COMMANDS) expect(all.stdout).toContain(usage);
  expect(await run(["--help"])).toEqual(all);
  expect(await run(["help", "chek"])).toEqual({
    status: 2,
    stdout: "",
    stderr: "treaty: error unknown-command: unknown command 'chek' (did you mean 'check'?); the commands are init, generate, check, diff, compat, import\nRun 'treaty --help' for usage.\n",
  });
  expect(await run(["help", "check", "diff"])).toMatchObject({ status: 2, stdout: "", stderr: expect.stringMatching(/^treaty: error argument-count: /) });
});

it("--version prints package.json's version", async () => {
  const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
  expect(treaty(["--version"]).stdout.trim()).toBe(version);
});

/** treaty with its stdout (or stderr) read by nobody: the pipe's reading end closed before it writes, as `| head -0` leaves it. */
const treatyToClosedPipe = (args: string[], closed: "stdout" | "stderr", cwd = ROOT) =>
  new Promise<{ status: number | null; output: string }>((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child[closed].destroy();
    let output = "";
    child[closed === "stdout" ? "stderr" : "stdout"].on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (status) => done({ status, output }));
  });

it("a reader that closes the pipe early ends treaty quietly, with the status of its work (EPIPE was a stack trace, exit 1)", async () => {
  expect(await treatyToClosedPipe(["--help"], "stdout")).toEqual({ status: 0, output: "" });
  expect(await treatyToClosedPipe(["--version"], "stdout")).toEqual({ status: 0, output: "" });
  expect(await treatyToClosedPipe(["check", "--format", "json"], "stdout")).toEqual({ status: 0, output: "" });
  expect(await treatyToClosedPipe(["check", "--format", "json"], "stdout", join(ROOT, "test/fixtures/bad-min-above-max"))).toEqual({ status: 1, output: "" });
  // Diagnostics and summaries go to stderr.
  expect(await treatyToClosedPipe(["check"], "stderr")).toEqual({ status: 0, output: "" });
  expect(await treatyToClosedPipe(["check"], "stderr", join(ROOT, "test/fixtures/bad-min-above-max"))).toEqual({ status: 1, output: "" });
});

it("bad usage exits 2 with a hint, not a stack trace", () => {
  for (const args of [["generate", "--bogus"], ["frobnicate"], []]) {
    const { status, stderr, stdout } = treaty(args);
    expect(status).toBe(2);
    expect(stderr + stdout).not.toMatch(/\n\s+at /);
  }
});

it("each usage mistake is a coded error with what was meant, exit 2, before anything runs", async () => {
  /** Each stderr line's code and its did-you-mean, if it has one (in process: the parsing is the same). */
  const usage = async (args: string[]) => {
    let stdout = "";
    let stderr = "";
    const status = await runCli(args, { cwd: ROOT, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    expect(stdout).toBe("");
    expect(stderr).not.toMatch(/parseArgs|To specify a positional|\n\s+at /);
    const found = [...stderr.matchAll(/^treaty: error ([a-z-]+): .*?(?:did you mean '([^']+)'\?)?[^']*$/gm)].map(([, code, meant]) => (meant ? `${code} ${meant}` : code));
    return { status, found, stderr };
  };
  const cases: [string[], string[]][] = [
    [[], ["missing-command"]],
    [["generat"], ["unknown-command generate"]],
    [["frobnicate"], ["unknown-command"]],
    [["--idl", "idl", "check"], ["unknown-flag"]],
    [["check", "--formt", "json"], ["unknown-flag --format"]],
    [["generate", "--chek"], ["unknown-flag --check"]],
    [["diff", "--against", "HEAD", "--idll", "idl"], ["unknown-flag --idl"]],
    [["check", "-x"], ["unknown-flag"]],
    [["check", "--format"], ["flag-needs-value"]],
    [["check", "--format", "--idl", "idl"], ["flag-needs-value"]],
    // Empty: `--idl=` read the whole project directory (node_modules included), `--defs ""` imported nothing and said nothing.
    [["check", "--idl="], ["flag-needs-value"]],
    [["check", "--format="], ["flag-needs-value"]],
    [["import", "s.json", "--contract", "a.b", "--defs", ""], ["flag-needs-value"]],
    [["check", "--against", ""], ["flag-needs-value"]],
    [["generate", "--check=yes"], ["flag-takes-no-value"]],
    [["check", "--idl", "a", "--idl", "b"], ["flag-repeated"]],
    [["check", "json"], ["argument-count"]],
    [["compat", "old.json"], ["argument-count"]],
    [["check", "--formt", "json", "--against"], ["unknown-flag --format", "flag-needs-value"]],
    [["check", "--format", "jsno"], ["flag-value-not-allowed json"]],
    [["check", "--format=-x"], ["flag-value-not-allowed"]],
    [["diff", "--against", "HEAD", "--format", "github"], ["flag-value-not-allowed"]],
    [["compat", "a.json", "b.json", "--format=markdown"], ["flag-value-not-allowed"]],
    [["diff"], ["flag-required"]],
    [["diff", "--format", "json"], ["flag-required"]],
    [["generate", "--check", "--watch"], ["flags-conflict"]],
    // A value the flag cannot take is a usage mistake among the others, not one found after them.
    [["import", "s.json", "--contract", "Bad"], ["invalid-name"]],
    [["import", "s.json", "--contract", "Bad", "--formt"], ["invalid-name", "unknown-flag"]],
  ];
  for (const [args, codes] of cases) {
    const { status, found } = await usage(args);
    expect({ args, status, found }).toEqual({ args, status: 2, found: codes });
  }
  // The valid flags are listed, from the command's own table.
  const { stderr } = await usage(["check", "--formt", "json"]);
  expect(stderr).toContain("check takes --against, --format, --projections, --idl, --help");
  expect(stderr).toContain("Run 'treaty check --help' for usage.");
  expect((await usage(["import", "s.json", "--contract", "Bad"])).stderr).toContain("Run 'treaty import --help' for usage.");
  expect((await usage(["generat"])).stderr).toContain("init, generate, check, diff, compat");
  // A flag's allowed values are listed from its declaration.
  expect((await usage(["diff", "--against", "HEAD", "--format", "github"])).stderr).toContain("--format does not take 'github'; it takes markdown, json");
  expect((await usage(["diff"])).stderr).toContain("diff needs --against");
  // A value that starts with '-' is given with '='.
  expect((await usage(["check", "--idl=-nowhere"])).stderr).toContain("error read-failed");
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
