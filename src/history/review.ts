// `treaty diff`: what changed in the contracts since a ref, for a reviewer. `diffReport` builds the
// data (printed as JSON with --format json); `reviewMarkdown` renders the same data for a pull request.
import { promisedDirections } from "../check/bump-rules.js";
import { bumpNeeded } from "../compat/bump-needed.js";
import type { Bump, Difference, Verdict } from "../compat/difference.js";
import { formatLocation, sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Contract, Field, LlmProvider, Project, ResolvedVersion, SourceLocation, TypeNode } from "../ir/model.js";
import type { LedgerEntry } from "../project/model.js";
import { ledgerChanges, versionProjections } from "../project/report.js";
import { schemaDifferences, versionChanges, type VersionChange } from "./against.js";

export type ReviewStatus = "new" | "edited" | "removed";

export interface ReviewChange {
  readonly kind: Difference["kind"];
  /** JSON pointer of the place in the payload ("" for the root). */
  readonly path: string;
  readonly change: string;
  readonly backward: Verdict;
  readonly forward: Verdict;
  /** Where the change is written, as `check` reports it. */
  readonly loc?: SourceLocation;
}

export interface ReviewField {
  /** Dotted through inline objects. */
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
}

/** How a new version's projection for one provider differs from the one of the version it builds on. */
export interface ReviewProjection {
  readonly provider: LlmProvider;
  /** Ledger entries: constraints the provider does not enforce now that it did (or that did not exist), and the reverse. */
  readonly added: readonly LedgerEntry[];
  readonly removed: readonly LedgerEntry[];
  /** Pointers of optional fields written as nullable for the provider now, and no longer. */
  readonly widened: { readonly added: readonly string[]; readonly removed: readonly string[] };
}

export interface ReviewVersion {
  readonly version: string;
  readonly status: ReviewStatus;
  readonly draft: boolean;
  /** New versions: the version compared against (the one it builds on); absent for a first version. */
  readonly base?: string;
  /** New versions with a base: the bump their changes need under the contract's `compatibility`, and the one declared. */
  readonly bump?: { readonly needed: Bump; readonly declared: "major" | "minor" };
  /** A first version: its fields. */
  readonly fields?: readonly ReviewField[];
  /** Edited versions: only documentation changed. */
  readonly documentationOnly?: boolean;
  /** Edited versions: the version whose edit changes this one's schema too (it builds on it). */
  readonly changedThrough?: string;
  /** New versions with a base: the providers whose projection differs from `base`'s, in provider order. */
  readonly projections?: readonly ReviewProjection[];
  /** Schema changes: against the ref for an edited version, against `base` for a new one. */
  readonly changes: readonly ReviewChange[];
  readonly deprecations: readonly { readonly field: string; readonly use?: string }[];
}

export interface ReviewContract {
  readonly contract: string;
  readonly file: string;
  readonly owner?: string;
  readonly status: ReviewStatus;
  readonly versions: readonly ReviewVersion[];
  /** The findings located in the contract's file (in the ref's, for a removed contract). */
  readonly diagnostics: readonly Diagnostic[];
}

export interface DiffReport {
  readonly ref: string;
  /** Counts of all findings, those without a contract's file included. */
  readonly errors: number;
  readonly warnings: number;
  /** Contracts with a new, edited or removed version, by name. */
  readonly contracts: readonly ReviewContract[];
}

/** A short text for a field's type, as the IDL spells it. */
const typeLabel = (type: TypeNode): string => {
  switch (type.kind) {
    case "ref":
      return `ref<${type.scheme}>`;
    case "list":
    case "map":
      return `${type.kind} of ${typeLabel(type.of)}`;
    case "tuple":
      return `tuple of ${type.items.map(typeLabel).join(", ")}`;
    case "union":
      return `union on ${type.tag}`;
    case "oneOf":
      return type.variants.map((v) => typeLabel(v.type)).join(" | ");
    case "const":
      return `const ${JSON.stringify(type.value)}`;
    case "enum":
    case "named":
      return type.name;
    case "contract":
      return `${type.contract}@${type.major}`;
    default:
      return type.kind;
  }
};

const fieldList = (fields: readonly Field[], prefix = ""): ReviewField[] =>
  fields.flatMap((f) => [
    { path: prefix + f.name, type: typeLabel(f.type), required: !f.optional },
    ...(f.type.kind === "object" ? fieldList(f.type.fields, `${prefix}${f.name}.`) : []),
  ]);

const deprecations = (fields: readonly Field[], version: string, prefix = ""): ReviewVersion["deprecations"] =>
  fields.flatMap((f) => [
    ...(f.deprecated?.since === version ? [f.deprecated.use === undefined ? { field: prefix + f.name } : { field: prefix + f.name, use: f.deprecated.use }] : []),
    ...(f.type.kind === "object" ? deprecations(f.type.fields, version, `${prefix}${f.name}.`) : []),
  ]);

const reviewChange = (d: Difference): ReviewChange => ({
  kind: d.kind,
  path: d.path,
  change: d.reason,
  backward: d.backward,
  forward: d.forward,
  ...(d.loc ? { loc: d.loc } : {}),
});

const removedVersion = (version: ResolvedVersion): ReviewVersion => ({ version: version.version, status: "removed", draft: version.status === "draft", changes: [], deprecations: [] });

/** The providers whose projection of `version` differs from that of `base` (the contract's providers are the same for both). */
const projectionChanges = (project: Project, contract: Contract, base: ResolvedVersion, version: ResolvedVersion): ReviewProjection[] => {
  const before = versionProjections(project, contract, base).providers;
  return versionProjections(project, contract, version).providers.flatMap((now, i) => {
    const then = before[i]!;
    if (now.status === "opted-out" || then.status === "opted-out") return [];
    const ledger = ledgerChanges(then.ledger, now.ledger);
    const widened = { added: now.widened.filter((p) => !then.widened.includes(p)), removed: then.widened.filter((p) => !now.widened.includes(p)) };
    const changed = ledger.added.length + ledger.removed.length + widened.added.length + widened.removed.length > 0;
    return changed ? [{ provider: now.provider, ...ledger, widened }] : [];
  });
};

/** A version worth a reviewer's look, or undefined for one that did not change. */
const reviewVersion = (project: Project, change: VersionChange): ReviewVersion | undefined => {
  const { contract, version } = change;
  const schema = schemaDifferences(change.differences);
  // Whether it may change is the ref's say for a version there (as `check --against` has it), its own for a new one.
  const draft = (change.before?.version ?? version).status === "draft";
  const common = (status: ReviewStatus) => ({ version: version.version, status, draft, changes: schema.map(reviewChange), deprecations: deprecations(version.fields, version.version) });
  if (change.before) {
    const through = change.inherited && schemaDifferences(change.inherited.differences).length > 0 ? { changedThrough: change.inherited.from } : {};
    if (change.differences.length === 0 && !through.changedThrough) return undefined;
    return { ...common("edited"), documentationOnly: schema.length === 0 && !through.changedThrough, ...through };
  }
  if (change.base === undefined) return { ...common("new"), fields: fieldList(version.fields) };
  const bump = { needed: bumpNeeded(change.differences, promisedDirections(contract)), declared: version.minor === 0 ? "major" : "minor" } as const;
  return { ...common("new"), base: change.base.version, bump, projections: projectionChanges(project, contract, change.base, version) };
};

/** What changed in `now` since `then` (the project at `ref`); `findings` are the current diagnostics. */
export const diffReport = (now: Project, then: Project, ref: string, findings: readonly Diagnostic[]): DiffReport => {
  const changes = versionChanges(now, then);
  const contracts: ReviewContract[] = [];
  for (const contract of now.contracts) {
    const old = then.contracts.find((c) => c.name === contract.name);
    const removed = (old?.versions ?? []).filter((v) => !contract.versions.some((current) => current.version === v.version)).map(removedVersion);
    const versions = [...changes.filter((c) => c.contract === contract).flatMap((c) => reviewVersion(now, c) ?? []), ...removed];
    if (versions.length === 0 && old) continue;
    const diagnostics = sortDiagnostics(findings.filter((d) => d.loc?.file === contract.file));
    contracts.push({ contract: contract.name, file: contract.file, ...(contract.owner ? { owner: contract.owner } : {}), status: old ? "edited" : "new", versions, diagnostics });
  }
  for (const old of then.contracts) {
    if (now.contracts.some((c) => c.name === old.name)) continue;
    // Findings about a removed contract point into the ref's file (`ref:path`).
    const diagnostics = sortDiagnostics(findings.filter((d) => d.loc?.file === `${ref}:${old.file}`));
    contracts.push({ contract: old.name, file: old.file, ...(old.owner ? { owner: old.owner } : {}), status: "removed", versions: old.versions.map(removedVersion), diagnostics });
  }
  contracts.sort((a, b) => (a.contract < b.contract ? -1 : a.contract > b.contract ? 1 : 0));
  const errors = findings.filter((d) => d.severity === "error").length;
  return { ref, errors, warnings: findings.length - errors, contracts };
};

// ---- Markdown ----------------------------------------------------------------------------------

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const verdict = (v: Verdict): string => (v === "breaking" ? "❌ breaking" : "✅ compatible");
const located = (loc: SourceLocation | undefined): string => (loc ? `\`${formatLocation(loc)}\`` : "");
const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

const changeTable = (changes: readonly ReviewChange[]): string[] => [
  "| Change | Where | Backward (new reads old) | Forward (old reads new) | Source |",
  "| --- | --- | --- | --- | --- |",
  ...changes.map((c) => `| ${cell(c.change)} | \`${c.path || "/"}\` | ${verdict(c.backward)} | ${verdict(c.forward)} | ${located(c.loc)} |`),
];

const fieldTable = (fields: readonly ReviewField[]): string[] => [
  "| Field | Type | Required |",
  "| --- | --- | --- |",
  ...fields.map((f) => `| \`${f.path}\` | ${cell(f.type)} | ${f.required ? "yes" : "no"} |`),
];

const ledgerCell = (e: LedgerEntry): string => cell(`${e.constraint}: ${e.words}`);

/** One row per ledger entry or nullable field that differs, so a reviewer sees what the provider stops or starts enforcing. */
const projectionTable = (projections: readonly ReviewProjection[], base: string): string[] => [
  `LLM projections that differ from ${base}'s (the ledger: what the provider does not enforce; the contract's validator still does):`,
  "",
  "| Provider | Change | Where | Constraint |",
  "| --- | --- | --- | --- |",
  ...projections.flatMap((p) => [
    ...p.added.map((e) => `| ${p.provider} | added to the ledger | \`${e.path}\` | ${ledgerCell(e)} |`),
    ...p.removed.map((e) => `| ${p.provider} | removed from the ledger | \`${e.path}\` | ${ledgerCell(e)} |`),
    ...p.widened.added.map((path) => `| ${p.provider} | may be null for absent | \`${path}\` | |`),
    ...p.widened.removed.map((path) => `| ${p.provider} | no longer null for absent | \`${path}\` | |`),
  ]),
];

const versionLines = (v: ReviewVersion, ref: string): string[] => {
  const draft = v.draft ? ", draft" : "";
  switch (v.status) {
    case "removed":
      return [`#### ${v.version} (removed${draft})`, "", v.draft ? `A draft at \`${ref}\`; no longer defined.` : `**Published at \`${ref}\`; no longer defined.**`, ""];
    case "edited": {
      if (v.documentationOnly) return [`#### ${v.version} (documentation edited${draft})`, ""];
      const note = v.draft ? "draft, may change" : `**published at \`${ref}\`: must not change**`;
      const through = v.changedThrough ? [`Builds on ${v.changedThrough}: the edit of ${v.changedThrough} changes it too.`, ""] : [];
      const own = v.changes.length > 0 ? [...changeTable(v.changes), ""] : [];
      return [`#### ${v.version} (${v.changes.length > 0 ? "edited in place" : `changed through ${v.changedThrough}`}; ${note})`, "", ...through, ...own];
    }
    case "new": {
      const lines = [`#### ${v.version} (new${draft})`, ""];
      if (v.fields) lines.push(`First version of the contract, with ${plural(v.fields.length, "field")}:`, "", ...fieldTable(v.fields));
      else if (v.changes.length === 0) lines.push(`No schema change against ${v.base}.`);
      else lines.push(`Against ${v.base}: needs a **${v.bump!.needed}** bump; declared as ${v.bump!.declared}.`, "", ...changeTable(v.changes));
      if (v.projections && v.projections.length > 0) lines.push("", ...projectionTable(v.projections, v.base!));
      if (v.deprecations.length > 0) {
        lines.push("", "Deprecations:", ...v.deprecations.map((d) => `- \`${d.field}\` is deprecated${d.use ? `: use \`${d.use}\`` : ""}.`));
      }
      return [...lines, ""];
    }
  }
};

/** The report as Markdown for a pull request. */
export const reviewMarkdown = (report: DiffReport): string => {
  const out = [`## Contract changes since \`${report.ref}\``, ""];
  for (const c of report.contracts) {
    const status = c.status === "edited" ? "" : ` (${c.status === "new" ? "new contract" : "removed"})`;
    out.push(`### \`${c.contract}\`${status}`, "", `File: \`${c.file}\`${c.owner ? ` · owner: ${c.owner}` : ""}`, "");
    out.push(...c.versions.flatMap((v) => versionLines(v, report.ref)));
    if (c.diagnostics.length > 0) {
      out.push("Findings:", ...c.diagnostics.map((d) => `- ${d.severity} \`${d.code}\` at ${located(d.loc)}: ${cell(d.message)}`), "");
    }
  }
  if (report.contracts.length === 0) out.push("No contract changes.", "");
  return out.join("\n");
};
