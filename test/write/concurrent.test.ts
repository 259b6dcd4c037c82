// Two `treaty generate` runs on one output directory at once (two terminals, a watch and a build
// script): one exited 70, or both 1, as each dropped what the other had staged. A run now holds a
// lock file beside the directory; the second waits for the first, then runs.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { afterAll, expect, it } from "vitest";
import { generate } from "../../src/generate.js";
import { lockOutput, lockPath, OutputLocked, startTimeOf } from "../../src/write/lock-output.js";
import { createTreeWriter, stagingDir } from "../../src/write/write.js";
import { tempProject } from "../support/temp-project.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill("SIGKILL")));

const hashes = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [relative(dir, join(e.parentPath, e.name)).split(sep).join("/"), createHash("sha256").update(readFileSync(join(e.parentPath, e.name))).digest("hex")])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );

/** `treaty generate` in a child process: its exit status and stderr. */
const generateIn = (cwd: string): Promise<{ status: number | null; stderr: string }> =>
  new Promise((done) => {
    const child = spawn(process.execPath, [CLI, "generate"], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (status) => done({ status, stderr }));
  });

/** The contracts of test/write/kill.test.ts: enough files that two runs overlap. */
const contracts = (project: string, edited: boolean): void => {
  rmSync(join(project, "idl"), { recursive: true, force: true });
  cpSync(join(ROOT, "test/fixtures/good-adapters/idl"), join(project, "idl"), { recursive: true });
  cpSync(join(ROOT, "idl/tools"), join(project, "idl/tools"), { recursive: true });
  if (!edited) return;
  for (const entry of readdirSync(join(project, "idl"), { recursive: true, withFileTypes: true }).filter((e) => e.name.endsWith(".yaml"))) {
    const path = join(entry.parentPath, entry.name);
    writeFileSync(path, readFileSync(path, "utf8").replace(/^summary: (.*)$/m, "summary: $1 (edited)"));
  }
};

/** A process that runs until killed, and its pid. */
const liveProcess = (): number => {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600_000)"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
};

/** The pid of a process that has exited. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((done) => child.on("exit", done));
  return child.pid!;
};

it("two generate runs on one output directory at once both exit 0, and leave exactly one whole generation", async () => {
  const project = tempProject("concurrent", { "package.json": "{}\n" });
  const alone = tempProject("concurrent-alone", { "package.json": "{}\n" });
  const outDir = join(project, "generated");
  // Cold, then every contract changed, then changed back: the second run of each pair finds the first's output.
  for (const edited of [false, true, false]) {
    contracts(alone, edited);
    expect((await generateIn(alone)).status).toBe(0);
    contracts(project, edited);
    const runs = await Promise.all([generateIn(project), generateIn(project)]);
    expect(runs.map((r) => r.status), runs.map((r) => r.stderr).join("\n")).toEqual([0, 0]);
    expect(hashes(outDir)).toEqual(hashes(join(alone, "generated")));
    expect(existsSync(lockPath(outDir))).toBe(false);
    expect(existsSync(stagingDir(outDir))).toBe(false);
  }
}, 300_000);

it("a lock a live process holds: generate waits for it, then generate-locked naming its pid, writing nothing", async () => {
  const root = tempProject("locked", { "package.json": "{}\n" });
  contracts(root, false);
  const outDir = join(root, "generated");
  const pid = liveProcess();
  writeFileSync(lockPath(outDir), `${pid}\n`);
  const waited: (number | undefined)[] = [];
  const result = await generate({ root, idlDir: join(root, "idl"), outDir, check: false, lockWaitMs: 300, onLockWait: (holder) => waited.push(holder) });
  expect(result.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
    `generate-locked: another treaty generate (pid ${pid}) is writing into generated; nothing was written: run again once it has finished (if no such process runs, remove .generated.treaty-lock)`,
  ]);
  expect(waited).toEqual([pid]);
  expect(existsSync(outDir)).toBe(false);
  expect(readFileSync(lockPath(outDir), "utf8")).toBe(`${pid}\n`);
});

it("--check waits, as a run does, for a live run holding the lock, then compares; it never takes or removes a lock", async () => {
  const root = tempProject("check-locked", { "package.json": "{}\n" });
  contracts(root, false);
  const outDir = join(root, "generated");
  const options = { root, idlDir: join(root, "idl"), outDir };
  expect((await generate({ ...options, check: false })).diagnostics).toEqual([]);
  const pid = liveProcess();
  writeFileSync(lockPath(outDir), `${pid}\n`);
  const waited: (number | undefined)[] = [];
  const locked = await generate({ ...options, check: true, lockWaitMs: 300, onLockWait: (holder) => waited.push(holder) });
  expect([locked.diagnostics.map((d) => d.code), waited]).toEqual([["generate-locked"], [pid]]);
  expect(readFileSync(lockPath(outDir), "utf8")).toBe(`${pid}\n`);
  // The holder finishes while --check waits: it compares what the run left.
  const checking = generate({ ...options, check: true, lockWaitMs: 60_000 });
  await new Promise((done) => setTimeout(done, 250));
  rmSync(lockPath(outDir));
  const checked = await checking;
  expect([checked.diagnostics, checked.report?.created, checked.report?.updated]).toEqual([[], [], []]);
  // A dead run's lock: compared at once, the lock left for the next run that writes to take over.
  writeFileSync(lockPath(outDir), `${await deadPid()}\n`);
  expect((await generate({ ...options, check: true, lockWaitMs: 60_000 })).diagnostics).toEqual([]);
  expect(existsSync(lockPath(outDir))).toBe(true);
});

it("the lock of a run that died, or one left empty by a run killed as it made it, is taken over", async () => {
  const root = tempProject("stale-lock", { "package.json": "{}\n" });
  contracts(root, false);
  const outDir = join(root, "generated");
  const options = { root, idlDir: join(root, "idl"), outDir, check: false, lockWaitMs: 60_000 };
  writeFileSync(lockPath(outDir), `${await deadPid()}\n`);
  expect((await generate(options)).diagnostics).toEqual([]);
  expect(existsSync(join(outDir, "index.ts"))).toBe(true);
  expect(existsSync(lockPath(outDir))).toBe(false);
  contracts(root, true);
  writeFileSync(lockPath(outDir), "");
  utimesSync(lockPath(outDir), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  expect((await generate(options)).diagnostics).toEqual([]);
  expect(readFileSync(join(outDir, "demo.profile/v1_0/schema.json"), "utf8")).toContain("(edited)");
  expect(existsSync(lockPath(outDir))).toBe(false);
});

// A dead run's pid reused by an unrelated process: the lock named a live pid, so the next run waited
// 60 s and failed with generate-locked. The lock records the process's start time (Linux's /proc).
it.runIf(startTimeOf(process.pid) !== undefined)("a lock whose pid a live process has, started at another time than the lock says, is a dead run's: taken over at once", async () => {
  const root = tempProject("reused-pid-lock", { "package.json": "{}\n" });
  contracts(root, false);
  const outDir = join(root, "generated");
  const pid = liveProcess();
  const waited: (number | undefined)[] = [];
  const options = { root, idlDir: join(root, "idl"), outDir, check: false, onLockWait: (holder: number | undefined) => waited.push(holder) };
  // The live process's own start time: its lock is held (a short wait, then generate-locked).
  writeFileSync(lockPath(outDir), `${pid} ${startTimeOf(pid)}\n`);
  expect((await generate({ ...options, lockWaitMs: 300 })).diagnostics.map((d) => d.code)).toEqual(["generate-locked"]);
  expect(waited).toEqual([pid]);
  // Another start time: taken over without a wait (no onLockWait), though the wait allowed is a minute.
  waited.length = 0;
  writeFileSync(lockPath(outDir), `${pid} ${Number(startTimeOf(pid)) + 1}\n`);
  expect((await generate({ ...options, lockWaitMs: 60_000 })).diagnostics).toEqual([]);
  expect(waited).toEqual([]);
  expect(existsSync(join(outDir, "index.ts"))).toBe(true);
  expect(existsSync(lockPath(outDir))).toBe(false);
});

it("a run holds its lock with its pid and start time, where the system tells it", async () => {
  const outDir = join(tempProject("lock-text"), "generated");
  const lock = await lockOutput(outDir, { waitMs: 0 });
  const start = startTimeOf(process.pid);
  expect(readFileSync(lockPath(outDir), "utf8")).toBe(start === undefined ? `${process.pid}\n` : `${process.pid} ${start}\n`);
  lock.release();
  expect(existsSync(lockPath(outDir))).toBe(false);
});

it("a run whose lock another run took over commits nothing and leaves that run's staging directory", async () => {
  const outDir = join(tempProject("lock-lost"), "generated");
  const lock = await lockOutput(outDir, { waitMs: 0 });
  const writer = createTreeWriter(outDir, { check: false, lock });
  writer.put("a.ts", "// @generated by treaty v0.1.0\nexport const a = 1;\n");
  const other = liveProcess();
  writeFileSync(lockPath(outDir), `${other}\n`);
  expect(() => writer.commit()).toThrow(OutputLocked);
  expect(existsSync(outDir)).toBe(false);
  expect(existsSync(stagingDir(outDir))).toBe(true);
  lock.release();
  expect(readFileSync(lockPath(outDir), "utf8")).toBe(`${other}\n`);
});
