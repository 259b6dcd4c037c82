// A process whose Object.prototype holds an enumerable key (a prototype-pollution bug elsewhere):
// every plain object then inherits it. A field the payload never had is not a field (README,
// "Fields the value only inherits are not its fields"): a required field absent from the payload
// fails though Object.prototype lends a valid value, a valid payload stays valid (its maps and
// objects gain no key), and text that names no key twice still parses.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { createRuntime } from "treaty/runtime";

const ROOT = join(import.meta.dirname, "../..");
interface Registered {
  readonly contracts: Record<string, { readonly versions: Record<string, { check(v: unknown): boolean; errors(v: unknown): { path: string; code: string }[]; read?: (v: unknown) => unknown }> }>;
}

/** The valid examples of every contract in `idl` (a directory of the repository), with the registry generated from it. */
const examplesOf = (idl: string, registered: unknown) =>
  readdirSync(join(ROOT, idl), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".yaml") && !file.endsWith(".agent.yaml"))
    .sort()
    .flatMap((file) => {
      const source = parse(readFileSync(join(ROOT, idl, file), "utf8")) as { contract: string; envelope?: string; examples?: { version: string; valid?: Record<string, unknown> }[] };
      return (source.examples ?? []).filter((e) => e.valid !== undefined && source.envelope !== "none").map((e) => ({ idl, contract: source.contract, version: e.version, value: e.valid!, registry: registered as typeof registry }));
    });

// idl/, and the fixtures whose contracts hold maps, recursive types and names of Object.prototype's members.
const FIXTURES = ["good-recursive", "good-prototype-names", "good-refs-strip", "good-shadowing-type-names"];
const examples = [
  ...examplesOf("idl", registry),
  ...(await Promise.all(FIXTURES.map(async (name) => examplesOf(`test/fixtures/${name}/idl`, (await import(/* @vite-ignore */ pathToFileURL(join(ROOT, "test/fixtures", name, "expected/index.ts")).href)).registry)))).flat(),
];

const versionOf = (registered: unknown, contract: string, version: string) => (registered as Registered).contracts[contract]!.versions[version]!;

/**
 * Runs `body` with `key: value` on Object.prototype, enumerable as an assignment makes it. A key
 * Object.prototype holds already (`__proto__`, `toString`, ...) lends nothing new and is left as it
 * is: assigned and then deleted, `__proto__`'s accessor was gone for the rest of the process, and
 * json-schema-to-typescript, run later in the same worker, declared no type at all.
 */
const pollutedWith = <T>(key: string, value: unknown, body: () => T): T => {
  if (Object.hasOwn(Object.prototype, key)) return body();
  (Object.prototype as Record<string, unknown>)[key] = value;
  try {
    return body();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
};

const members = Object.getOwnPropertyNames(Object.prototype);
afterEach(() => {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(members);
});

describe("validators and decode in a process whose Object.prototype is polluted", () => {
  it("has examples to try", () => expect(examples.length).toBeGreaterThan(20));

  it.each(examples.map((e, i) => [i, e.contract, e.version, e] as const))("example %i (%s %s): a missing required field is missing, whatever Object.prototype lends", (_, contract, version, { value, registry }) => {
    const runtime = createRuntime(registry);
    const validator = versionOf(registry, contract, version);
    for (const field of Object.keys(value).filter((k) => k !== "contract" && k !== "version")) {
      const { [field]: lent, ...without } = value;
      if (validator.check(without)) continue; // an optional field
      const [checked, issues, read, decoded, text] = pollutedWith(field, lent, () => [
        validator.check(without),
        validator.errors(without),
        validator.read?.(without),
        runtime.decode(contract as never, without),
        runtime.decode(contract as never, JSON.stringify(without)),
      ]);
      expect(checked, field).toBe(false);
      expect(issues, field).toContainEqual(expect.objectContaining({ path: `/${field}`, code: "required" }));
      expect(read, field).toBeUndefined();
      expect(decoded.ok, field).toBe(false);
      expect(text.ok, field).toBe(false);
    }
  });

  it.each(examples.map((e, i) => [i, e.contract, e.version, e] as const))("example %i (%s %s): a valid payload stays valid, as a value and as text", (_, contract, version, { value, registry }) => {
    const runtime = createRuntime(registry);
    const validator = versionOf(registry, contract, version);
    const [checked, issues, decoded, text] = pollutedWith("polluted", "x", () => [
      validator.check(value),
      validator.errors(value),
      runtime.decode(contract as never, value),
      runtime.decode(contract as never, JSON.stringify(value)),
    ]);
    expect(checked).toBe(true);
    expect(issues).toEqual([]);
    expect(decoded.ok).toBe(true);
    expect(text.ok ? "ok" : text.issues).toBe("ok");
  });
});
