// Projects in the OS temp directory for tests that run the CLI in-process, removed after the file's tests.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A new directory named `treaty-<name>-…` holding `files` (path → text). */
export const tempProject = (name: string, files: Record<string, string> = {}): string => {
  const root = mkdtempSync(join(tmpdir(), `treaty-${name}-`));
  temps.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};

/** treaty run in `cwd`, in this process: its exit status and what it printed. */
export const cli = async (args: string[], cwd: string) => {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
};
