// The format stage: prettier with fixed options, and a cache of its results that never changes
// what a run produces (a hit is byte-identical to formatting again; --check writes nothing).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  };
  return { cache, calls };
};

const contentsOf = async (files: readonly EmittedFile[], cache: FormatCache): Promise<string[]> =>
  (await format(files, cache)).value.map((f) => f.contents);

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
    await format(FILES.slice(0, 1), createFormatCache(dir, { readOnly: false }));
    const { cache, calls } = spy(createFormatCache(dir, { readOnly: true }));
    await format(FILES, cache);
    const entries = readdirSync(join(dir, "formatted"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(entries).toHaveLength(1);
    expect(calls.get).toBe(PRETTIER_FILES);
  });

  it("writes entries off the main thread: served from memory until flushed, on disk after", async () => {
    const dir = freshDir();
    const cache = createFormatCache(dir, { readOnly: false });
    expect(cache.get("ab".padEnd(64, "0"))).toBeUndefined();
    cache.set("ab".padEnd(64, "0"), "export {};\n");
    expect(cache.get("ab".padEnd(64, "0"))).toBe("export {};\n");
    expect(createFormatCache(dir, { readOnly: true }).get("ab".padEnd(64, "0"))).toBe("export {};\n");
    // No temporary file is left beside it.
    expect(readdirSync(join(dir, "formatted", "ab"))).toEqual(["0".repeat(62)]);
  });

  it("runs uncached, silently, where the cache cannot be written", async () => {
    const blocked = join(freshDir(), "file");
    mkdirSync(join(blocked, ".."), { recursive: true });
    writeFileSync(blocked, "not a directory\n");
    expect(await contentsOf(FILES, createFormatCache(blocked, { readOnly: false }))).toEqual(await contentsOf(FILES, noCache));
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
