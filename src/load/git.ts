import { execFileSync } from "node:child_process";
import { relative, sep } from "node:path";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { parseSource, type SourceFile } from "./load.js";
import { readFailed, sourceText } from "./read-sources.js";

const gitBytes = (root: string, args: readonly string[]): Buffer => execFileSync("git", ["-C", root, ...args], { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
const git = (root: string, args: readonly string[]): string => gitBytes(root, args).toString("utf8");

/**
 * The contract files under `idlDir` as they are at `ref`, read through git (no second checkout).
 * Paths are the same as `load` gives for the working tree, so versions can be matched by file.
 */
export const loadAtRef = (root: string, idlDir: string, ref: string): StageResult<SourceFile[]> => {
  const dir = relative(root, idlDir).split(sep).join("/");
  let prefix: string;
  let paths: string[];
  try {
    prefix = git(root, ["rev-parse", "--show-prefix"]).trim();
    git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    paths = git(root, ["ls-tree", "-r", "-z", "--name-only", ref, "--", dir || "."])
      .split("\0")
      .filter((p) => p.endsWith(".yaml") || p.endsWith(".yml"))
      .sort();
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? "").trim();
    const detail = stderr.split("\n")[0] || `'${ref}' is not a commit in this repository`;
    return { value: [], diagnostics: [createDiagnostic("read-failed", undefined, { what: `git ref '${ref}'`, detail })] };
  }
  const files: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const path of paths) {
    // ls-tree prints paths relative to the current directory (the root) when given a pathspec.
    const display = path;
    // Read as the working tree's files are (read-sources.ts), the diagnostics located alike.
    const text = sourceText(gitBytes(root, ["show", `${ref}:${prefix}${path}`]));
    if (typeof text !== "string") {
      diagnostics.push(readFailed(display, text, `${display} at '${ref}'`));
      continue;
    }
    const parsed = parseSource(display, text);
    files.push(parsed.value);
    diagnostics.push(...parsed.diagnostics);
  }
  return { value: files, diagnostics };
};
