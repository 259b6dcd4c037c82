import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILE } from "../../config/config.js";
// The no-op path of a rerun loads nothing of the compiler (see generate.ts); the watcher loads on --watch.
import { generate } from "../../generate.js";
import { createProgressLine } from "../progress.js";
import { fromCwd, plural, printDiagnostics, readConfig, type CliIo, type Command, type ParsedArgs } from "../command.js";

export const generateCommand: Command = {
  name: "generate",
  usage: `  treaty generate [--check | --watch] [--quiet] [--idl <dir>] [--out <dir>]
      Compile every contract under --idl (default: idl) into --out (default: generated). Files
      treaty no longer produces are removed. A run killed at any moment leaves the old files
      or the new ones, never a mix, once the next run has started (files are moved into place
      one by one: a reader during the moves can see both). Only contracts whose files (or
      what they reference) changed since the last run are compiled again. One run at a time
      writes into --out: another waits for it (up to 60 s, then generate-locked). With
      --check, write nothing (after waiting, as a run does, for one writing into --out) and
      exit 1 listing the files that are stale. With --watch, generate again each time a contract or agent file is saved, added
      or removed (or the config file it started with changes), printing each run's diagnostics
      and going on; a run with errors writes nothing; Ctrl-C stops it. --quiet prints only
      diagnostics and what is stale (under --watch, no banner and no summaries either); without
      it a terminal shows progress on long runs.
      Defaults come from treaty.config.json or the 'treaty' key of package.json; its 'package'
      setting makes --out an npm package, 'tests: false' writes no generated tests, and 'llm:
      { providers: [...] }' names the LLM providers of contracts that name none.`,
  options: {
    check: { type: "boolean" },
    watch: { type: "boolean", conflicts: { check: "--check writes nothing, --watch writes on every save" } },
    quiet: { type: "boolean" },
    idl: { type: "string" },
    out: { type: "string" },
  },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => (args.values["watch"] === true ? generateWatching(args, io) : generateOnce(args, io)),
};

/** One `treaty generate`: its exit status, after printing its diagnostics and summary. `signal` stops a wait for another run. */
const generateOnce = async (args: ParsedArgs, io: CliIo, signal?: AbortSignal): Promise<number> => {
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
    onLockWait: (pid) => {
      if (!quiet) io.stderr(`treaty: waiting for another generate (${pid === undefined ? "starting" : `pid ${pid}`}) writing into ${fromCwd(io, config.root, config.outDir)}\n`);
    },
    signal,
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
  if (!quiet) {
    io.stderr(
      `treaty: ${counts}${compiled}: ${report.created.length} created, ${report.updated.length} updated, ${report.removed.length} removed, ${report.unchanged} unchanged in ${seconds}s\n`,
    );
  }
  for (const stub of result.stubs ?? []) io.stderr(`treaty: added ${stub.what} ${stub.name} to ${fromCwd(io, config.root, stub.file)}; write it, it throws until then\n`);
  return 0;
};

/**
 * `--watch`: runs until SIGINT or SIGTERM, then exits 0. The directories watched are the first
 * run's; each run reads the config again, so a changed setting applies from the next save.
 */
const generateWatching = async (args: ParsedArgs, io: CliIo): Promise<number> => {
  const config = readConfig(args, io);
  if (!config) return 1;
  // The config files there are: chokidar reports itself ready before it has set up the watches of
  // the other paths when one of them does not exist, so a save soon after could go unseen.
  const configFiles = [join(config.root, CONFIG_FILE), join(config.root, "package.json")].filter((file) => existsSync(file));
  const { watch } = await import("../../watch/watch.js");
  // Ctrl-C stops a run waiting for another one writing into --out (a run under way finishes).
  const stopping = new AbortController();
  const watching = await watch({
    idlDir: config.idlDir,
    files: configFiles,
    ignoredDirs: [config.outDir],
    run: async () => {
      await generateOnce(args, io, stopping.signal);
    },
    onError: (error) => io.stderr(`treaty: internal error: ${(error as Error).message}\nPlease report this with the contract that caused it.\n`),
  });
  await watching.ready;
  if (args.values["quiet"] !== true) io.stderr(`treaty: watching ${fromCwd(io, config.root, config.idlDir)} for changes (Ctrl-C to stop)\n`);
  await new Promise<void>((stop) => {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  stopping.abort();
  await watching.close();
  return 0;
};
