import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { contractDir, rootTypeName, versionId } from "../ir/names.js";
import { createFileBuilder, type EmittedFile } from "./file-builder.js";
import { indent, ISSUE_FUNCTION } from "./validator-code.js";
import { compileValidator } from "./validator-compiler.js";

const RUNTIME = "treaty/runtime";

/**
 * `<contract>/<vX_Y>/validator.ts`: `check(value): value is Root` and `errors(value): Issue[]`,
 * compiled ahead of time to straight-line code (no schema is read at run time).
 */
export const emitValidator = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const builder = createFileBuilder(`${contractDir(contract.name)}/${versionId(version.version)}/validator.ts`, contract.file);
  const rootType = rootTypeName(contract.name, version.version);
  builder.importType("./types.js", rootType);
  builder.importType(RUNTIME, "Issue");
  const code = compileValidator(project, contract, version, (name) => builder.importValue(RUNTIME, name));
  return builder.render("validator", {
    contract: contract.name,
    version: version.version,
    rootType,
    declarations: [ISSUE_FUNCTION, ...code.declarations],
    check: code.check,
    read: code.read,
    errors: indent(indent(code.errors)).join("\n"),
  });
};
