// typia runs its transformer at compile time (ts-patch or `typia generate`); tsx, which runs the
// bench, only strips types. typia 12 is the last line on the TypeScript compiler API (typia 13+
// moved to ttsc, TypeScript-Go, which needs Node 22.15; this machine runs Node 20): its
// `typia generate` writes the compiled validator once, here, and the bench imports that.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");

/** typia's `equals` for task.result 1.2, or why it cannot run here. */
export const loadTypia = async (): Promise<((v: unknown) => boolean) | string> => {
  const out = join(ROOT, "node_modules/.cache/treaty-bench/typia");
  mkdirSync(out, { recursive: true });
  const cli = join(ROOT, "node_modules/typia/lib/executable/typia.js");
  const args = [cli, "generate", "--input", join(ROOT, "bench/typia"), "--output", out, "--project", join(ROOT, "bench/typia/tsconfig.json")];
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) return `typia generate failed: ${(run.stderr || run.stdout).trim().split("\n").slice(-3).join(" ")}`;
  const module = (await import(join(out, "task-result.ts"))) as { typiaEquals: (v: unknown) => boolean };
  return module.typiaEquals;
};
