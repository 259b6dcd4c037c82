// `treaty diff`: a reviewer's Markdown summary of what changed in the contracts since a ref.
import { bumpNeeded } from "../compat/bump-needed.js";
import type { Difference } from "../compat/difference.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Field, Project } from "../ir/model.js";
import { schemaDifferences, versionChanges, type VersionChange } from "./against.js";

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const verdict = (v: Difference["backward"]): string => (v === "breaking" ? "❌ breaking" : "✅ compatible");
const location = (d: { loc?: { file: string; line: number } }): string => (d.loc ? `\`${d.loc.file}:${d.loc.line}\`` : "");

const table = (differences: readonly Difference[]): string[] => [
  "| Change | Where | Backward (new reads old) | Forward (old reads new) | Source |",
  "| --- | --- | --- | --- | --- |",
  ...differences.map((d) => `| ${cell(d.reason)} | \`${d.path || "/"}\` | ${verdict(d.backward)} | ${verdict(d.forward)} | ${location(d)} |`),
];

const deprecations = (fields: readonly Field[], version: string, prefix = ""): string[] =>
  fields.flatMap((f) => [
    ...(f.deprecated?.since === version ? [`- \`${prefix}${f.name}\` is deprecated${f.deprecated.use ? `: use \`${f.deprecated.use}\`` : ""}.`] : []),
    ...(f.type.kind === "object" ? deprecations(f.type.fields, version, `${prefix}${f.name}.`) : []),
  ]);

const newVersionSection = (change: VersionChange): string[] => {
  const { version, differences } = change;
  const relevant = schemaDifferences(differences);
  const needed = bumpNeeded(differences);
  const declared = version.minor === 0 ? "major" : "minor";
  const base = change.contract.versions.find((v) => v.version === version.from)?.version ?? "the version before it";
  const lines = [`#### ${version.version} (new${version.status === "draft" ? ", draft" : ""})`, ""];
  if (relevant.length === 0) lines.push(`No schema change against ${base}.`);
  else lines.push(`Against ${base}: needs a **${needed}** bump; declared as ${declared}.`, "", ...table(relevant));
  const deprecated = deprecations(version.fields, version.version);
  if (deprecated.length > 0) lines.push("", "Deprecations:", ...deprecated);
  return [...lines, ""];
};

const editedVersionSection = (change: VersionChange, ref: string): string[] => {
  const relevant = schemaDifferences(change.differences);
  const docs = change.differences.length - relevant.length;
  if (relevant.length === 0) return docs > 0 ? [`#### ${change.version.version} (documentation edited)`, ""] : [];
  const note = change.before?.version.status === "draft" ? "draft, may change" : `**published at ${ref}: must not change**`;
  return [`#### ${change.version.version} (edited in place; ${note})`, "", ...table(relevant), ""];
};

/** The Markdown summary of `now` against `then`; `findings` are the current diagnostics (lint and others). */
export const reviewSummary = (now: Project, then: Project, ref: string, findings: readonly Diagnostic[]): string => {
  const changes = versionChanges(now, then);
  const out = [`## Contract changes since \`${ref}\``, ""];
  let any = false;
  for (const contract of now.contracts) {
    const mine = changes.filter((c) => c.contract === contract);
    const existed = then.contracts.some((c) => c.name === contract.name);
    const sections = mine.flatMap((c) => (c.before ? editedVersionSection(c, ref) : newVersionSection(c)));
    const notes = findings.filter((d) => d.loc?.file === contract.file);
    if (sections.length === 0 && existed) continue;
    any = true;
    out.push(`### \`${contract.name}\`${existed ? "" : " (new contract)"}`, "", `File: \`${contract.file}\`${contract.owner ? ` · owner: ${contract.owner}` : ""}`, "", ...sections);
    if (notes.length > 0) {
      out.push("Findings:", ...notes.map((d) => `- ${d.severity} \`${d.code}\` at line ${d.loc?.line}: ${cell(d.message)}`), "");
    }
  }
  for (const old of then.contracts) {
    if (!now.contracts.some((c) => c.name === old.name)) {
      any = true;
      out.push(`### \`${old.name}\` (removed)`, "", `Versions ${old.versions.map((v) => v.version).join(", ")} are gone.`, "");
    }
  }
  if (!any) out.push("No contract changes.", "");
  return out.join("\n");
};
