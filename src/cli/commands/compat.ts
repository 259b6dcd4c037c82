import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compare, verdictOf } from "../../compat/compare.js";
import { compareDefinitions, hasNoRoot, type DefinitionsReport } from "../../compat/definitions.js";
import type { Difference } from "../../compat/difference.js";
import { shapeOfJsonSchema } from "../../compat/shape-of-json-schema.js";
import { jsonSyntaxError } from "../../load/json-syntax.js";
import { createDiagnostic, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { positionAt, readFailed, sourceText, unreadable } from "../../load/read-sources.js";
import { plural, printDiagnostics, stringOption, type CliIo, type Command } from "../command.js";

const FORMATS = ["text", "json"];

/** The schema document, or undefined after printing why it cannot be had (with its place in the file). */
const load = (io: CliIo, file: string): { document: unknown } | undefined => {
  const failed = (diagnostic: Diagnostic): undefined => void printDiagnostics(io, [diagnostic]);
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(io.cwd, file));
  } catch (error) {
    return failed(readFailed(file, unreadable(error)));
  }
  const text = sourceText(bytes);
  if (typeof text !== "string") return failed(readFailed(file, text));
  const broken = jsonSyntaxError(text);
  if (broken) {
    return failed(createDiagnostic("json-syntax", { file, ...positionAt(text, broken.offset) }, { detail: broken.detail }));
  }
  return { document: JSON.parse(text) as unknown };
};

const differenceLines = (differences: readonly Difference[], indent = ""): string =>
  differences
    .map((d) => `${indent}${d.path === "" ? "(root)" : d.path}  ${d.kind}  backward: ${d.backward}  forward: ${d.forward}\n${indent}    ${d.reason}\n`)
    .join("");

const summary = (differences: readonly Difference[], tail = ""): string =>
  `BACKWARD: ${verdictOf(differences, "backward")}  FORWARD: ${verdictOf(differences, "forward")}  (${plural(differences.length, "difference")}${tail})\n`;

/** The roots of the two documents compared: the report, or the exit status after saying why not. */
const compareRoots = (io: CliIo, files: readonly [string, string], documents: readonly [unknown, unknown], format: string): number => {
  const shapes = documents.map((document, i) => {
    const imported = shapeOfJsonSchema(document);
    if (!imported.ok) printDiagnostics(io, [createDiagnostic("compat-not-comparable", undefined, { what: files[i]!, reason: imported.reason })]);
    return imported.ok ? imported.shape : undefined;
  });
  if (!shapes[0] || !shapes[1]) return 1;
  const differences = compare(shapes[0], shapes[1]);
  if (format === "json") {
    const report = { old: files[0], new: files[1], backward: verdictOf(differences, "backward"), forward: verdictOf(differences, "forward"), differences };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else io.stdout(differenceLines(differences) + summary(differences));
  return 0;
};

/** Definition by definition; the changed, added and removed ones listed, the unchanged counted. */
const reportDefinitions = (io: CliIo, files: readonly [string, string], report: DefinitionsReport, format: string): number => {
  const problems = report.problems.map(({ name, side, reason }) =>
    createDiagnostic("compat-not-comparable", undefined, { what: side ? `definition ${name} of ${side === "old" ? files[0] : files[1]}` : `definition ${name}`, reason: side ? reason : `neither ${files[0]} nor ${files[1]} defines it` }),
  );
  if (problems.length > 0) printDiagnostics(io, problems);
  const all = report.definitions.flatMap((d) => d.differences);
  if (format === "json") {
    const json = { old: files[0], new: files[1], backward: verdictOf(all, "backward"), forward: verdictOf(all, "forward"), definitions: report.definitions };
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const listed = report.definitions.filter((d) => d.status !== "unchanged");
    const text = listed.map((d) => `${d.name}  ${d.status}  backward: ${d.backward}  forward: ${d.forward}\n${d.status === "changed" ? differenceLines(d.differences, "  ") : ""}`);
    const count = (status: string) => report.definitions.filter((d) => d.status === status).length;
    const tail = ` in ${plural(report.definitions.length, "definition")}: ${count("changed")} changed, ${count("added")} added, ${count("removed")} removed`;
    io.stdout(text.join("") + summary(all, tail));
  }
  return report.problems.length > 0 ? 1 : 0;
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
      read or imported.`,
  options: { defs: { type: "string" }, format: { type: "string", choices: FORMATS } },
  positionals: { min: 2, max: 2 },
  run: async (args, io) => {
    const format = stringOption(args, "format") ?? "text";
    const files = args.positionals as unknown as readonly [string, string];
    const older = load(io, files[0]);
    const newer = load(io, files[1]);
    if (!older || !newer) return 1;
    const names = stringOption(args, "defs")
      ?.split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "");
    if (names === undefined && !(hasNoRoot(older.document) && hasNoRoot(newer.document))) return compareRoots(io, files, [older.document, newer.document], format);
    return reportDefinitions(io, files, compareDefinitions(older.document, newer.document, names), format);
  },
};
