// The built pipeline loads and resolves a large project's sources on more than one thread
// (src/resolve/resolve-sources.ts): what it makes must be what one thread makes, its diagnostics
// included, whichever share of the files a worker took, and the pattern verdicts a worker reached
// must come back for the cache. The source pipeline (these tests' own) has no built worker and
// reads on one thread; each test here compares the built one with it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../src/pipeline.js";
import { readSources, type RawSource } from "../../src/load/read-sources.js";
import { tempProject } from "../support/temp-project.js";

const ROOT = join(import.meta.dirname, "../..");
const BUILT = join(ROOT, "dist/resolve/resolve-sources.js");
const PIPELINE = join(ROOT, "dist/pipeline.js");
type Built = typeof import("../../src/resolve/resolve-sources.js");
type BuiltVerdicts = typeof import("../../src/resolve/pattern-safety.js");

/** This repository's contracts and agents. */
const own = (): RawSource[] => readSources(ROOT, join(ROOT, "idl")).value;

/**
 * The repository's idl/ between copies of task.result (under other names) before and after it,
 * about 1.2 MB in all: more than two shares, and cut into shares inside idl/ itself, whose
 * contracts refer to each other and whose agents name contracts.
 */
const padded = (copies = 100, edit: (name: string, text: string) => string = (_, t) => t): RawSource[] => {
  const seed = readFileSync(join(ROOT, "idl/task/task.result.yaml"), "utf8");
  const copy = (dir: string, i: number): RawSource => {
    const name = `${dir}.c${String(i).padStart(3, "0")}`;
    return { path: `idl/${dir}/${name}.yaml`, text: edit(name, seed.replace(/^contract: task\.result$/m, `contract: ${name}`)) };
  };
  const half = Array.from({ length: copies / 2 }, (_, i) => i);
  return [...half.map((i) => copy("aa", i)), ...own(), ...half.map((i) => copy("zz", i))];
};

const built = async (): Promise<Built> => (await import(BUILT)) as Built;

describe.runIf(existsSync(BUILT))("the built front on more than one thread", () => {
  it("makes the model one thread makes, idl/ cut between the threads", async () => {
    const { resolveSources, resolveSourcesInParallel } = await built();
    const sources = padded();
    expect(sources.reduce((n, s) => n + s.text.length, 0)).toBeGreaterThan(1024 * 1024);
    const parallel = await resolveSourcesInParallel(sources);
    const alone = resolveSources(sources);
    // On one core there is no worker to share with.
    if (availableParallelism() > 1) expect(parallel.workers).toBeGreaterThan(0);
    else expect(parallel.workers).toBe(0);
    expect(alone.resolved?.value.agents?.length).toBeGreaterThan(0);
    expect(alone.resolved?.value.contracts.length).toBe(100 + own().filter((s) => !s.path.endsWith(".agent.yaml")).length);
    const { workers, ...front } = parallel;
    expect(front).toStrictEqual(alone);
  }, 60_000);

  it("says what one thread says of a file that does not parse in a worker's share, and of one that does not resolve in its own", async () => {
    const { resolveSources, resolveSourcesInParallel } = await built();
    // A YAML error in the last file (a worker's share): nothing past loading is reported.
    const broken = padded(100, (name, text) => (name === "zz.c049" ? text.replace("versions:", "versions: [") : text));
    const parallel = await resolveSourcesInParallel(broken);
    expect(parallel.resolved).toBeUndefined();
    expect(parallel.loaded.some((d) => d.severity === "error" && d.loc?.file === "idl/zz/zz.c049.yaml")).toBe(true);
    expect(parallel.loaded).toStrictEqual(resolveSources(broken).loaded);
    // Errors of resolving in both shares: the first file's and the last file's, in their order.
    const unresolved = padded(100, (name, text) => (name === "aa.c000" || name === "zz.c049" ? text.replace(/^owner: .*$/m, "owner: [not, a, name]") : text));
    const split = await resolveSourcesInParallel(unresolved);
    const one = resolveSources(unresolved);
    const errors = one.resolved!.diagnostics.filter((d) => d.severity === "error").map((d) => d.loc?.file);
    expect(errors).toEqual(["idl/aa/aa.c000.yaml", "idl/zz/zz.c049.yaml"]);
    const { workers, ...front } = split;
    expect(front).toStrictEqual(one);
  }, 60_000);

  it("brings back the pattern verdicts a worker reached, for the cache", async () => {
    const { resolveSourcesInParallel } = await built();
    const { durableVerdicts } = (await import(join(ROOT, "dist/resolve/pattern-safety.js"))) as BuiltVerdicts;
    if (availableParallelism() < 2) return;
    // A pattern only the last file (a worker's share) holds.
    const pattern = `^worker-only-${process.pid}-[0-9]+$`;
    const sources = padded(100, (name, text) => (name === "zz.c049" ? text.replace("^TASK-[0-9]+$", pattern) : text));
    expect(sources.at(-1)!.text).toContain(pattern);
    const parallel = await resolveSourcesInParallel(sources);
    expect(parallel.workers).toBeGreaterThan(0);
    expect(durableVerdicts().find(([p]) => p === pattern)).toEqual([pattern, undefined]);
  }, 60_000);
});

it.runIf(existsSync(PIPELINE))("generate writes what the one-thread pipeline writes when a worker resolved part of the project", async () => {
  const files = Object.fromEntries([["package.json", `{ "treaty": { "tests": false } }\n`], ...padded(100).map((s) => [s.path, s.text])]);
  const root = tempProject("front-workers", files);
  const script = `
    import { generate } from ${JSON.stringify(PIPELINE)};
    const root = process.argv[1];
    const result = await generate({ root, idlDir: root + "/idl", outDir: root + "/generated", check: false, tests: false });
    console.log(JSON.stringify(result.diagnostics));
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, root], { encoding: "utf8", env: { ...process.env, TREATY_CACHE_DIR: join(root, ".cache") }, timeout: 240_000 });
  expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: "" });
  const inThread = tempProject("front-in-thread", files);
  const again = await generate({ root: inThread, idlDir: join(inThread, "idl"), outDir: join(inThread, "generated"), check: false, tests: false });
  expect(JSON.parse(child.stdout)).toEqual(JSON.parse(JSON.stringify(again.diagnostics)));
  expect(again.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const tree = (dir: string): Record<string, string> =>
    Object.fromEntries((readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile()).map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "utf8")]));
  const written = tree(join(root, "generated"));
  expect(Object.keys(written).length).toBeGreaterThan(1000);
  expect(written).toEqual(tree(join(inThread, "generated")));
}, 300_000);
