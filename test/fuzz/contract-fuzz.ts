// Contract mutants through the compiler: each must compile to diagnostics (never a throw), every
// diagnostic one line with its code (and its place, but for whole-project findings), `generate`
// must write the whole tree or nothing, and the CLI must exit 0 or 1 within its time. In-process
// for speed (`compile`, and `generate` without tests for a sample); the CLI for a smaller sample.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { formatReport } from "../../src/diagnostics/report.js";
import { compile, generate } from "../../src/pipeline.js";
import { mutateContract, parseSeed } from "./contract-mutants.js";
import { createRandom } from "./random.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
/** A run longer than this is a hang. */
export const HANG_MS = 10_000;
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const TEXT_LINE = /^(?:[^ ]+:\d+:\d+ - )?(?:error|warning) [a-z-]+: .*$|^\d+ errors?, \d+ warnings?$/;
const GITHUB_LINE = /^::(?:error|warning) (?:file=[^,]*,line=\d+,col=\d+,)?title=treaty [a-z-]+::.*$/;
/** Diagnostics about the project as a whole, which have no place. */
const PLACELESS = new Set(["no-contracts", "read-failed"]);

export interface Finding {
  readonly kind: "crash" | "hang" | "exit" | "format" | "partial-write" | "no-location";
  readonly detail: string;
  /** The mutant project's files, relative to its root. */
  readonly files: Readonly<Record<string, string>>;
}

export interface ContractFuzzOptions {
  readonly seed: number;
  readonly count: number;
  /** Stop after this many seconds even if fewer mutants ran. */
  readonly seconds: number;
  /** Generate (in-process, without tests) every nth mutant that compiles; 0: never. */
  readonly generateEvery: number;
  /** Run the CLI's `generate` on every nth mutant; 0: never. */
  readonly cliEvery: number;
  /** Called after every 500 mutants. */
  readonly onProgress?: (report: ContractFuzzReport) => void;
}

export interface ContractFuzzReport {
  readonly mutants: number;
  readonly compiled: number;
  readonly generated: number;
  readonly spawned: number;
  readonly slowestMs: number;
  /** CLI runs that took over HANG_MS the first time and finished the second. */
  readonly slowCli: number;
  readonly findings: Finding[];
}

const yamlFilesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith(".yaml"))
        .map((e) => join(e.parentPath, e.name))
        .sort()
    : [];

/** The seeds: every contract and agent file of idl/ and of the fixtures, each as its own project. */
export const contractSeeds = (): { path: string; text: string }[] => {
  const fixtures = readdirSync(join(ROOT, "test/fixtures")).sort().flatMap((c) => yamlFilesUnder(join(ROOT, "test/fixtures", c, "idl")));
  return [...yamlFilesUnder(join(ROOT, "idl")), ...fixtures].map((path) => ({ path: relative(ROOT, path).split(sep).join("/"), text: readFileSync(path, "utf8") }));
};

/** What is wrong with how these diagnostics print, if anything. */
export const formatProblem = (diagnostics: readonly Diagnostic[]): string | undefined => {
  for (const d of diagnostics) {
    if (UNPRINTABLE.test(d.message) || UNPRINTABLE.test(d.loc?.file ?? "")) return `unprintable character in ${d.code}: ${JSON.stringify(d.message)}`;
  }
  const text = formatReport(diagnostics, "text").split("\n").filter((l) => l !== "");
  const bad = text.find((line) => !TEXT_LINE.test(line));
  if (bad !== undefined) return `text line breaks the format: ${JSON.stringify(bad)}`;
  const github = formatReport(diagnostics, "github").split("\n").filter((l) => l !== "");
  const badGithub = github.find((line) => !GITHUB_LINE.test(line));
  return badGithub === undefined ? undefined : `github line breaks the format: ${JSON.stringify(badGithub)}`;
};

const filesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(yamlFilesUnder(join(dir, "idl")).map((path) => [relative(dir, path).split(sep).join("/"), readFileSync(path, "utf8")]));

export const hasFiles = (dir: string): boolean => existsSync(dir) && readdirSync(dir, { recursive: true }).length > 0;

const spawnGenerate = (project: string, out: string, timeout: number) =>
  spawnSync(process.execPath, ["--max-old-space-size=1536", CLI, "generate", "--out", out], { cwd: project, encoding: "utf8", timeout, killSignal: "SIGKILL" });

// A finding as "kind: detail", or undefined. A run killed at HANG_MS runs again with six times as
// long: on a loaded machine a cold generate can take longer, and only one that never ends is a hang.
const runCliGenerate = (project: string, out: string, slow: () => void): string | undefined => {
  let child = spawnGenerate(project, out, HANG_MS);
  if (child.error || child.signal) {
    rmSync(out, { recursive: true, force: true });
    child = spawnGenerate(project, out, HANG_MS * 6);
    if (child.error || child.signal) return `hang: killed after ${HANG_MS / 1000} s and again after ${(HANG_MS * 6) / 1000} s (${child.signal ?? child.error?.message})`;
    slow();
  }
  if (child.status !== 0 && child.status !== 1) return `exit: status ${child.status}: ${child.stderr.split("\n").slice(0, 3).join(" | ")}`;
  const lines = child.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("treaty: "));
  const bad = lines.find((line) => !TEXT_LINE.test(line) || UNPRINTABLE.test(line));
  if (bad !== undefined) return `format: CLI line breaks the format: ${JSON.stringify(bad)}`;
  if (child.status === 1 && hasFiles(out)) return "partial-write: exit 1 but the output directory has files";
  return undefined;
};

export const fuzzContracts = async (options: ContractFuzzOptions): Promise<ContractFuzzReport> => {
  const random = createRandom(options.seed);
  const seeds = contractSeeds();
  const donors = seeds.map((s) => parseSeed(s.text)).filter((doc) => doc !== undefined);
  const scratch = mkdtempSync(join(tmpdir(), "treaty-fuzz-"));
  const report = { mutants: 0, compiled: 0, generated: 0, spawned: 0, slowestMs: 0, slowCli: 0, findings: [] as Finding[] };
  const deadline = performance.now() + options.seconds * 1000;
  try {
    for (let i = 0; i < options.count && performance.now() < deadline; i++) {
      const seed = random.pick(seeds);
      const mutant = mutateContract(random, seed.text, donors);
      const project = join(scratch, `m${i}`);
      // A fixture's file keeps its name under its own idl/; idl/'s keep their domain folder.
      const file = join(project, seed.path.replace(/^test\/fixtures\/[^/]+\//, ""));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, mutant);
      writeFileSync(join(project, "package.json"), '{ "name": "fuzz", "private": true }\n');
      const found = (kind: Finding["kind"], detail: string) => report.findings.push({ kind, detail, files: filesOf(project) });
      report.mutants++;
      const started = performance.now();
      let diagnostics: readonly Diagnostic[];
      try {
        diagnostics = compile({ root: project, idlDir: join(project, "idl") }).diagnostics;
      } catch (error) {
        found("crash", `compile threw: ${(error as Error).stack?.split("\n").slice(0, 4).join(" | ")}`);
        rmSync(project, { recursive: true, force: true });
        continue;
      }
      const took = performance.now() - started;
      report.slowestMs = Math.max(report.slowestMs, took);
      if (took > HANG_MS) found("hang", `compile took ${(took / 1000).toFixed(1)} s`);
      const problem = formatProblem(diagnostics);
      if (problem) found("format", problem);
      const placeless = diagnostics.find((d) => d.severity === "error" && !d.loc && !PLACELESS.has(d.code));
      if (placeless) found("no-location", `${placeless.code}: ${placeless.message}`);
      const ok = !diagnostics.some((d) => d.severity === "error");
      if (ok) report.compiled++;
      const out = join(project, "out");
      if (ok && options.generateEvery > 0 && report.compiled % options.generateEvery === 0) {
        report.generated++;
        try {
          const result = await generate({ root: project, idlDir: join(project, "idl"), outDir: out, check: false, tests: false });
          const failed = result.diagnostics.some((d) => d.severity === "error");
          if (failed && hasFiles(out)) found("partial-write", "generate reported errors and wrote files");
          if (!failed && !hasFiles(out)) found("partial-write", "generate succeeded and wrote nothing");
        } catch (error) {
          found("crash", `generate threw: ${(error as Error).stack?.split("\n").slice(0, 4).join(" | ")}`);
        }
        rmSync(out, { recursive: true, force: true });
      }
      if (options.cliEvery > 0 && i % options.cliEvery === 0) {
        report.spawned++;
        const cli = runCliGenerate(project, out, () => report.slowCli++);
        if (cli) found(cli.slice(0, cli.indexOf(":")) as Finding["kind"], `CLI generate: ${cli}`);
      }
      rmSync(project, { recursive: true, force: true });
      if (report.mutants % 500 === 0) options.onProgress?.(report);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return report;
};

/** Writes each finding as a project under `dir` (to be kept as a fixture once fixed). */
export const saveFindings = (findings: readonly Finding[], dir: string): void => {
  findings.forEach((finding, n) => {
    const at = join(dir, `${String(n).padStart(3, "0")}-${finding.kind}`);
    for (const [path, text] of Object.entries(finding.files)) {
      mkdirSync(dirname(join(at, path)), { recursive: true });
      writeFileSync(join(at, path), text);
    }
    writeFileSync(join(at, "finding.txt"), `${finding.kind}: ${finding.detail}\n`);
  });
};

