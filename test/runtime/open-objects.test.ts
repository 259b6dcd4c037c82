// Open objects through the generated registry of good-open-objects: `keep` objects hand their
// unknown keys over on decode, carry them through adapters both ways and write them on encode;
// `strip` objects drop theirs (named in `stripped`); `reject` objects fail. Kept keys are data:
// JSON only, read once, masked in issue paths.
import { describe, expect, it } from "vitest";
import { decode, encode } from "../fixtures/good-open-objects/expected/index.js";
import { check, errors } from "../fixtures/good-open-objects/expected/demo.tool/v1_1/validator.js";
import { registration } from "../fixtures/good-open-objects/expected/demo.tool/index.js";
import { createAdaptLog, dropClaimed, isJsonData, keptKeys } from "../../src/runtime/index.js";
import { readCases } from "../../src/testing/index.js";
import { join } from "node:path";
import { adapt } from "../../src/adapt/adapt.js";
import { compile } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

const v1_1 = {
  contract: "demo.tool",
  version: "1.1",
  name: "search",
  arguments: { query: "treaty", page: 2, filters: { lang: "en" }, "io.example/x": [1, 2] },
  meta: { trace: "t-1", origin: "docs" },
  hints: { title: "Search", color: "blue" },
} as const;

describe("decode and encode", () => {
  it("keeps the unknown keys of keep objects, strips those of strip objects and names them", () => {
    const decoded = decode("demo.tool", structuredClone(v1_1));
    expect(decoded).toMatchObject({ ok: true, readAs: "1.1", stripped: ["/hints/color"], dropped: [] });
    if (!decoded.ok) return;
    expect(decoded.value).toEqual({ ...v1_1, hints: { title: "Search" } });
    const encoded = encode("demo.tool", decoded.value, "1.1");
    expect(encoded).toMatchObject({ ok: true, value: decoded.value, dropped: [] });
  });

  it("carries kept keys through every step: 1.0 → 1.1 → 1.0 gives back the value, unknown keys included", () => {
    const v1_0 = { contract: "demo.tool", version: "1.0", name: "search", arguments: { query: "q", filters: { lang: "en" } }, meta: { origin: "docs" } };
    const decoded = decode("demo.tool", structuredClone(v1_0));
    expect(decoded).toMatchObject({ ok: true, path: ["1.0", "1.1"], stripped: [], dropped: [] });
    if (!decoded.ok) return;
    expect(decoded.value).toEqual({ ...v1_0, version: "1.1" });
    expect(encode("demo.tool", decoded.value, "1.0")).toMatchObject({ ok: true, value: v1_0, dropped: [] });
  });

  it("going down, a field the older version lacks is dropped and named, and the kept keys stay", () => {
    const encoded = encode("demo.tool", { ...v1_1, hints: { title: "Search" } }, "1.0");
    expect(encoded).toMatchObject({ ok: true, dropped: [{ version: "1.1", path: "/arguments/page" }] });
    if (encoded.ok) expect(encoded.value.arguments).toEqual({ query: "treaty", filters: { lang: "en" }, "io.example/x": [1, 2] });
  });

  it("a kept object a step rebuilds (list items whose field became a kept key) carries its other keys", () => {
    const v1_0 = { contract: "demo.tool", version: "1.0", name: "n", arguments: {}, steps: [{ n: 1, retries: 2, attempt: 3 }] };
    const decoded = decode("demo.tool", structuredClone(v1_0));
    expect(decoded).toMatchObject({ ok: true, dropped: [{ version: "1.0", path: "/steps/0/retries" }] });
    if (decoded.ok) expect(decoded.value.steps).toEqual([{ n: 1, attempt: 3 }]);
    // Going down, 1.1's integer keys are 1.0's kept keys (or its `retries` field) as they are.
    const encoded = encode("demo.tool", { contract: "demo.tool", version: "1.1", name: "n", arguments: {}, steps: [{ n: 1, retries: 4, attempt: 5 }] }, "1.0");
    expect(encoded).toMatchObject({ ok: true, value: { steps: [{ n: 1, retries: 4, attempt: 5 }] } });
  });

  it("a kept key the newer version declares as a field is dropped and named, never carried unchecked or lost silently", () => {
    const v1_0 = { contract: "demo.tool", version: "1.0", name: "n", arguments: { query: "q", page: "three", other: 1 } };
    const decoded = decode("demo.tool", structuredClone(v1_0));
    expect(decoded).toMatchObject({ ok: true, path: ["1.0", "1.1"], dropped: [{ version: "1.0", path: "/arguments/page" }] });
    if (decoded.ok) expect(decoded.value.arguments).toEqual({ query: "q", other: 1 });
  });

  it("a `__proto__` key of a kept object stays an own data property, never a prototype", () => {
    const input = JSON.parse('{"contract":"demo.tool","version":"1.1","name":"n","arguments":{"__proto__":{"polluted":true}}}') as unknown;
    const decoded = decode("demo.tool", input);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const args = decoded.value.arguments as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.hasOwn(args, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("reads a kept key once: the value decoded is the one validated", () => {
    let reads = 0;
    const args = { query: "q" } as Record<string, unknown>;
    Object.defineProperty(args, "extra", { enumerable: true, get: () => (reads++ === 0 ? "first" : Number.NaN) });
    const decoded = decode("demo.tool", { contract: "demo.tool", version: "1.1", name: "n", arguments: args });
    expect(reads).toBe(1);
    expect(decoded).toMatchObject({ ok: true, value: { arguments: { query: "q", extra: "first" } } });
  });
});

describe("adapters whose target types kept keys more narrowly", () => {
  it("are unchecked: decode validates the canonical value, so an old key of another type fails there, not silently", () => {
    const step = (additional: string) => `          type: object\n          ${additional}\n          fields: { n: int }\n`;
    const root = tempProject("open-objects-narrowed", {
      "package.json": `{ "treaty": {} }\n`,
      "idl/demo.narrow.yaml": `contract: demo.narrow\nowner: team\ncompatibility: none\nversions:\n  "1.0":\n    fields:\n      steps:\n        type: list\n        of:\n${step("unknown_fields: keep")}  "1.1":\n    fields:\n      steps:\n        type: list\n        of:\n${step("additional: int")}`,
    });
    const compiled = compile({ root, idlDir: join(root, "idl") });
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const planned = adapt(compiled.value!, { root, outDir: join(root, "generated") }).value.contracts.get("demo.narrow")!;
    expect(planned.versions.map((v) => [v.version.version, v.revalidate])).toEqual([["1.0", true], ["1.1", false]]);
  });
});

describe("a field added to a kept root", () => {
  it("claims its name: the step is lossy and drops the old payload's key of that name, saying so", () => {
    const root = tempProject("open-objects-claimed", {
      "package.json": `{ "treaty": {} }\n`,
      "idl/demo.kept.yaml": `contract: demo.kept\nowner: team\nunknown_fields: keep\ncompatibility: forward\nversions:\n  "1.0":\n    fields:\n      a: int\n  "1.1":\n    changes:\n      - add: note\n        type: string\n        maxLength: 20\n        optional: true\n`,
    });
    const compiled = compile({ root, idlDir: join(root, "idl") });
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const planned = adapt(compiled.value!, { root, outDir: join(root, "generated") }).value.contracts.get("demo.kept")!;
    const up = planned.steps.find((s) => s.direction === "up")!;
    expect(up.kept).toMatchObject({ known: ["contract", "version", "a", "note"], claimed: ["note"] });
    expect(up.exact).toBe(false);
    expect(planned.versions.map((v) => [v.version.version, v.lossless])).toEqual([["1.0", false], ["1.1", true]]);
  });
});

describe("validation of kept keys", () => {
  it("fails a kept key that is not JSON data, and one of another type than additional, at its masked path", () => {
    const base = { contract: "demo.tool", version: "1.1", name: "n", arguments: {} };
    expect(check({ ...base, arguments: { x: Number.NaN } })).toBe(false);
    expect(errors({ ...base, arguments: { x: [1, () => 1] } })).toEqual([expect.objectContaining({ path: "/arguments/x", code: "type", expected: "JSON value" })]);
    const failed = decode("demo.tool", { ...base, meta: { "secret@example.com": 7 } });
    expect(failed.ok).toBe(false);
    // The key may be data (an e-mail address here): the failure masks it as a map key is masked.
    if (!failed.ok) expect(failed.issues).toEqual([expect.objectContaining({ path: "/meta/*", code: "type" })]);
  });

  it("rejects an unknown key of a reject object with `unknown`, masked", () => {
    const failed = decode("demo.tool", { contract: "demo.tool", version: "1.1", name: "n", arguments: {}, limits: { "who@example.com": 1 } });
    expect(failed).toMatchObject({ ok: false, issues: [{ path: "/limits/*", code: "unknown" }] });
  });
});

describe("the generated tests", () => {
  const suite = readCases(registration, new URL("../fixtures/good-open-objects/expected/demo.tool/demo.tool.test.ts", import.meta.url).href, "./demo.tool.cases.json");
  const cases = suite.groups.flatMap((g) => g.cases);

  it("have, per object, an unknown key that fails (reject), one kept and round-tripped (keep), one of another type than additional", () => {
    const names = cases.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([
      "1.0–1.1 rejects an unknown key in limits",
      "1.0–1.1 rejects an unknown key at the top level",
      "1.0–1.1 accepts an unknown key in arguments and keeps it",
      "1.1 accepts an unknown key in meta and keeps it",
      "1.1 rejects an unknown key in meta of another type than additional",
      "1.0–1.1 rejects an unknown key in steps[0] of another type than additional",
    ]));
    expect(names.some((n) => n.includes("unknown key in hints"))).toBe(false);
  });

  it("pass", () => {
    for (const c of cases) c.run({ expect, skip: (note) => { throw new Error(`skipped: ${note}`); } });
  });
});

describe("runtime helpers", () => {
  it("isJsonData: JSON values only, shared objects fine, cycles and deep hostile nesting bounded", () => {
    const shared = { a: 1 };
    expect(isJsonData({ a: [shared, shared], b: null, c: "x", d: true })).toBe(true);
    expect(isJsonData([Number.POSITIVE_INFINITY])).toBe(false);
    expect(isJsonData({ u: undefined })).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(isJsonData(cyclic)).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(isJsonData(deep)).toBe(true);
  });

  it("keptKeys: the own keys but the known ones, as data", () => {
    expect(keptKeys({ a: 1, b: 2, c: 3 }, ["a", "c"])).toEqual({ b: 2 });
    expect(keptKeys(undefined, ["a"])).toEqual({});
  });

  it("dropClaimed: logs each claimed name the object holds (own, defined), its pointer escaped", () => {
    const log = createAdaptLog();
    const value = Object.assign(Object.create({ inherited: 1 }) as object, { "a/b": 1, c: undefined, d: null });
    dropClaimed(value, ["a/b", "c", "d", "inherited", "absent"], log, "1.0", "/x");
    expect(log.dropped).toEqual([
      { version: "1.0", path: "/x/a~1b" },
      { version: "1.0", path: "/x/d" },
    ]);
    dropClaimed([1], ["0"], log, "1.0", "");
    expect(log.dropped).toHaveLength(2);
  });
});
