// Projects in the OS temp directory for tests that run the CLI in-process, removed after the file's tests.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run-cli.js";
import { trackTemp } from "./temps.js";

/** A new directory named `treaty-<name>-…` holding `files` (path → text). */
export const tempProject = (name: string, files: Record<string, string> = {}): string => {
  const root = trackTemp(mkdtempSync(join(tmpdir(), `treaty-${name}-`)));
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
