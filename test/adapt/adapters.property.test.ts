// Property tests of the generated adapters, for every version of every contract in idl/ and in the
// golden fixtures: values generated from each version's JSON Schema reach the canonical model valid,
// come back unchanged wherever the chain is lossless, lossy steps put in exactly their declared
// defaults, and every older example decodes into a valid canonical value.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { adapt } from "../../src/adapt/adapt.js";
import type { ContractAdapters } from "../../src/adapt/model.js";
import { contractDir, versionId } from "../../src/ir/names.js";
import { compile } from "../../src/pipeline.js";
import { createAdaptLog, type AdaptLog, type Decoded, type Failure, type Issue } from "../../src/runtime/index.js";
import { arbitraryFor } from "../support/arbitrary.js";
import { targets } from "../support/targets.js";

const RUNS = 150;

interface VersionModule {
  check(value: unknown): boolean;
  errors(value: unknown): Issue[];
}
interface VersionAdapters {
  toCanonical(value: unknown, log: AdaptLog): unknown;
  fromCanonical(value: unknown, log: AdaptLog): unknown;
}
type AdaptersModule = { adapters: Record<string, VersionAdapters> } & Record<string, unknown>;
interface IndexModule {
  decode(contract: string, input: unknown, options?: { version?: string }): Decoded<unknown> | Failure;
}

/** The value at a JSON pointer (segments without escapes: field names and indexes). */
const at = (value: unknown, pointer: string): unknown =>
  pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

const pointer = (path: readonly string[]): string => path.map((s) => `/${s}`).join("");

const run = (property: fc.IPropertyWithHooks<[unknown]> | fc.IProperty<[unknown]>) => fc.assert(property, { numRuns: RUNS });

for (const target of targets) {
  const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
  const planned = adapt(project, { root: target.root, outDir: target.out }).value;

  describe(`${target.name}: adapters`, () => {
    for (const contract of project.contracts) {
      const model: ContractAdapters = planned.contracts.get(contract.name)!;
      const dir = join(target.out, contractDir(contract.name));
      const load = async () => {
        const modules = new Map<string, VersionModule>();
        const schemas = new Map<string, Record<string, unknown>>();
        for (const v of contract.versions) {
          modules.set(v.version, (await import(join(dir, versionId(v.version), "index.ts"))) as VersionModule);
          schemas.set(v.version, JSON.parse(readFileSync(join(dir, versionId(v.version), "schema.json"), "utf8")) as Record<string, unknown>);
        }
        const generated = (await import(join(dir, "adapters.ts"))) as AdaptersModule;
        const valid = (version: string) => {
          const schema = schemas.get(version)!;
          return arbitraryFor(schema).filter((value) => modules.get(version)!.check(value));
        };
        return { modules, generated, valid };
      };

      for (const version of model.versions) {
        const v = version.version.version;
        it(`${contract.name} ${v} → canonical ${model.canonical.version}${version.lossless ? " → back, unchanged" : ""}`, async () => {
          const { modules, generated, valid } = await load();
          const canonical = modules.get(model.canonical.version)!;
          const adapters = generated.adapters[v]!;
          run(
            fc.property(valid(v), (value) => {
              const converted = adapters.toCanonical(value, createAdaptLog());
              if (!version.revalidate) expect(canonical.errors(converted)).toEqual([]);
              if (version.lossless) expect(adapters.fromCanonical(converted, createAdaptLog())).toEqual(value);
            }),
          );
        });

        const exactBack = version.fromCanonical.every((s) => s.exact);
        const checkedBack = version.fromCanonical.every((s) => !s.unchecked);
        it(`${contract.name} canonical → ${v}${checkedBack ? ", valid" : ""}${exactBack ? " → canonical, unchanged" : ""}`, async () => {
          const { modules, generated, valid } = await load();
          const adapters = generated.adapters[v]!;
          run(
            fc.property(valid(model.canonical.version), (value) => {
              const converted = adapters.fromCanonical(value, createAdaptLog());
              if (checkedBack) expect(modules.get(v)!.errors(converted)).toEqual([]);
              if (exactBack) expect(adapters.toCanonical(converted, createAdaptLog())).toEqual(value);
            }),
          );
        });
      }

      for (const step of model.steps.filter((s) => s.exact)) {
        const reverse = model.steps.find((s) => s.source === step.target && s.target === step.source)!;
        it(`${contract.name} ${step.name} then ${reverse.name} gives every value back`, async () => {
          const { generated, valid } = await load();
          const [there, back] = [step, reverse].map((s) => generated[s.name] as (value: unknown, log: AdaptLog) => unknown);
          run(
            fc.property(valid(step.source.version), (value) => {
              expect(back!(there!(value, createAdaptLog()), createAdaptLog())).toEqual(value);
            }),
          );
        });
      }

      for (const step of model.steps.filter((s) => s.defaults.length > 0)) {
        it(`${contract.name} ${step.name} fills in exactly its declared defaults`, async () => {
          const { generated, valid } = await load();
          const convert = generated[step.name] as (value: unknown, log: AdaptLog) => unknown;
          const declared = new Map(step.defaults.map((d) => [pointer(d.path), d.value]));
          run(
            fc.property(valid(step.source.version), (value) => {
              const log = createAdaptLog();
              const converted = convert(value, log);
              for (const fill of log.filled) {
                expect(fill.version).toBe(step.target.version);
                expect(declared.has(fill.path), fill.path).toBe(true);
                expect(at(converted, fill.path)).toEqual(declared.get(fill.path));
              }
            }),
          );
        });
      }

      it(`${contract.name}: every older example decodes into a valid canonical ${model.canonical.version}`, async () => {
        const { modules } = await load();
        const { decode } = (await import(join(target.out, "index.ts"))) as IndexModule;
        const source = parse(readFileSync(join(target.root, contract.file), "utf8")) as { examples?: { version: string; valid?: unknown }[] };
        const older = (source.examples ?? []).filter((e) => "valid" in e && e.version !== model.canonical.version);
        for (const example of older) {
          // Without an envelope, the boundary names the version.
          const result = decode(contract.name, example.valid, contract.envelope === "none" ? { version: example.version } : {});
          expect(result.ok ? [] : result.error, `${example.version}`).toEqual([]);
          if (result.ok) expect(modules.get(model.canonical.version)!.errors(result.value)).toEqual([]);
        }
      });
    }
  });
}
