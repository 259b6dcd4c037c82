import type { Project } from "../ir/model.js";
import type { FileJob } from "../plan/plan.js";
import { emitAdapters } from "./adapters.js";
import { emitAgent, emitAgentsIndex } from "./agent.js";
import type { EmittedFile } from "./file-builder.js";
import { emitContractIndex, emitIndex, emitRegistration, emitVersionIndex } from "./indexes.js";
import { emitJsonSchema } from "./json-schema.js";
import { emitLlm, emitLlmJson, emitLlmReply } from "./llm.js";
import { emitPackageJson, emitPackageTsconfig } from "./package.js";
import { emitShape } from "./shape.js";
import { emitTestCases, emitTests } from "./tests.js";
import { emitTypeBox } from "./typebox.js";
import { emitTypes } from "./types.js";
import { emitSharedValidators, emitValidator } from "./validator.js";

/**
 * Renders one planned file. `source` names the IDL directory in the root index's header. The
 * pipeline imports this stage only when something is to be emitted: its emitters load the heavy
 * dependencies (json-schema-to-typescript), which a run that finds everything current never needs.
 */
export const emitFile = (project: Project, job: FileJob, source: string): EmittedFile | Promise<EmittedFile> => {
  switch (job.kind) {
    case "types":
      return emitTypes(project, job.contract, job.version);
    case "schema":
      return emitTypeBox(project, job.contract, job.version);
    case "json-schema":
      return emitJsonSchema(project, job.contract, job.version);
    case "validator":
      return emitValidator(project, job.contract, job.version);
    case "validators":
      return emitSharedValidators(project, job.contract);
    case "shape":
      return emitShape(project, job.contract, job.version);
    case "llm":
      return emitLlm(project, job.contract, job.version);
    case "llm-reply":
      return emitLlmReply(project, job.contract, job.version);
    case "llm-json":
      return emitLlmJson(project, job.contract, job.version, job.provider);
    case "version-index":
      return emitVersionIndex(job.contract, job.version);
    case "adapters":
      return emitAdapters(job.adapters);
    case "registration":
      return emitRegistration(job.contract);
    case "contract-index":
      return emitContractIndex(job.contract);
    case "tests":
      return emitTests(job.cases);
    case "test-cases":
      return emitTestCases(job.cases);
    case "index":
      return emitIndex(project, source);
    case "agent":
      return emitAgent(project, job.agent, job.code);
    case "agents-index":
      return emitAgentsIndex(project, source);
    case "package-json":
      return emitPackageJson(project, job.package, job.layout);
    case "package-tsconfig":
      return emitPackageTsconfig(job.package, job.layout);
  }
};
