// The format stage: prettier with fixed options, and a cache of its results that never changes
// what a run produces (a hit is byte-identical to formatting again; --check writes nothing).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { check as prettierCheck } from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import type { EmittedFile } from "../../src/emit/file-builder.js";
import { createFormatCache, findCacheDir, formatKey, type FormatCache } from "../../src/format/format-cache.js";
import { format } from "../../src/format/format.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";

const ROOT = join(import.meta.dirname, "../..");
const scratch = mkdtempSync(join(tmpdir(), "treaty-format-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => join(scratch, `d${++dirs}`);

const ts = (path: string, contents: string): EmittedFile => ({ path, contents, language: "typescript" });
const json = (path: string, contents: string): EmittedFile => ({ path, contents, language: "json" });
const FILES = [
  ts("a.ts", "export function check(value:unknown):boolean{return typeof value==='object'&&value!==null}\n"),
  json("a.json", '{"type":"object","required":["a","b"]}'),
  ts("b.ts", "const x = {a:1,\n b:2}\n"),
];

/** Counts what `inner` is asked. */
const spy = (inner: FormatCache) => {
  const calls = { get: 0, set: 0 };
  const cache: FormatCache = {
    get: (key) => (calls.get++, inner.get(key)),
    set: (key, formatted) => (calls.set++, inner.set(key, formatted)),
    close: () => inner.close(),
  };
  return { cache, calls };
};

/** The files formatted through `cache`, which is closed after (its pack then on disk for the next). */
const contentsOf = async (files: readonly EmittedFile[], cache: FormatCache): Promise<string[]> => {
  try {
    return (await format(files, cache)).value.map((f) => f.contents);
  } finally {
    cache.close();
  }
};

const noCache = createFormatCache(undefined, { readOnly: false });
/** The files prettier formats, so the cache holds: JSON is printed in its layout without it (src/format/json-layout.ts). */
const PRETTIER_FILES = FILES.filter((f) => f.language !== "json").length;

describe("format", () => {
  it("prints with the fixed options and keeps paths and languages", async () => {
    const { value } = await format(FILES, noCache);
    expect(value.map((f) => [f.path, f.language])).toEqual(FILES.map((f) => [f.path, f.language]));
    expect(value[0]!.contents).toBe(
      'export function check(value: unknown): boolean {\n  return typeof value === "object" && value !== null;\n}\n',
    );
    expect(value[1]!.contents).toBe('{ "type": "object", "required": ["a", "b"] }\n');
  });

  it("serves a repeat from the cache, byte-identical to formatting it cold", async () => {
    const dir = freshDir();
    const cold = await contentsOf(FILES, noCache);
    const first = spy(createFormatCache(dir, { readOnly: false }));
    expect(await contentsOf(FILES, first.cache)).toEqual(cold);
    expect(first.calls.set).toBe(PRETTIER_FILES);
    const second = spy(createFormatCache(dir, { readOnly: false }));
    expect(await contentsOf(FILES, second.cache)).toEqual(cold);
    expect(second.calls.set).toBe(0);
  });

  it("formats each distinct file once", async () => {
    const { cache, calls } = spy(createFormatCache(freshDir(), { readOnly: false }));
    const twins = [ts("x/index.ts", "export {}\n"), ts("y/index.ts", "export {}\n")];
    expect(await contentsOf(twins, cache)).toEqual(["export {};\n", "export {};\n"]);
    expect(calls).toEqual({ get: 1, set: 1 });
  });

  it("with readOnly (--check), reads the cache but never writes it", async () => {
    const dir = freshDir();
    await contentsOf(FILES.slice(0, 1), createFormatCache(dir, { readOnly: false }));
    const before = readdirSync(join(dir, "format-packs"));
    const { cache, calls } = spy(createFormatCache(dir, { readOnly: true }));
    await contentsOf(FILES, cache);
    expect(readdirSync(join(dir, "format-packs"))).toEqual(before);
    expect(before).toHaveLength(1);
    expect(calls.get).toBe(PRETTIER_FILES);
  });

  it("serves an entry at once to the run that set it, and to the next run once closed, from one pack with no temporary file beside it", () => {
    const dir = freshDir();
    const key = "ab".padEnd(64, "0");
    const cache = createFormatCache(dir, { readOnly: false });
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, "export {};\n");
    expect(cache.get(key)).toBe("export {};\n");
    // Not whole yet: another run does not see it.
    expect(createFormatCache(dir, { readOnly: true }).get(key)).toBeUndefined();
    cache.close();
    expect(createFormatCache(dir, { readOnly: true }).get(key)).toBe("export {};\n");
    expect(readdirSync(join(dir, "format-packs"))).toEqual([expect.stringMatching(/^\d{15}-\d{6}-\d+-[0-9a-z]+\.pack$/)]);
  });

  it("removes the entry-a-file store of earlier versions once it writes a pack", async () => {
    const dir = freshDir();
    mkdirSync(join(dir, "formatted", "ab"), { recursive: true });
    writeFileSync(join(dir, "formatted", "ab", "0".repeat(62)), "export {};\n");
    await contentsOf(FILES, createFormatCache(dir, { readOnly: false }));
    expect(readdirSync(dir)).toEqual(["format-packs"]);
  });

  it("runs uncached, silently, where the cache cannot be written", async () => {
    const blocked = join(freshDir(), "file");
    mkdirSync(join(blocked, ".."), { recursive: true });
    writeFileSync(blocked, "not a directory\n");
    expect(await contentsOf(FILES, createFormatCache(blocked, { readOnly: false }))).toEqual(await contentsOf(FILES, noCache));
  });
});

describe("the cache's packs", () => {
  const packsOf = (dir: string): string[] => readdirSync(join(dir, "format-packs")).sort();
  const key = (n: number): string => String(n).padStart(64, "0");
  /** One run that sets `entries` and closes. */
  const run = (dir: string, entries: Record<number, string>, limits?: { packs: number; bytes: number }): void => {
    const cache = createFormatCache(dir, { readOnly: false, ...(limits && { limits }) });
    for (const [n, text] of Object.entries(entries)) cache.set(key(Number(n)), text);
    cache.close();
  };
  const read = (dir: string, n: number): string | undefined => {
    const cache = createFormatCache(dir, { readOnly: true });
    try {
      return cache.get(key(n));
    } finally {
      cache.close();
    }
  };
  const MAGIC = "treaty format pack 2\n".length;

  it("believe no entry whose bytes changed, and nothing of a pack cut short, emptied or not a pack", () => {
    const spoil: Record<string, (file: string) => void> = {
      "an entry's byte": (file) => {
        const bytes = readFileSync(file);
        bytes[MAGIC] = bytes[MAGIC]! ^ 0x20;
        writeFileSync(file, bytes);
      },
      "the index's byte": (file) => {
        const bytes = readFileSync(file);
        bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 0x01;
        writeFileSync(file, bytes);
      },
      truncated: (file) => writeFileSync(file, readFileSync(file).subarray(0, Math.floor(readFileSync(file).length / 2))),
      emptied: (file) => writeFileSync(file, ""),
      "another file": (file) => writeFileSync(file, "x".repeat(200)),
      "a trailer past the end": (file) => {
        const bytes = readFileSync(file);
        bytes.write("9".repeat(19), bytes.length - 20);
        writeFileSync(file, bytes);
      },
    };
    for (const [how, damage] of Object.entries(spoil)) {
      const dir = freshDir();
      run(dir, { 1: "export const a = 1;\n", 2: "export const b = 2;\n" });
      expect(read(dir, 2), how).toBe("export const b = 2;\n");
      damage(join(dir, "format-packs", packsOf(dir)[0]!));
      expect(read(dir, 1), how).toBeUndefined();
      if (how !== "an entry's byte") expect(read(dir, 2), how).toBeUndefined();
      else expect(read(dir, 2), how).toBe("export const b = 2;\n");
    }
  });

  it("are merged past the limit, all but the largest, the latest entry of a key kept", () => {
    const dir = freshDir();
    const limits = { packs: 4, bytes: 2 ** 30 };
    run(dir, { 1: "x".repeat(10_000), 2: "first\n" }, limits);
    const largest = packsOf(dir)[0]!;
    for (let i = 3; i <= 6; i++) run(dir, { [i]: `pack ${i}\n`, 2: `from pack ${i}\n` }, limits);
    // Five packs: the four small ones became one.
    expect(packsOf(dir)).toHaveLength(2);
    expect(packsOf(dir)).toContain(largest);
    expect([1, 2, 3, 4, 5, 6].map((n) => read(dir, n))).toEqual(["x".repeat(10_000), "from pack 6\n", "pack 3\n", "pack 4\n", "pack 5\n", "pack 6\n"]);
    // A later run's entry still wins over the merged pack's.
    run(dir, { 2: "latest\n" }, limits);
    expect(read(dir, 2)).toBe("latest\n");
  });

  it("keep at most their byte limit, the oldest packs dropped first", () => {
    const dir = freshDir();
    const limits = { packs: 100, bytes: 3_000 };
    for (let i = 1; i <= 4; i++) run(dir, { [i]: String(i).repeat(1_000) }, limits);
    expect([1, 2, 3, 4].map((n) => read(dir, n) !== undefined)).toEqual([false, false, true, true]);
  });

  it("remove a killed run's unfinished pack once it is old, never a running one's", () => {
    const dir = freshDir();
    run(dir, { 1: "a\n" });
    const abandoned = join(dir, "format-packs", "000000000000001-000000-1-dead.pack.tmp");
    const running = join(dir, "format-packs", "000000000000002-000000-2-live.pack.tmp");
    writeFileSync(abandoned, "treaty format pack 2\n");
    writeFileSync(running, "treaty format pack 2\n");
    const day = (Date.now() - 24 * 3600 * 1000) / 1000;
    utimesSync(abandoned, day, day);
    expect(read(dir, 1)).toBe("a\n");
    run(dir, { 2: "b\n" });
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });

  it("serve a run whose packs another run merges and removes meanwhile", () => {
    const dir = freshDir();
    const limits = { packs: 2, bytes: 2 ** 30 };
    run(dir, { 1: "x".repeat(5_000) }, limits);
    run(dir, { 2: "two\n" }, limits);
    const reader = createFormatCache(dir, { readOnly: true });
    expect(reader.get(key(2))).toBe("two\n"); // every pack opened
    run(dir, { 3: "three\n" }, limits); // merges the small packs, removing the one `reader` reads
    expect(packsOf(dir)).toHaveLength(2);
    expect(reader.get(key(2))).toBe("two\n");
    reader.close();
  });
});

describe("formatKey", () => {
  it("depends on the contents and the language, nothing else", () => {
    const a = ts("a.ts", "const a = 1;\n");
    expect(formatKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(formatKey(a)).toBe(formatKey(ts("elsewhere/b.ts", "const a = 1;\n")));
    expect(formatKey(a)).not.toBe(formatKey(ts("a.ts", "const a = 2;\n")));
    expect(formatKey(a)).not.toBe(formatKey(json("a.ts", "const a = 1;\n")));
  });
});

/** Runs `body` without the run-wide TREATY_CACHE_DIR that test/support/setup.ts sets. */
const withoutCacheDirEnv = async <T>(body: () => T | Promise<T>): Promise<T> => {
  const saved = process.env["TREATY_CACHE_DIR"];
  delete process.env["TREATY_CACHE_DIR"];
  try {
    return await body();
  } finally {
    if (saved !== undefined) process.env["TREATY_CACHE_DIR"] = saved;
  }
};

describe("findCacheDir", () => {
  it("is TREATY_CACHE_DIR when set", async () => {
    const dir = freshDir();
    await withoutCacheDirEnv(() => {
      process.env["TREATY_CACHE_DIR"] = dir;
      expect(findCacheDir(join(ROOT, "test/fixtures/good-kitchen-sink"))).toBe(dir);
      delete process.env["TREATY_CACHE_DIR"];
    });
  });

  it("is node_modules/.cache/treaty of the nearest package", () => withoutCacheDirEnv(() => {
    expect(findCacheDir(join(ROOT, "test/fixtures/good-kitchen-sink"))).toBe(join(ROOT, "node_modules/.cache/treaty"));
    const project = freshDir();
    mkdirSync(join(project, "idl/deep"), { recursive: true });
    writeFileSync(join(project, "package.json"), "{}\n");
    expect(findCacheDir(join(project, "idl/deep"))).toBe(join(project, "node_modules/.cache/treaty"));
  }));
});

const treeOf = (dir: string): Map<string, string> =>
  new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [relative(dir, join(e.parentPath, e.name)).split(sep).join("/"), readFileSync(join(e.parentPath, e.name), "utf8")] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

describe("generated files", () => {
  // formatting uses the babel-ts parser for speed; users check with prettier's default for .ts. This
  // also proves the files treaty lays out without prettier (JSON) are in prettier's format.
  it("are exactly what prettier's typescript parser prints, in generated/ and every golden", async () => {
    const dirs = [join(ROOT, "generated"), ...readdirSync(join(ROOT, "test/fixtures")).map((c) => join(ROOT, "test/fixtures", c, "expected"))];
    let checked = 0;
    for (const dir of dirs.filter((d) => existsSync(d))) {
      for (const [path, contents] of treeOf(dir)) {
        const parser = path.endsWith(".json") ? "json" : "typescript";
        expect(await prettierCheck(contents, { ...PRETTIER_OPTIONS, parser }), join(dir, path)).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("are the same from a cold and a warm cache, and --check leaves the cache alone", () => withoutCacheDirEnv(async () => {
    const project = freshDir();
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "package.json"), "{}\n");
    cpSync(join(ROOT, "test/fixtures/good-kitchen-sink/idl"), join(project, "idl"), { recursive: true });
    const run = (args: string[]) => runCli(args, { cwd: project, stdout: () => {}, stderr: () => {} });
    const cacheDir = join(project, "node_modules/.cache/treaty");

    expect(await run(["generate", "--check", "--out", "cold"])).toBe(1);
    expect(existsSync(cacheDir)).toBe(false);
    expect(await run(["generate", "--out", "cold"])).toBe(0);
    expect(existsSync(cacheDir)).toBe(true);
    expect(await run(["generate", "--out", "warm"])).toBe(0);
    expect(treeOf(join(project, "warm"))).toEqual(treeOf(join(project, "cold")));
  }));
});
