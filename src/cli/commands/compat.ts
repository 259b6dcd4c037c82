import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compare, verdictOf } from "../../compat/compare.js";
import { compareDefinitions, hasNoRoot, type DefinitionsReport } from "../../compat/definitions.js";
import type { Difference } from "../../compat/difference.js";
import { shapeOfJsonSchema } from "../../compat/shape-of-json-schema.js";
import { jsonSyntaxDiagnostic, jsonSyntaxError } from "../../load/json-syntax.js";
import { createDiagnostic, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { readFailed, sourceText, unreadable } from "../../load/read-sources.js";
import { plural, printDiagnostics, stringOption, type CliIo, type Command } from "../command.js";

const FORMATS = ["text", "json"];

/** The schema document, or the diagnostic saying why it cannot be had (with its place in the file). */
const load = (io: CliIo, file: string): { document: unknown } | Diagnostic => {
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(io.cwd, file));
  } catch (error) {
    return readFailed(file, unreadable(error));
  }
  const text = sourceText(bytes);
  if (typeof text !== "string") return readFailed(file, text);
  const broken = jsonSyntaxError(text);
  if (broken) return jsonSyntaxDiagnostic(file, text, broken);
  return { document: JSON.parse(text) as unknown };
};

/**
 * What stops the comparison, or is left out of it: as text on stderr, beside the report; with
 * `--format json`, one JSON document on stdout (the report's `diagnostics`, or the diagnostics
 * alone when there is no report), so a reader of the output never has to parse text.
 */
const report = (io: CliIo, format: string, diagnostics: readonly Diagnostic[], json?: Record<string, unknown>, text?: string): void => {
  if (format === "json") {
    if (json) io.stdout(`${JSON.stringify(diagnostics.length > 0 ? { ...json, diagnostics } : json, null, 2)}\n`);
    else printDiagnostics(io, diagnostics, io.cwd, "json");
    return;
  }
  if (diagnostics.length > 0) printDiagnostics(io, diagnostics);
  if (text !== undefined) io.stdout(text);
};

const differenceLines = (differences: readonly Difference[], indent = ""): string =>
  differences
    .map((d) => `${indent}${d.path === "" ? "(root)" : d.path}  ${d.kind}  backward: ${d.backward}  forward: ${d.forward}\n${indent}    ${d.reason}\n`)
    .join("");

const summary = (differences: readonly Difference[], tail = ""): string =>
  `BACKWARD: ${verdictOf(differences, "backward")}  FORWARD: ${verdictOf(differences, "forward")}  (${plural(differences.length, "difference")}${tail})\n`;

/** The roots of the two documents compared: the report, or the exit status after saying why not. */
const compareRoots = (io: CliIo, files: readonly [string, string], documents: readonly [unknown, unknown], format: string): number => {
  const imported = documents.map((document) => shapeOfJsonSchema(document));
  const problems = imported.flatMap((result, i) => (result.ok ? [] : [createDiagnostic("compat-not-comparable", undefined, { what: files[i]!, reason: result.reason })]));
  if (!imported[0]!.ok || !imported[1]!.ok) {
    report(io, format, problems);
    return 1;
  }
  const differences = compare(imported[0]!.shape, imported[1]!.shape);
  const json = { old: files[0], new: files[1], backward: verdictOf(differences, "backward"), forward: verdictOf(differences, "forward"), differences };
  report(io, format, [], json, differenceLines(differences) + summary(differences));
  return 0;
};

/** Definition by definition; the changed, added and removed ones listed, the unchanged counted. */
const reportDefinitions = (io: CliIo, files: readonly [string, string], definitions: DefinitionsReport, format: string): number => {
  const problems = definitions.problems.map(({ name, side, reason }) =>
    createDiagnostic("compat-not-comparable", undefined, { what: side ? `definition ${name} of ${side === "old" ? files[0] : files[1]}` : `definition ${name}`, reason: side ? reason : `neither ${files[0]} nor ${files[1]} defines it` }),
  );
  const all = definitions.definitions.flatMap((d) => d.differences);
  const json = { old: files[0], new: files[1], backward: verdictOf(all, "backward"), forward: verdictOf(all, "forward"), definitions: definitions.definitions };
  const listed = definitions.definitions.filter((d) => d.status !== "unchanged");
  const text = listed.map((d) => `${d.name}  ${d.status}  backward: ${d.backward}  forward: ${d.forward}\n${d.status === "changed" ? differenceLines(d.differences, "  ") : ""}`);
  const count = (status: string) => definitions.definitions.filter((d) => d.status === status).length;
  const tail = ` in ${plural(definitions.definitions.length, "definition")}: ${count("changed")} changed, ${count("added")} added, ${count("removed")} removed`;
  report(io, format, problems, json, text.join("") + summary(all, tail));
  return definitions.problems.length > 0 ? 1 : 0;
};

export const compatCommand: Command = {
  name: "compat",
  usage: `  treaty compat <old.json> <new.json> [--defs <A,B,...>] [--format text|json]
      Compare two JSON Schemas (draft-07 or 2020-12). Each difference gets two verdicts:
      backward (a reader on the new schema reads data written under the old one) and forward
      (a reader on the old schema reads data written under the new one). Schemas that only
      define types ($defs or definitions, no root) are compared definition by definition,
      with definitions added and removed; --defs names the definitions to compare in any
      schema. A report: exits 0 whatever it finds, 1 when a schema or a definition cannot be
      read or imported. With --format json, that too is JSON on stdout (its diagnostics).`,
  options: { defs: { type: "string" }, format: { type: "string", choices: FORMATS } },
  positionals: { min: 2, max: 2 },
  run: async (args, io) => {
    const format = stringOption(args, "format") ?? "text";
    const files = args.positionals as unknown as readonly [string, string];
    const older = load(io, files[0]);
    const newer = load(io, files[1]);
    if (!("document" in older) || !("document" in newer)) {
      report(io, format, [older, newer].filter((loaded): loaded is Diagnostic => !("document" in loaded)));
      return 1;
    }
    const names = stringOption(args, "defs")
      ?.split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "");
    if (names === undefined && !(hasNoRoot(older.document) && hasNoRoot(newer.document))) return compareRoots(io, files, [older.document, newer.document], format);
    return reportDefinitions(io, files, compareDefinitions(older.document, newer.document, names), format);
  },
};
