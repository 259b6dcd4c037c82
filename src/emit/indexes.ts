import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { contractDir, contractTypeName, rootTypeName, versionId } from "../ir/names.js";
import { createFileBuilder, type EmittedFile } from "./file-builder.js";

const camel = (contract: string): string => {
  const pascal = contractTypeName(contract);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
};

/** `generated/<contract>/<vX_Y>/index.ts`: one version's types, schema and validator. */
export const emitVersionIndex = (contract: Contract, version: ResolvedVersion): EmittedFile =>
  createFileBuilder(`${contractDir(contract.name)}/${versionId(version.version)}/index.ts`, contract.file).render("version-index", {
    contract: JSON.stringify(contract.name),
    version: JSON.stringify(version.version),
    rootType: rootTypeName(contract.name, version.version),
  });

/** `generated/<contract>/index.ts`: every version of one contract, and which one is canonical. */
export const emitContractIndex = (contract: Contract): EmittedFile =>
  createFileBuilder(`${contractDir(contract.name)}/index.ts`, contract.file).render("contract-index", {
    name: JSON.stringify(contract.name),
    versions: contract.versions.map((v) => ({ id: versionId(v.version), version: JSON.stringify(v.version) })),
    canonicalId: versionId(contract.canonical),
    canonicalType: rootTypeName(contract.name, contract.canonical),
    typeName: contractTypeName(contract.name),
  });

/** `generated/index.ts`: every contract, by name. */
export const emitIndex = (project: Project, source: string): EmittedFile =>
  createFileBuilder("index.ts", source).render("index", {
    contracts: project.contracts.map((c) => ({ name: JSON.stringify(c.name), id: camel(c.name), dir: contractDir(c.name) })),
  });
