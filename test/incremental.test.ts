// An incremental run is only an accelerator: after any change, and whatever the manifest in the
// cache holds (nothing, garbage, half of itself, an older run's), the tree and the diagnostics are
// those of a clean run over the same contracts.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatDiagnostic } from "../src/diagnostics/diagnostic.js";
import { findCacheDir } from "../src/format/format-cache.js";
import { manifestPath } from "../src/incremental/manifest.js";
import { generate } from "../src/pipeline.js";
import { contentHash } from "../src/write/write.js";

const ROOT = join(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "treaty-incremental-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file of `dir`, by path, as its contents. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [relative(dir, join(e.parentPath, e.name)).split(sep).join("/"), readFileSync(join(e.parentPath, e.name), "utf8")])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );

let projects = 0;
/** A project (with a package.json, so it has a cache dir) holding a contract another references, one with hand-written adapters, and one on its own. */
const createProject = (): string => {
  const dir = join(scratch, `p${++projects}`);
  cpSync(join(ROOT, "test/fixtures/good-refs-strip/idl"), join(dir, "idl/demo"), { recursive: true });
  cpSync(join(ROOT, "test/fixtures/good-adapters/idl"), join(dir, "idl"), { recursive: true });
  cpSync(join(ROOT, "idl/tools"), join(dir, "idl/tools"), { recursive: true });
  // Tuples and open objects: declarations json-schema-to-typescript compiles (and the cache keeps),
  // where type-declaration.ts prints the rest.
  cpSync(join(ROOT, "test/fixtures/good-tuple/idl"), join(dir, "idl/geo"), { recursive: true });
  cpSync(join(ROOT, "test/fixtures/good-open-objects/idl"), join(dir, "idl/open"), { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "incremental", private: true })}\n`);
  return dir;
};

const run = async (dir: string, check = false) => {
  const result = await generate({ root: dir, idlDir: join(dir, "idl"), outDir: join(dir, "generated"), check });
  return { ...result, printed: result.diagnostics.map(formatDiagnostic) };
};

/** The tree and diagnostics of a clean run (no output, no cache) over `dir`'s contracts and adapters. */
const clean = async (dir: string) => {
  const fresh = join(scratch, `clean${++projects}`);
  cpSync(join(dir, "idl"), join(fresh, "idl"), { recursive: true });
  cpSync(join(dir, "package.json"), join(fresh, "package.json"));
  const result = await run(fresh);
  return { tree: snapshot(join(fresh, "generated")), printed: result.printed };
};

const edit = (path: string, from: string | RegExp, to: string): void => {
  const text = readFileSync(path, "utf8");
  const edited = text.replace(from, to);
  expect(edited).not.toBe(text);
  writeFileSync(path, edited);
};

const manifestFile = (dir: string): string => manifestPath(findCacheDir(dir)!, join(dir, "generated"));

/** Ways a cache file is found spoiled. */
const damage: Record<string, (file: string) => void> = {
  deleted: (file) => rmSync(file),
  corrupt: (file) => writeFileSync(file, Buffer.from(readFileSync(file).map((byte, i) => (i % 7 === 3 ? byte ^ 0x5a : byte)))),
  truncated: (file) => writeFileSync(file, readFileSync(file).subarray(0, Math.floor(statSync(file).size / 2))),
  "of another shape": (file) => writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), nodes: [] })),
  emptied: (file) => writeFileSync(file, ""),
};

describe("an incremental run", () => {
  it("compiles only what a change reaches, and leaves the tree and diagnostics of a clean run", async () => {
    const dir = createProject();
    expect((await run(dir)).regenerated).toBe(6);

    const nothing = await run(dir);
    expect(nothing.regenerated).toBe(0);
    expect(nothing.report?.created.length ?? -1).toBe(0);
    expect(nothing.printed).toEqual((await clean(dir)).printed);

    // demo.order references demo.failure: a change to the failure reaches both.
    edit(join(dir, "idl/demo/demo.failure.yaml"), "retry_after_s: { type: int, min: 0", "retry_after_s: { type: int, min: 1");
    const referenced = await run(dir);
    expect(referenced.regenerated).toBe(2);
    let expected = await clean(dir);
    expect(snapshot(join(dir, "generated"))).toEqual(expected.tree);
    expect(referenced.printed).toEqual(expected.printed);

    edit(join(dir, "idl/demo/demo.order.yaml"), "maxLength: 16", "maxLength: 17");
    expect((await run(dir)).regenerated).toBe(1);
    expected = await clean(dir);
    expect(snapshot(join(dir, "generated"))).toEqual(expected.tree);
  });

  it("restores generated files edited, deleted or added by hand", async () => {
    const dir = createProject();
    await run(dir);
    const before = snapshot(join(dir, "generated"));
    const validator = join(dir, "generated/demo.order/v1_0/validator.ts");
    writeFileSync(validator, readFileSync(validator, "utf8").replace("return", "return true ||"));
    rmSync(join(dir, "generated/demo.failure/v1_1/schema.json"));
    writeFileSync(join(dir, "generated/demo.order/stray.ts"), "// @generated by treaty v0.0.1\n");
    writeFileSync(join(dir, "generated/demo.order/mine.ts"), "export const mine = 1;\n");
    expect((await run(dir, true)).report?.removed).toEqual(["demo.order/stray.ts"]);
    await run(dir);
    expect(snapshot(join(dir, "generated"))).toEqual({ ...before, "demo.order/mine.ts": "export const mine = 1;\n" });
  });

  // `touch -r`, `cp -p`, `rsync -a` and `tar x` put a file's modification time back; its change time they cannot.
  it("finds a file edited in place to the same size with its modification time put back, and a stray file whose directory's time was put back", async () => {
    const dir = createProject();
    await run(dir);
    // A run later, so the edit comes well after the manifest was written.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await run(dir)).regenerated).toBe(0);
    const before = snapshot(join(dir, "generated"));
    const validator = join(dir, "generated/demo.order/v1_0/validator.ts");
    const folder = join(dir, "generated/demo.order");
    // Their times kept to the nanosecond by `touch -r` (utimes from JS rounds them).
    const [fileTimes, folderTimes] = [join(scratch, `times${projects}-file`), join(scratch, `times${projects}-dir`)];
    execFileSync("touch", ["-r", validator, fileTimes]);
    execFileSync("touch", ["-r", folder, folderTimes]);
    writeFileSync(validator, readFileSync(validator, "utf8").replace("maxLength", "maxLengtH"));
    writeFileSync(join(folder, "stray.ts"), "// @generated by treaty v0.0.1\n");
    execFileSync("touch", ["-r", fileTimes, validator]);
    execFileSync("touch", ["-r", folderTimes, folder]);
    const checked = await run(dir, true);
    expect(checked.report?.updated).toContain("demo.order/v1_0/validator.ts");
    expect(checked.report?.removed).toEqual(["demo.order/stray.ts"]);
    await run(dir);
    expect(snapshot(join(dir, "generated"))).toEqual(before);
  });

  it("after a run that removed a directory, has nothing to do, and still finds a file added by hand beside the outputs it kept", async () => {
    const dir = createProject();
    await run(dir);
    const order = join(dir, "idl/demo/demo.order.yaml");
    const text = readFileSync(order, "utf8");
    // demo.order without its version 1.1 (and the example of it): generated/demo.order/v1_1 goes.
    writeFileSync(order, text.slice(0, text.indexOf('  "1.1":')));
    const removed = await run(dir);
    expect(removed.regenerated).toBe(1);
    expect(existsSync(join(dir, "generated/demo.order/v1_1"))).toBe(false);
    expect(snapshot(join(dir, "generated"))).toEqual((await clean(dir)).tree);
    const nothing = await run(dir);
    expect(nothing.regenerated).toBe(0);
    expect(nothing.report?.unchanged).toBe(Object.keys(snapshot(join(dir, "generated"))).length);
    // A directory of a contract the removing run did not touch: its time was carried over, and still tells.
    writeFileSync(join(dir, "generated/demo.failure/v1_0/stray.ts"), "// @generated by treaty v0.0.1\n");
    expect((await run(dir, true)).report?.removed).toEqual(["demo.failure/v1_0/stray.ts"]);
  });

  it("regenerates a contract whose hand-written adapters file changed", async () => {
    const dir = createProject();
    await run(dir);
    // demo.profile's adapters file is treaty's to keep in step (none needed so far): one appearing counts.
    writeFileSync(join(dir, "idl/demo/demo.profile.adapters.ts"), "// conversions written by hand\n");
    const result = await run(dir);
    expect(result.regenerated).toBe(1);
    const expected = await clean(dir);
    expect(snapshot(join(dir, "generated"))).toEqual(expected.tree);
    expect(result.printed).toEqual(expected.printed);
  });

  it("in a project with agents, recompiles the whole project when a contract or an agent's hand-written file changed", async () => {
    const dir = join(scratch, `agents${++projects}`);
    cpSync(join(ROOT, "idl"), join(dir, "idl"), { recursive: true });
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "agents", private: true })}\n`);
    const all = (await run(dir)).regenerated;
    expect((await run(dir)).regenerated).toBe(0);
    const agentFile = join(dir, "idl/booking/airport_code_resolver.agent.ts");
    writeFileSync(agentFile, `${readFileSync(agentFile, "utf8")}\n// a note\n`);
    expect((await run(dir)).regenerated).toBe(all);
    edit(join(dir, "idl/booking/booking.airport.yaml"), /^summary: (.*)$/m, "summary: $1 (edited)");
    const result = await run(dir);
    expect(result.regenerated).toBe(all);
    const expected = await clean(dir);
    expect(snapshot(join(dir, "generated"))).toEqual(expected.tree);
    expect(result.printed).toEqual(expected.printed);
  });

  for (const [how, spoil] of Object.entries(damage)) {
    it(`with a manifest ${how}, gives a clean run's tree and diagnostics`, async () => {
      const dir = createProject();
      await run(dir);
      edit(join(dir, "idl/demo/demo.failure.yaml"), "retry_after_s: { type: int, min: 0", "retry_after_s: { type: int, min: 2");
      spoil(manifestFile(dir));
      const result = await run(dir);
      const expected = await clean(dir);
      expect(snapshot(join(dir, "generated"))).toEqual(expected.tree);
      expect(result.printed).toEqual(expected.printed);
      expect((await run(dir)).regenerated).toBe(0); // and the run left a good manifest
    });
  }

  it("with an older run's manifest over a newer tree, gives a clean run's tree", async () => {
    const dir = createProject();
    await run(dir);
    const older = readFileSync(manifestFile(dir));
    edit(join(dir, "idl/demo/demo.order.yaml"), "maxLength: 16", "maxLength: 18");
    await run(dir);
    // The sources are back to what the older manifest says; the tree is not.
    writeFileSync(manifestFile(dir), older);
    edit(join(dir, "idl/demo/demo.order.yaml"), "maxLength: 18", "maxLength: 16");
    await run(dir);
    expect(snapshot(join(dir, "generated"))).toEqual((await clean(dir)).tree);
  });

  it("with a cache it cannot write (its path runs through a file), generates as without one, twice", async () => {
    const dir = createProject();
    const expected = await clean(dir);
    writeFileSync(join(dir, "not-a-directory"), "");
    vi.stubEnv("TREATY_CACHE_DIR", join(dir, "not-a-directory", "cache"));
    try {
      for (let i = 0; i < 2; i++) {
        const result = await run(dir);
        expect(result.printed).toEqual(expected.printed);
        expect(snapshot(join(dir, "generated"))).toEqual(expected.tree);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("recheck's verdicts kept in the cache", () => {
  const UNSAFE = "^(a+)+$";
  const SAFE = "^[a-z][a-z0-9_]*$";
  const patternsProject = (): string => {
    const dir = createProject();
    writeFileSync(
      join(dir, "idl/demo/demo.codes.yaml"),
      `contract: demo.codes\nowner: demo-team\nversions:\n  "1.0":\n    fields:\n      nested: { type: string, maxLength: 64, pattern: "${UNSAFE}" }\n      name: { type: string, maxLength: 64, pattern: "${SAFE}" }\n`,
    );
    return dir;
  };
  const verdictsFile = (dir: string): string => join(findCacheDir(dir)!, "pattern-verdicts.json");
  /** A run in a fresh module graph: a new process's, which knows no verdict but the cache's. */
  const freshRun = async (dir: string): Promise<string[]> => {
    vi.resetModules();
    const fresh = (await import("../src/pipeline.js")) as typeof import("../src/pipeline.js");
    const result = await fresh.generate({ root: dir, idlDir: join(dir, "idl"), outDir: join(dir, "generated"), check: false });
    return result.diagnostics.map(formatDiagnostic);
  };

  it("hold each pattern's verdict for the next run, which reports the same", async () => {
    const dir = patternsProject();
    const first = await freshRun(dir);
    expect(first.some((line) => line.includes("unsafe-pattern") && line.includes(UNSAFE))).toBe(true);
    const kept = JSON.parse(readFileSync(verdictsFile(dir), "utf8")) as { entries: [string, string | null][] };
    expect(Object.fromEntries(kept.entries)).toMatchObject({ [SAFE]: null, [UNSAFE]: expect.stringContaining("exponential") });
    expect(await freshRun(dir)).toEqual(first);
  });

  // Each spoiled file claims the unsafe pattern is safe; none may be believed.
  const forge = (file: string): Record<string, unknown> => {
    const kept = JSON.parse(readFileSync(file, "utf8")) as { entries: [string, string | null][] };
    return { ...kept, entries: kept.entries.map(([pattern]) => [pattern, null]) };
  };
  const spoilers: Record<string, (file: string) => void> = {
    "forged (verdicts changed, checksum not)": (file) => writeFileSync(file, JSON.stringify(forge(file))),
    "another compiler's": (file) => writeFileSync(file, JSON.stringify({ ...forge(file), key: "0".repeat(64) })),
    corrupt: damage["corrupt"]!,
    truncated: damage["truncated"]!,
    emptied: damage["emptied"]!,
    deleted: damage["deleted"]!,
  };
  for (const [how, spoil] of Object.entries(spoilers)) {
    it(`${how}, change no diagnostic`, async () => {
      const dir = patternsProject();
      const first = await freshRun(dir);
      spoil(verdictsFile(dir));
      expect(await freshRun(dir)).toEqual(first);
    });
  }
});

// What a run worked out and the next reuses: json-schema-to-typescript's declarations, handlebars'
// precompiled templates. Each forgery changes what the next run would generate if it believed it.
const keptFiles: { name: string; file: string; forge: (entries: [string, string][]) => [string, string][] }[] = [
  { name: "json-schema-to-typescript's declarations", file: "type-declarations.json", forge: (entries) => entries.map(([hash, text]) => [hash, `// forged\n${text}`]) },
  {
    name: "handlebars' precompiled templates",
    file: "template-specs.json",
    forge: (entries) => entries.map(([name]) => [name, String(Handlebars.precompile(`// forged\n${readFileSync(join(ROOT, "templates", `${name}.hbs`), "utf8")}`, { noEscape: true, strict: true }))]),
  },
];

describe.each(keptFiles)("$name kept in the cache", ({ file, forge }) => {
  // A cache of each test's own: a forged file that verifies must never reach another test's runs.
  beforeEach(() => vi.stubEnv("TREATY_CACHE_DIR", join(scratch, `cache${++projects}`)));
  afterEach(() => vi.unstubAllEnvs());
  const keptFile = (dir: string): string => join(findCacheDir(dir)!, file);
  /** A run in a fresh module graph (a new process's, which knows nothing but the cache); the tree it leaves. */
  const freshRun = async (dir: string): Promise<Record<string, string>> => {
    vi.resetModules();
    const fresh = (await import("../src/pipeline.js")) as typeof import("../src/pipeline.js");
    rmSync(join(dir, "generated"), { recursive: true, force: true });
    await fresh.generate({ root: dir, idlDir: join(dir, "idl"), outDir: join(dir, "generated"), check: false });
    return snapshot(join(dir, "generated"));
  };
  type Kept = { format: number; key: string; entries: [string, string][]; sum: string };
  const read = (path: string): Kept => JSON.parse(readFileSync(path, "utf8")) as Kept;
  const forged = (kept: Kept): Kept => ({ ...kept, entries: forge(kept.entries) });

  it("hold what the next run reuses, and only what verifies is believed", async () => {
    const dir = createProject();
    const first = await freshRun(dir);
    const kept = read(keptFile(dir));
    expect(kept.entries.length).toBeGreaterThan(1);
    expect(await freshRun(dir)).toEqual(first);
    // Forged with a checksum that verifies: the next run generates what the file says (so it is read at all).
    const believed = forged(kept);
    writeFileSync(keptFile(dir), JSON.stringify({ ...believed, sum: contentHash(JSON.stringify([believed.format, believed.key, believed.entries])) }));
    expect(await freshRun(dir)).not.toEqual(first);
  });

  const spoilers: Record<string, (path: string) => void> = {
    "forged (entries changed, checksum not)": (path) => writeFileSync(path, JSON.stringify(forged(read(path)))),
    "another compiler's": (path) => writeFileSync(path, JSON.stringify({ ...forged(read(path)), key: "0".repeat(64) })),
    corrupt: damage["corrupt"]!,
    truncated: damage["truncated"]!,
    emptied: damage["emptied"]!,
    deleted: damage["deleted"]!,
  };
  for (const [how, spoil] of Object.entries(spoilers)) {
    it(`${how}, change no generated file`, async () => {
      const dir = createProject();
      const first = await freshRun(dir);
      spoil(keptFile(dir));
      expect(await freshRun(dir)).toEqual(first);
    });
  }
});

// The formatted files, in packs (src/format/pack-store.ts): however a pack is spoiled, a run that
// formats again (its output removed) writes what a run with no cache writes.
describe("the format cache's packs, spoiled", () => {
  beforeEach(() => vi.stubEnv("TREATY_CACHE_DIR", join(scratch, `cache${++projects}`)));
  afterEach(() => vi.unstubAllEnvs());
  const packs = (dir: string): string[] => {
    const packsDir = join(findCacheDir(dir)!, "format-packs");
    return readdirSync(packsDir).map((name) => join(packsDir, name));
  };
  const rerun = async (dir: string): Promise<Record<string, string>> => {
    rmSync(join(dir, "generated"), { recursive: true, force: true });
    await generate({ root: dir, idlDir: join(dir, "idl"), outDir: join(dir, "generated"), check: false });
    return snapshot(join(dir, "generated"));
  };
  const spoilers: Record<string, (file: string) => void> = {
    ...damage,
    // The index whole, every entry with bytes changed: each entry's own checksum must refuse it.
    "entries changed, index whole": (file) => {
      const bytes = readFileSync(file);
      const end = Number(bytes.subarray(bytes.length - 20).toString());
      for (let at = 21; at < end; at += 5) bytes[at] = bytes[at]! ^ 0x20;
      writeFileSync(file, bytes);
    },
  };
  delete spoilers["of another shape"];
  for (const [how, spoil] of Object.entries(spoilers)) {
    it(`${how}, change no generated file`, async () => {
      const dir = createProject();
      const first = await rerun(dir);
      expect(packs(dir).length).toBeGreaterThan(0);
      for (const pack of packs(dir)) spoil(pack);
      expect(await rerun(dir)).toEqual(first);
    });
  }
});
