import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compare, verdictOf } from "../../compat/compare.js";
import type { Difference } from "../../compat/difference.js";
import { shapeOfJsonSchema } from "../../compat/shape-of-json-schema.js";
import type { Shape } from "../../compat/shape.js";
import { plural, stringOption, type CliIo, type Command } from "../command.js";

const FORMATS = ["text", "json"];

/** The schema's shape, or undefined after saying on stderr why it cannot be had. */
const load = (io: CliIo, file: string): Shape | undefined => {
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    io.stderr(`treaty: cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}\n`);
    return undefined;
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    io.stderr(`treaty: ${file} is not JSON: ${(error as Error).message}\n`);
    return undefined;
  }
  const imported = shapeOfJsonSchema(schema);
  if (!imported.ok) io.stderr(`treaty: cannot import ${file}: ${imported.reason}\n`);
  return imported.ok ? imported.shape : undefined;
};

const textReport = (differences: readonly Difference[]): string => {
  const lines = differences.map(
    (d) => `${d.path === "" ? "(root)" : d.path}  ${d.kind}  backward: ${d.backward}  forward: ${d.forward}\n    ${d.reason}\n`,
  );
  const summary = `BACKWARD: ${verdictOf(differences, "backward")}  FORWARD: ${verdictOf(differences, "forward")}  (${plural(differences.length, "difference")})\n`;
  return lines.join("") + summary;
};

export const compatCommand: Command = {
  name: "compat",
  usage: `  treaty compat <old.json> <new.json> [--format text|json]
      Compare two JSON Schemas (draft-07 or 2020-12). Each difference gets two verdicts:
      backward (a reader on the new schema reads data written under the old one) and forward
      (a reader on the old schema reads data written under the new one). A report: exits 0
      whatever it finds, 1 when a schema cannot be read or imported.`,
  options: { format: { type: "string", choices: FORMATS } },
  positionals: { min: 2, max: 2 },
  run: async (args, io) => {
    const format = stringOption(args, "format") ?? "text";
    const [oldFile, newFile] = args.positionals as [string, string];
    const older = load(io, oldFile);
    const newer = load(io, newFile);
    if (!older || !newer) return 1;
    const differences = compare(older, newer);
    if (format === "json") {
      const report = {
        old: oldFile,
        new: newFile,
        backward: verdictOf(differences, "backward"),
        forward: verdictOf(differences, "forward"),
        differences,
      };
      io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    } else io.stdout(textReport(differences));
    return 0;
  },
};
