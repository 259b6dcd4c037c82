import { CONFIG_FILE } from "../../config/config.js";
import { generate } from "../../pipeline.js";
import { fromCwd, plural, printDiagnostics, readConfig, type Command } from "../command.js";

export const generateCommand: Command = {
  name: "generate",
  usage: `  treaty generate [--check] [--idl <dir>] [--out <dir>]
      Compile every contract under --idl (default: idl) into --out (default: generated).
      Files treaty no longer produces are removed. With --check, write nothing and exit 1
      listing the files that are stale. Defaults come from treaty.config.json or the
      'treaty' key of package.json; its 'package' setting makes --out an npm package,
      'tests: false' writes no generated tests, and 'llm: { providers: [...] }' names the
      LLM providers of contracts that name none.`,
  options: { check: { type: "boolean" }, idl: { type: "string" }, out: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const started = performance.now();
    const check = args.values["check"] === true;
    const config = readConfig(args, io);
    if (!config) return 1;
    const result = await generate({
      root: config.root,
      idlDir: config.idlDir,
      outDir: config.outDir,
      check,
      tests: config.tests,
      llm: config.llm,
      ...(config.package && { package: { ...config.package, source: config.file ?? CONFIG_FILE } }),
    });
    printDiagnostics(io, result.diagnostics, config.root);
    const report = result.report;
    if (!report) return 1;
    const contracts = result.project?.contracts ?? [];
    const counts = `${plural(contracts.length, "contract")}, ${plural(contracts.reduce((n, c) => n + c.versions.length, 0), "version")}`;
    if (check) {
      const lines = [
        ...report.created.map((p) => `missing ${p}`),
        ...report.updated.map((p) => `stale   ${p}`),
        ...report.removed.map((p) => `extra   ${p}`),
      ];
      if (lines.length === 0) {
        io.stderr(`treaty: generated files are current (${counts})\n`);
        return 0;
      }
      io.stderr(`${lines.join("\n")}\ntreaty: ${lines.length} generated file${lines.length === 1 ? " is" : "s are"} out of date; run 'treaty generate'\n`);
      return 1;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    io.stderr(
      `treaty: ${counts}: ${report.created.length} created, ${report.updated.length} updated, ${report.removed.length} removed, ${report.unchanged} unchanged in ${seconds}s\n`,
    );
    for (const stub of result.stubs ?? []) io.stderr(`treaty: added ${stub.what} ${stub.name} to ${fromCwd(io, config.root, stub.file)}; write it, it throws until then\n`);
    return 0;
  },
};
