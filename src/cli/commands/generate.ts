import { CONFIG_FILE } from "../../config/config.js";
import { generate } from "../../pipeline.js";
import { createProgressLine } from "../progress.js";
import { fromCwd, plural, printDiagnostics, readConfig, type Command } from "../command.js";

export const generateCommand: Command = {
  name: "generate",
  usage: `  treaty generate [--check] [--quiet] [--idl <dir>] [--out <dir>]
      Compile every contract under --idl (default: idl) into --out (default: generated).
      Files treaty no longer produces are removed; the directory changes as a whole, or is
      left as it was. Only contracts whose files (or what they reference) changed since the
      last run are compiled again. With --check, write nothing and exit 1 listing the files that are
      stale. --quiet prints only diagnostics and what is stale; without it a terminal shows
      progress on long runs. Defaults come from treaty.config.json or the
      'treaty' key of package.json; its 'package' setting makes --out an npm package,
      'tests: false' writes no generated tests, and 'llm: { providers: [...] }' names the
      LLM providers of contracts that name none.`,
  options: { check: { type: "boolean" }, quiet: { type: "boolean" }, idl: { type: "string" }, out: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const started = performance.now();
    const check = args.values["check"] === true;
    const quiet = args.values["quiet"] === true;
    const config = readConfig(args, io);
    if (!config) return 1;
    const progress = createProgressLine(io, !quiet);
    const result = await generate({
      root: config.root,
      idlDir: config.idlDir,
      outDir: config.outDir,
      check,
      tests: config.tests,
      llm: config.llm,
      ...(config.package && { package: { ...config.package, source: config.file ?? CONFIG_FILE } }),
      onProgress: progress.update,
    }).finally(progress.end);
    printDiagnostics(io, result.diagnostics, config.root);
    const report = result.report;
    if (!report) return 1;
    const size = result.counts ?? { contracts: 0, versions: 0 };
    const counts = `${plural(size.contracts, "contract")}, ${plural(size.versions, "version")}`;
    if (check) {
      const lines = [
        ...report.created.map((p) => `missing ${p}`),
        ...report.updated.map((p) => `stale   ${p}`),
        ...report.removed.map((p) => `extra   ${p}`),
      ];
      if (lines.length === 0) {
        if (!quiet) io.stderr(`treaty: generated files are current (${counts})\n`);
        return 0;
      }
      io.stderr(`${lines.join("\n")}\ntreaty: ${lines.length} generated file${lines.length === 1 ? " is" : "s are"} out of date; run 'treaty generate'\n`);
      return 1;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const compiled = result.regenerated === size.contracts ? "" : ` (${result.regenerated ?? 0} compiled)`;
    if (!quiet) io.stderr(
      `treaty: ${counts}${compiled}: ${report.created.length} created, ${report.updated.length} updated, ${report.removed.length} removed, ${report.unchanged} unchanged in ${seconds}s\n`,
    );
    for (const stub of result.stubs ?? []) io.stderr(`treaty: added ${stub.what} ${stub.name} to ${fromCwd(io, config.root, stub.file)}; write it, it throws until then\n`);
    return 0;
  },
};
