import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createDiagnostic, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { CONTRACT_NAME, CONTRACT_NAME_RULE, RESERVED_CONTRACT_NAMES } from "../../ir/names.js";
import { IDL_LIMITS } from "../../resolve/limits.js";
import { readFailed, sourceText, unreadable } from "../../load/read-sources.js";
import { makeDirs } from "../../write/write.js";
import { fromCwd, plural, printDiagnostics, readConfig, stringOption, type Command } from "../command.js";

/** The editor schema a producer repo has (treaty installed), or this repository's own, relative to `dir`. */
const editorSchemaFrom = (root: string, dir: string): string | undefined => {
  for (const candidate of [join(root, "node_modules/treaty/idl/idl.schema.json"), join(root, "idl/idl.schema.json")]) {
    if (existsSync(candidate)) return relative(dir, candidate).split(sep).join("/");
  }
  return undefined;
};

/**
 * What is wrong with `--contract <name>`, which `check` must take as a contract's name (it also names
 * the file written): a usage mistake, reported with the others before anything is read.
 */
const contractNameError = (name: string): Diagnostic | undefined => {
  if (!CONTRACT_NAME.test(name)) return createDiagnostic("invalid-name", undefined, { what: "--contract", name, rule: CONTRACT_NAME_RULE });
  if (RESERVED_CONTRACT_NAMES.has(name)) return createDiagnostic("reserved-name", undefined, { what: "contract", name, output: `directory ${name}/`, why: RESERVED_CONTRACT_NAMES.get(name)! });
  if (name.length > IDL_LIMITS.nameLength) return createDiagnostic("limit-exceeded", undefined, { what: "the --contract name's length", actual: `${name.length} characters`, max: `${IDL_LIMITS.nameLength}` });
  return undefined;
};

export const importCommand: Command = {
  name: "import",
  usage: `  treaty import <schema.json|openapi.yaml> [--defs <A,B,...>] [--contract <name>] [--out <dir>]
      Write contracts from a JSON Schema (draft-07 or 2020-12) or an OpenAPI 3.0/3.1
      document's components.schemas: the document's root as one contract, or each definition
      named by --defs (default, for a document without a root: every object definition) as a
      contract of its own, with the types it reaches. --contract names the contract (one) or
      the prefix of their names (several); default: <the --out directory's name>.<the source
      file's name> for a root, <the --out directory's name>.<the definition's name> for each
      definition. --out defaults to <idl>/<the first word of the source file's name>. What the
      IDL cannot express is reported with its JSON pointer and left out, always so that the
      contract accepts more rather than less. Never overwrites a file; writes nothing on an
      error.`,
  options: { defs: { type: "string" }, contract: { type: "string", validate: contractNameError }, out: { type: "string" } },
  positionals: { min: 1, max: 1 },
  run: async (args, io) => {
    const contract = stringOption(args, "contract");
    // The project's contracts directory; this command's --out is where the imported files go.
    const config = readConfig({ values: {}, positionals: [] }, io);
    if (!config) return 1;
    const file = resolve(io.cwd, args.positionals[0]!);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      printDiagnostics(io, [readFailed(args.positionals[0]!, unreadable(error))]);
      return 1;
    }
    // Decoded as contract files are: not UTF-8 is an error at its first bad byte, never U+FFFD in a description.
    const text = sourceText(bytes);
    if (typeof text !== "string") {
      printDiagnostics(io, [readFailed(args.positionals[0]!, text)]);
      return 1;
    }
    const stem = file.split(sep).at(-1)!.replace(/\.(json|ya?ml)$/i, "").split(/[^A-Za-z0-9]+/)[0]!.toLowerCase() || "imported";
    const out = stringOption(args, "out");
    const outDir = out === undefined ? join(config.idlDir, stem) : resolve(io.cwd, out);
    const defs = stringOption(args, "defs")?.split(",").map((d) => d.trim()).filter((d) => d !== "");
    const { importSchema } = await import("../../import/import.js");
    const imported = importSchema({
      root: config.root,
      file,
      text,
      outDir,
      ...(defs && { defs }),
      ...(contract !== undefined && { contract }),
      ...(editorSchemaFrom(config.root, outDir) !== undefined && { schemaPath: editorSchemaFrom(config.root, outDir)! }),
    });
    printDiagnostics(io, imported.diagnostics, config.root);
    if (imported.value.length === 0) return 1;
    // Every file written beside its final name first, then all renamed: an error leaves nothing
    // (the files renamed into place are new, none existing before, so removing them is the undo).
    const written: string[] = [];
    try {
      for (const f of imported.value) {
        makeDirs(dirname(f.path));
        const temp = `${f.path}.treaty-tmp`;
        writeFileSync(temp, f.text);
        written.push(temp);
      }
      for (const f of imported.value) {
        renameSync(`${f.path}.treaty-tmp`, f.path);
        written.push(f.path);
      }
    } catch (error) {
      for (const path of written) rmSync(path, { force: true });
      printDiagnostics(io, [createDiagnostic("write-failed", undefined, { what: fromCwd(io, config.root, outDir), detail: (error as Error).message })]);
      return 1;
    }
    const warnings = imported.diagnostics.length;
    io.stderr(`treaty: imported ${plural(imported.value.length, "contract")} into ${fromCwd(io, config.root, outDir)}${warnings ? ` (${plural(warnings, "construct")} not expressed; see above)` : ""}\n`);
    return 0;
  },
};
