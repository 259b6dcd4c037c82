import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { bindingName, contractDir, contractTypeName, rootTypeName, versionId } from "../ir/names.js";
import { createFileBuilder, type EmittedFile } from "./file-builder.js";
import { shapeConstName } from "./shape.js";

/** What index.ts itself binds (see templates/index.hbs). */
const INDEX_NAMES: ReadonlySet<string> = new Set(["createRegistry", "contracts", "registry", "decode", "encode"]);

/** `generated/<contract>/<vX_Y>/index.ts`: one version's types, schema, validator and shape. */
export const emitVersionIndex = (contract: Contract, version: ResolvedVersion): EmittedFile =>
  createFileBuilder(`${contractDir(contract.name)}/${versionId(version.version)}/index.ts`, contract.file).render("version-index", {
    contract: JSON.stringify(contract.name),
    version: JSON.stringify(version.version),
    rootType: rootTypeName(contract.name, version.version),
    shape: shapeConstName(contract.name, version.version),
  });

/** `generated/<contract>/index.ts`: every version of one contract, which one is canonical, and its registration. */
export const emitContractIndex = (contract: Contract): EmittedFile => {
  const b = createFileBuilder(`${contractDir(contract.name)}/index.ts`, contract.file);
  b.importValue("./adapters.js", "adapters");
  return b.render("contract-index", {
    name: JSON.stringify(contract.name),
    label: contract.name,
    versions: contract.versions.map((v) => ({ id: versionId(v.version), version: JSON.stringify(v.version) })),
    canonicalId: versionId(contract.canonical),
    canonicalType: rootTypeName(contract.name, contract.canonical),
    typeName: contractTypeName(contract.name),
  });
};

/** `generated/<contract>/registration.ts`: the contract's registration (see templates/registration.hbs). */
export const emitRegistration = (contract: Contract): EmittedFile => {
  const b = createFileBuilder(`${contractDir(contract.name)}/registration.ts`, contract.file);
  b.importValue("./adapters.js", "adapters");
  b.importType("treaty/runtime", "ContractRegistration");
  const versions = contract.versions.map((v) => {
    const id = versionId(v.version);
    const shape = `${id}_shape`;
    const from = `${id}_from`;
    b.importNamespace(`./${id}/validator.js`, id);
    b.importValue(`./${id}/shape.js`, `${shapeConstName(contract.name, v.version)} as ${shape}`);
    b.importValue(`./${id}/llm-reply.js`, `from as ${from}`);
    return { id, version: JSON.stringify(v.version), shape, from };
  });
  return b.render("registration", {
    label: contract.name,
    name: JSON.stringify(contract.name),
    canonicalVersion: JSON.stringify(contract.canonical),
    envelope: JSON.stringify(contract.envelope),
    unknownFields: JSON.stringify(contract.unknownFields),
    versions,
  });
};

/** `generated/index.ts`: every contract, by name, and the registry that decodes and encodes them. */
export const emitIndex = (project: Project, source: string): EmittedFile => {
  const b = createFileBuilder("index.ts", source);
  b.importValue("treaty/runtime", "createRegistry");
  return b.render("index", {
    contracts: project.contracts.map((c) => ({ name: JSON.stringify(c.name), id: bindingName(c.name, INDEX_NAMES), dir: contractDir(c.name) })),
  });
};
