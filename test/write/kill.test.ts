// `generate` replaces generated/ as a whole or not at all: a child killed (SIGKILL, by its pid) at
// many moments leaves the old tree, the new one, or a committed change that the next run finishes
// first; after that the tree is exactly the clean old or clean new one, with nothing left behind.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, expect, it } from "vitest";
import { recoverInterrupted, stagingDir } from "../../src/write/write.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const scratch = mkdtempSync(join(tmpdir(), "treaty-kill-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Each file of `dir` by its hash (the staging directory is a sibling, never inside). */
const hashes = (dir: string): Record<string, string> =>
  existsSync(dir)
    ? Object.fromEntries(
        readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => [relative(dir, join(e.parentPath, e.name)).split(sep).join("/"), createHash("sha256").update(readFileSync(join(e.parentPath, e.name))).digest("hex")])
          .sort(([a], [b]) => (a! < b! ? -1 : 1)),
      )
    : {};

/** Runs `args` under node in `cwd`, killing it by its pid after `ms` (never, if undefined); resolves when it has exited. */
const runKilledAfter = (args: string[], cwd: string, ms: number | undefined): Promise<number | null> =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, stdio: "ignore" });
    const timer = ms === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (code) => {
      clearTimeout(timer);
      done(code);
    });
  });

const timed = async (run: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};

/**
 * Kills `start` at `points` moments spread over its uninterrupted duration; after each, the tree is
 * the old or new one or a commit is pending, and after recovery exactly the old or the new one.
 */
const killAtManyPoints = async (options: {
  reset: () => void;
  start: (ms: number | undefined) => Promise<unknown>;
  outDir: string;
  old: Record<string, string>;
  new: Record<string, string>;
  points: number;
}): Promise<{ old: number; new: number; committed: number }> => {
  const seen = { old: 0, new: 0, committed: 0 };
  options.reset();
  const duration = await timed(() => options.start(undefined));
  expect(hashes(options.outDir)).toEqual(options.new);
  // Kills spread over the measured duration; on a loaded machine (other suites running beside this
  // one) a run can take several times longer than that, so while none has landed after the commit,
  // later ones follow, each half as late again as the last (up to about 100 times the duration): one
  // late enough lets the run finish.
  const moments = Array.from({ length: options.points }, (_, i) => (duration * (i + 0.5)) / options.points);
  for (let i = 0; i < moments.length; i++) {
    if (i === moments.length - 1 && seen.committed + seen.new === 0 && moments.length < options.points + 12) moments.push(Math.max(duration, moments.at(-1)!) * 1.5);
    options.reset();
    await options.start(moments[i]);
    const after = hashes(options.outDir);
    const committed = existsSync(join(stagingDir(options.outDir), "commit.json"));
    if (!committed) expect([options.old, options.new]).toContainEqual(after);
    recoverInterrupted(options.outDir);
    const recovered = hashes(options.outDir);
    expect([options.old, options.new]).toContainEqual(recovered);
    expect(existsSync(stagingDir(options.outDir))).toBe(false);
    if (committed) seen.committed++;
    else if (JSON.stringify(recovered) === JSON.stringify(options.old)) seen.old++;
    else seen.new++;
  }
  return seen;
};

it("a killed generate leaves the old tree or the new one", async () => {
  const project = join(scratch, "project");
  const idl = (which: "old" | "new"): void => {
    rmSync(join(project, "idl"), { recursive: true, force: true });
    cpSync(join(ROOT, "test/fixtures/good-refs-strip/idl"), join(project, "idl/demo"), { recursive: true });
    cpSync(join(ROOT, "test/fixtures/good-adapters/idl"), join(project, "idl"), { recursive: true });
    cpSync(join(ROOT, "idl/tools"), join(project, "idl/tools"), { recursive: true });
    if (which === "new") {
      // A change to every contract: most generated files differ.
      for (const entry of readdirSync(join(project, "idl"), { recursive: true, withFileTypes: true }).filter((e) => e.name.endsWith(".yaml"))) {
        const path = join(entry.parentPath, entry.name);
        writeFileSync(path, readFileSync(path, "utf8").replace(/^summary: (.*)$/m, "summary: $1 (edited)"));
      }
    }
  };
  const generate = (ms?: number) => runKilledAfter([CLI, "generate"], project, ms);
  const outDir = join(project, "generated");
  idl("new");
  await generate();
  const newTree = hashes(outDir);
  idl("old");
  await generate();
  const oldTree = hashes(outDir);
  const oldCopy = join(scratch, "old-tree");
  cpSync(outDir, oldCopy, { recursive: true });
  const differing = Object.keys(newTree).filter((p) => newTree[p] !== oldTree[p]);
  expect(differing.length).toBeGreaterThan(20);

  const seen = await killAtManyPoints({
    reset: () => {
      idl("new");
      rmSync(outDir, { recursive: true, force: true });
      cpSync(oldCopy, outDir, { recursive: true });
    },
    start: generate,
    outDir,
    old: oldTree,
    new: newTree,
    points: 12,
  });
  expect(seen.old).toBeGreaterThan(0);
  // The next run starts from what recovery left and finishes the job.
  await generate();
  expect(hashes(outDir)).toEqual(newTree);
}, 300_000);

/** A script that writes 600 files (540 in the "new" tree) into the directory it is given, through the tree writer. */
const writerScript = (): string => {
  // Hundreds of files, so that kills land in every phase, moves and removals included.
  const script = join(scratch, "writer.mjs");
  writeFileSync(
    script,
    `import { createTreeWriter } from ${JSON.stringify(join(ROOT, "dist/write/write.js"))};
const [outDir, version] = process.argv.slice(2);
const writer = createTreeWriter(outDir, { check: false });
for (let i = 0; i < 600; i++) {
  if (version === "new" && i % 10 === 0) continue; // removed in the new tree
  await writer.put(\`d\${i % 40}/f\${i}.ts\`, \`// @generated by treaty v0.1.0\\nexport const v = "\${version === "new" && i % 3 === 0 ? "new" : "old"}\${i}";\\n\`);
}
writer.commit();
`,
  );
  return script;
};

it("a writer killed while it stages, commits or moves files leaves the old tree or the new one", async () => {
  const script = writerScript();
  const outDir = join(scratch, "tree");
  const write = (version: string, ms?: number) => runKilledAfter([script, outDir, version], scratch, ms);
  await write("new");
  const newTree = hashes(outDir);
  rmSync(outDir, { recursive: true });
  await write("old");
  const oldTree = hashes(outDir);
  const oldCopy = join(scratch, "old-writer-tree");
  cpSync(outDir, oldCopy, { recursive: true });

  const seen = await killAtManyPoints({
    reset: () => {
      rmSync(outDir, { recursive: true, force: true });
      cpSync(oldCopy, outDir, { recursive: true });
    },
    start: (ms) => write("new", ms),
    outDir,
    old: oldTree,
    new: newTree,
    points: 12,
  });
  expect(seen.old).toBeGreaterThan(0);
  expect(seen.committed + seen.new).toBeGreaterThan(0);
}, 300_000);

it("a writer killed while it makes a new output directory leaves none or the whole of it", async () => {
  // No tree before: the staged one becomes it in one rename (the journal's `whole`).
  const script = writerScript();
  const outDir = join(scratch, "fresh", "generated");
  const write = (ms?: number) => runKilledAfter([script, outDir, "new"], scratch, ms);
  rmSync(join(scratch, "fresh"), { recursive: true, force: true });
  await write();
  const newTree = hashes(outDir);
  expect(Object.keys(newTree).length).toBe(540);
  const seen = await killAtManyPoints({
    reset: () => rmSync(join(scratch, "fresh"), { recursive: true, force: true }),
    start: write,
    outDir,
    old: {},
    new: newTree,
    points: 12,
  });
  expect(seen.old).toBeGreaterThan(0);
  expect(seen.committed + seen.new).toBeGreaterThan(0);
}, 300_000);
