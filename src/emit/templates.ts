import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type Handlebars from "handlebars";
import { createEmitterMemo } from "./emitter-memo.js";

/** One template per kind of emitted file, in `templates/<name>.hbs`. */
export type TemplateName = "types" | "schema" | "validator" | "validators" | "shape" | "version-index" | "contract-index" | "index" | "adapters" | "tests" | "llm" | "llm-reply" | "registration" | "agent" | "agents-index";

const require = createRequire(import.meta.url);
// The runtime alone (templates from their precompiled specs): a third of handlebars to load.
const Runtime = require("handlebars/runtime") as typeof Handlebars;

const TEMPLATES_DIR = new URL("../../templates/", import.meta.url);
const templates = new Map<TemplateName, Handlebars.TemplateDelegate>();

// Templates as handlebars precompiles them (the source of a template function), by name, seeded
// from the cache directory: compiling the templates costs about 45 ms a process, loading their
// precompiled specs through handlebars' runtime about 5, and only a template compiled here loads
// handlebars' compiler.
export const templateMemo = createEmitterMemo();

const precompiled = (name: TemplateName): string => {
  let spec = templateMemo.get(name);
  if (spec === undefined) {
    const compiler = require("handlebars") as typeof Handlebars;
    spec = String(compiler.precompile(readFileSync(new URL(`${name}.hbs`, TEMPLATES_DIR), "utf8"), { noEscape: true, strict: true }));
    templateMemo.add(name, spec);
  }
  return spec;
};

/** Templates only lay out prepared strings and lists; they hold no logic and escape nothing. */
export const renderTemplate = (name: TemplateName, data: object): string => {
  let template = templates.get(name);
  if (!template) {
    // A precompiled spec is the source of an object literal of functions (handlebars' documented form).
    template = Runtime.template(new Function(`return ${precompiled(name)};`)() as Parameters<typeof Handlebars.template>[0]);
    templates.set(name, template);
  }
  return template(data);
};
