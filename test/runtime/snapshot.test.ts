// Issue 14, JS values: what `decode` checks is what it hands over (one snapshot, read once), a
// getter or Proxy that throws is INVALID_INPUT and never an exception, and fields a value only
// inherits are not its fields. Proved on the generated task.result validators and registry.
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { check, errors, read } from "../../generated/task.result/v1_2/validator.js";
import { createRegistry, createRuntime, snapshot, type DecodeRecord } from "treaty/runtime";

const task = (): Record<string, unknown> => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-123",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://report/1", summary: "Done.", claims: [{ claim_id: "c1", text: "A claim.", evidence_refs: ["src://doc/1"] }] },
});

/** `target` with `status` SUCCESS on its first read and HACKED on every later one. */
const turncoat = (target: Record<string, unknown>) => {
  let reads = 0;
  return new Proxy(target, { get: (t, key, receiver) => (key === "status" ? (reads++ === 0 ? "SUCCESS" : "HACKED") : Reflect.get(t, key, receiver)) });
};

const throwing = (target: Record<string, unknown>, trap: keyof ProxyHandler<object>) =>
  new Proxy(target, {
    [trap]: () => {
      throw new Error("trap");
    },
  });

const withThrowingGetter = (): Record<string, unknown> => {
  const value = task();
  Object.defineProperty(value, "task_id", {
    enumerable: true,
    get: () => {
      throw new Error("getter");
    },
  });
  return value;
};

describe.each([
  // Each first `read`s the value, which checks and copies in one pass (an observed runtime too: it
  // records `read`'s copy), and copies the whole value first only where `read` cannot decide.
  ["runtime", () => createRuntime(registry)],
  ["runtime with a persist sink", () => createRuntime(registry, { persist: { write: () => {} } })],
  ["registry", () => createRegistry(registry.contracts)],
])("%s decode of JS values", (_, make) => {
  const decoder = make() as { decode(contract: string, input: unknown): { ok: boolean; value?: unknown; error?: { class: string; code: string } } };

  it("returns the value it checked, not what a Proxy answers on a second read", () => {
    const decoded = decoder.decode("task.result", turncoat(task()));
    expect(decoded.ok).toBe(true);
    const value = decoded.value as { status: string };
    expect([value.status, value.status]).toEqual(["SUCCESS", "SUCCESS"]);
  });

  it("hands over a copy: changing the input afterwards changes nothing decoded", () => {
    const input = task();
    const decoded = decoder.decode("task.result", input);
    (input["result"] as { summary: string }).summary = "changed";
    expect((decoded.value as { result: { summary: string } }).result.summary).toBe("Done.");
  });

  it.each([
    ["a throwing getter", withThrowingGetter],
    ["a Proxy whose get throws", () => throwing(task(), "get")],
    ["a Proxy whose ownKeys throws", () => throwing(task(), "ownKeys")],
    ["a nested Proxy that throws", () => ({ ...task(), result: throwing({}, "ownKeys") })],
  ])("fails %s as INVALID_INPUT, never throwing", (_, value) => {
    const decoded = decoder.decode("task.result", value());
    expect(decoded.ok).toBe(false);
    expect(decoded.error).toMatchObject({ class: "INVALID_INPUT", code: "UNPARSEABLE" });
  });

  it("fails a cyclic value as INVALID_INPUT, never throwing", () => {
    // `read` refuses it, and it fails by the unknown key the cycle hangs on, without a copy.
    const value = task();
    (value["result"] as Record<string, unknown>)["self"] = value;
    const decoded = decoder.decode("task.result", value);
    expect(decoded.ok).toBe(false);
    expect(decoded.error).toMatchObject({ class: "INVALID_INPUT", code: "SCHEMA_INVALID" });
  });

  it("judges a value that fails on its first reading and passes on the next by one reading", () => {
    // `read` refuses the first reading, errors() finds nothing in the second, and the value is
    // then copied once and the copy judged.
    let reads = 0;
    const flipping = new Proxy(task(), { get: (t, key, receiver) => (key === "status" ? (reads++ === 0 ? "HACKED" : "SUCCESS") : Reflect.get(t, key, receiver)) });
    const decoded = decoder.decode("task.result", flipping);
    expect(decoded.ok).toBe(true);
    expect((decoded.value as { status: string }).status).toBe("SUCCESS");
    expect(reads).toBe(3);
  });

  it("fails an invalid value with the issues errors() finds in it, masked", () => {
    const value = { ...task(), status: "DONE", extra: 1 };
    const decoded = decoder.decode("task.result", value) as { ok: false; issues: { path: string; code: string }[] };
    expect(decoded.issues.map((i) => [i.path, i.code])).toEqual(errors(value).map((i) => [i.path === "/extra" ? "/*" : i.path, i.code]));
  });

  it("does not count fields a value only inherits", () => {
    expect(decoder.decode("task.result", Object.create(task())).ok).toBe(false);
    // Own fields of an object of another prototype are its fields, as Ajv has it.
    expect(decoder.decode("task.result", Object.assign(Object.create({ inherited: 1 }), task())).ok).toBe(true);
  });
});

describe("generated check and errors on JS values", () => {
  it("never throw on a throwing getter or Proxy: check is false, errors has a parse issue", () => {
    for (const value of [withThrowingGetter(), throwing(task(), "get"), throwing(task(), "ownKeys"), throwing(task(), "getPrototypeOf")]) {
      expect(check(value)).toBe(false);
      expect(errors(value)).toContainEqual(expect.objectContaining({ path: "", code: "parse" }));
    }
  });

  it("read only own fields: an object with inherited fields only fails, as in Ajv", () => {
    expect(check(task())).toBe(true);
    expect(check(Object.create(task()))).toBe(false);
    expect(errors(Object.create(task()))).toContainEqual(expect.objectContaining({ path: "/contract", code: "required" }));
    const nested = { ...task(), result: Object.create(task()["result"] as object) };
    expect(check(nested)).toBe(false);
  });

  it("reject NaN and ±Infinity, which JSON cannot hold", () => {
    for (const odd of [NaN, Infinity, -Infinity]) {
      expect(check({ ...task(), usage: { model_calls: odd, tool_calls: 1 } })).toBe(false);
    }
  });
});

describe("generated read: check and snapshot in one pass", () => {
  it("reads each property once: what a Proxy answered first is what was checked and is returned", () => {
    let reads = 0;
    const value = new Proxy(task(), { get: (t, key, receiver) => (key === "status" && reads++ > 0 ? "HACKED" : Reflect.get(t, key, receiver)) });
    const copy = read(value) as { status: string } | undefined;
    expect(copy?.status).toBe("SUCCESS");
    expect(reads).toBe(1);
    // Invalid on its first read, valid after: read judges the first.
    let later = 0;
    const flipping = new Proxy(task(), { get: (t, key, receiver) => (key === "status" ? (later++ === 0 ? "HACKED" : "SUCCESS") : Reflect.get(t, key, receiver)) });
    expect(read(flipping)).toBeUndefined();
  });

  it("returns containers of its own, in the order the contract declares its fields", () => {
    const input = task();
    const copy = read({ result: input["result"], status: "SUCCESS", task_id: "TASK-123", version: "1.2", contract: "task.result" }) as unknown as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(["contract", "version", "task_id", "status", "result"]);
    expect(copy["result"]).not.toBe(input["result"]);
    expect((copy["result"] as { claims: unknown[] }).claims).not.toBe((input["result"] as { claims: unknown[] }).claims);
    expect(copy).toEqual(input);
  });

  it("is undefined, never throwing, where check is false", () => {
    for (const value of [withThrowingGetter(), throwing(task(), "get"), throwing(task(), "ownKeys"), Object.create(task()), { ...task(), extra: 1 }, null, "text"]) {
      expect(read(value)).toBeUndefined();
    }
    // Own fields of an object of another prototype are read, its inherited ones are not copied.
    const copy = read(Object.assign(Object.create({ inherited: 1 }), task()));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).not.toHaveProperty("inherited");
  });
});

describe("snapshot", () => {
  it("keeps an own __proto__ key as data, as JSON.parse does", () => {
    const copy = snapshot(JSON.parse('{"__proto__": {"x": 1}, "a": [1, {"b": 2}]}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"x":1},"a":[1,{"b":2}]}');
  });

  it("persists the snapshot, not a second read", () => {
    const records: DecodeRecord[] = [];
    const runtime = createRuntime(registry, { persist: { write: (r) => records.push(r) } });
    runtime.decode("task.result", turncoat(task()));
    expect((records[0]!.payload as { status: string }).status).toBe("SUCCESS");
  });
});
