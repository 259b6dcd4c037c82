// The adapt stage: for every contract, the steps between each version and its parent (both
// directions), the chain from every version to the canonical one, and the stubs a person must
// write. Runs after `check`, so the changes it replays are known to apply.
import { dirname, join, posix, relative, sep } from "node:path";
import { mismatch } from "../check/check.js";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import type { Change, Contract, Field, JsonValue, Project, ResolvedVersion } from "../ir/model.js";
import { rootFields } from "../ir/envelope.js";
import { stripsAny } from "../ir/open-objects.js";
import { contractDir } from "../ir/names.js";
import { fieldAt, type VersionModel } from "../resolve/changes.js";
import { projectType } from "./convert.js";
import type { ContractAdapters, ProjectAdapters, Step, Stub, StubsLayout, VersionAdapters } from "./model.js";
import { parentOf, replayChanges, type ReplayedChange } from "./replay.js";
import { planStep } from "./step.js";

export interface AdaptOptions {
  readonly root: string;
  readonly outDir: string;
}

const toPosix = (path: string): string => path.split(sep).join("/");

/** An import specifier from a file in `fromDir` to the module `to` (its `.ts` as `.js`). */
export const specifier = (fromDir: string, to: string): string => {
  const path = toPosix(relative(fromDir, to)).replace(/\.ts$/, ".js");
  return path.startsWith(".") ? path : `./${path}`;
};

/** `idl/<domain>/<contract>.adapters.ts` beside the contract, and the imports between it and generated code. */
export const stubsLayout = (contract: Contract, options: AdaptOptions): StubsLayout => {
  const file = posix.join(posix.dirname(contract.file), `${contract.name}.adapters.ts`);
  const generatedDir = join(options.outDir, contractDir(contract.name));
  return {
    file,
    fromGenerated: specifier(generatedDir, join(options.root, file)),
    toGenerated: specifier(dirname(join(options.root, file)), join(generatedDir, "index.ts")),
  };
};

/** A change's `default` must fit the field it fills, as a field's own default must. */
const checkDefaults = (edge: ResolvedVersion, replayed: readonly ReplayedChange[]): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  const against = (value: JsonValue | undefined, model: VersionModel, path: string, change: Change): void => {
    const field: Field | undefined = fieldAt(model.fields, path);
    if (value === undefined || !field || (value === null && field.nullable !== undefined)) return;
    const detail = mismatch(value, field.type, { ...edge, fields: model.fields, enums: model.enums });
    if (detail) diagnostics.push(createDiagnostic("default-type-mismatch", change.loc, { field: path, detail }));
  };
  for (const { change, before, after } of replayed) {
    if (change.op === "remove" || change.op === "relax" || change.op === "wrap") against(change.default, before, change.path, change);
    if (change.op === "require" || change.op === "head") against(change.default, after, change.path, change);
  }
  return diagnostics;
};

/** The versions from `version` up to the first version, `version` first. */
const lineage = (contract: Contract, version: ResolvedVersion): ResolvedVersion[] => {
  const out = [version];
  for (let parent = parentOf(contract, version); parent; parent = parentOf(contract, parent)) out.push(parent);
  return out;
};

const adaptContract = (contract: Contract, options: AdaptOptions): ContractAdapters => {
  const up = new Map<string, Step>();
  const down = new Map<string, Step>();
  const stubs = new Map<string, Stub>();
  for (const edge of contract.versions) {
    const parent = parentOf(contract, edge);
    if (!parent) continue;
    const replayed = edge.from === undefined ? [] : replayChanges(parent, edge);
    for (const direction of ["up", "down"] as const) {
      const planned = planStep({ contract, edge, parent, replayed, direction });
      (direction === "up" ? up : down).set(edge.version, planned.step);
      for (const stub of planned.stubs) {
        // A custom change's stub serves both directions: what either leaves unconverted.
        const known = stubs.get(stub.name);
        if (known?.kind === "custom" && stub.kind === "custom") stubs.set(stub.name, { ...stub, unconverted: [...new Set([...known.unconverted, ...stub.unconverted])].sort() });
        else stubs.set(stub.name, stub);
      }
    }
  }
  const canonical = contract.versions.find((v) => v.version === contract.canonical)!;
  const canonicalLine = lineage(contract, canonical);
  const versions = contract.versions.map((version): VersionAdapters => {
    const line = lineage(contract, version);
    const meet = line.findIndex((v) => canonicalLine.includes(v));
    const climb = line.slice(0, meet);
    const descend = canonicalLine.slice(0, canonicalLine.indexOf(line[meet]!)).reverse();
    const toCanonical = [...climb.map((v) => down.get(v.version)!), ...descend.map((v) => up.get(v.version)!)];
    const fromCanonical = [...[...descend].reverse().map((v) => down.get(v.version)!), ...[...climb].reverse().map((v) => up.get(v.version)!)];
    const strip = stripsAny(contract, version) ? projectType({ kind: "object", fields: rootFields(contract, version) }, version, contract) : undefined;
    return {
      version,
      path: [version.version, ...toCanonical.map((s) => s.target.version)],
      toCanonical,
      fromCanonical,
      lossless: toCanonical.every((s) => s.exact),
      revalidate: toCanonical.some((s) => s.unchecked),
      ...(strip ? { strip } : {}),
    };
  });
  const steps = contract.versions.flatMap((v) => [up.get(v.version), down.get(v.version)].filter((s): s is Step => s !== undefined));
  return {
    contract,
    canonical,
    steps,
    versions,
    stubs: [...stubs.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    layout: stubsLayout(contract, options),
  };
};

/** The defaults declared on changes (`remove`, `require`, `relax`, `wrap`, `head`) against the fields they fill. */
export const checkChangeDefaults = (project: Project): Diagnostic[] =>
  project.contracts.flatMap((contract) =>
    contract.versions.flatMap((edge) => {
      const parent = parentOf(contract, edge);
      return parent && edge.from !== undefined ? checkDefaults(edge, replayChanges(parent, edge)) : [];
    }),
  );

/** Plans the adapters of every contract of the project. Runs on a project without errors. */
export const adapt = (project: Project, options: AdaptOptions): StageResult<ProjectAdapters> => ({
  value: { contracts: new Map(project.contracts.map((contract) => [contract.name, adaptContract(contract, options)])) },
  diagnostics: [],
});
