import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { contractDir, rootTypeName, versionId } from "../ir/names.js";
import { createFileBuilder, type EmittedFile } from "./file-builder.js";
import { indent, ISSUE_FUNCTION, ISSUE_FUNCTION_LAID_OUT } from "./validator-code.js";
import { contractValidators } from "./validator-sharing.js";

const RUNTIME = "treaty/runtime";

/**
 * `<contract>/<vX_Y>/validator.ts`: `check(value): value is Root` and `errors(value): Issue[]`,
 * compiled ahead of time to straight-line code (no schema is read at run time). What another
 * version holds word for word it imports from the contract's `validators.ts`.
 */
export const emitValidator = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const builder = createFileBuilder(`${contractDir(contract.name)}/${versionId(version.version)}/validator.ts`, contract.file);
  const rootType = rootTypeName(contract.name, version.version);
  builder.importType("./types.js", rootType);
  builder.importType(RUNTIME, "Issue");
  const code = contractValidators(project, contract).versions.get(version.version)!;
  for (const name of code.runtime) builder.importValue(RUNTIME, name);
  for (const name of code.shared) builder.importValue("../validators.js", name);
  const emitted = builder.render("validator", {
    contract: contract.name,
    version: version.version,
    rootType,
    declarations: [ISSUE_FUNCTION, ...code.declarations],
    reset: code.reset,
    readReset: code.readReset,
    check: code.check,
    read: code.read,
    errors: indent(indent(code.errors)).join("\n"),
  });
  return { ...emitted, laidOut: ISSUE_FUNCTION_LAID_OUT };
};

/** `<contract>/validators.ts`, for a contract of two or more versions: the validator code they share (see validator-sharing.ts). */
export const emitSharedValidators = (project: Project, contract: Contract): EmittedFile => {
  const builder = createFileBuilder(`${contractDir(contract.name)}/validators.ts`, contract.file);
  const { declarations, runtime } = contractValidators(project, contract).shared;
  for (const name of runtime) builder.importValue(RUNTIME, name);
  const text = declarations.join("\n");
  const reports = /\bissue\(/.test(text);
  if (reports || /\bIssue\b/.test(text)) builder.importType(RUNTIME, "Issue");
  const emitted = builder.render("validators", {
    contract: contract.name,
    declarations: declarations.length === 0 ? ["export {};"] : [...(reports ? [ISSUE_FUNCTION] : []), ...declarations],
  });
  return reports ? { ...emitted, laidOut: ISSUE_FUNCTION_LAID_OUT } : emitted;
};
