// The first half of `load`: the contract files' texts, without parsing them (and without loading
// the YAML parser), which is all a run that finds nothing changed needs.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { createDiagnostic, type StageResult } from "../diagnostics/diagnostic.js";

/** A contract file's text, before parsing. */
export interface RawSource {
  /** Relative to the project root, `/`-separated: what diagnostics and generated headers print. */
  readonly path: string;
  readonly text: string;
}

const isContractFile = (name: string): boolean => name.endsWith(".yaml") || name.endsWith(".yml");

const listContractFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && isContractFile(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));

/** Reads every `*.yaml` under `idlDir`, in a stable order. */
export const readSources = (root: string, idlDir: string): StageResult<RawSource[]> => {
  const display = (path: string): string => relative(root, path).split(sep).join("/");
  let paths: string[];
  try {
    paths = listContractFiles(idlDir).sort();
  } catch (error) {
    const detail = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such directory" : String(error);
    return { value: [], diagnostics: [createDiagnostic("read-failed", undefined, { what: display(idlDir) || ".", detail })] };
  }
  if (paths.length === 0) {
    return { value: [], diagnostics: [createDiagnostic("no-contracts", undefined, { dir: display(idlDir) || "." })] };
  }
  return { value: paths.map((path) => ({ path: display(path), text: readFileSync(path, "utf8") })), diagnostics: [] };
};
