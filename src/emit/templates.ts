import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type Handlebars from "handlebars";

/** One template per kind of emitted file, in `templates/<name>.hbs`. */
export type TemplateName = "types" | "schema" | "validator" | "validators" | "shape" | "version-index" | "contract-index" | "index" | "adapters" | "tests" | "llm" | "llm-reply" | "registration" | "agent" | "agents-index";

const require = createRequire(import.meta.url);
// The runtime alone (templates from their precompiled specs): a third of handlebars to load.
const Runtime = require("handlebars/runtime") as typeof Handlebars;

const TEMPLATES_DIR = new URL("../../templates/", import.meta.url);
const templates = new Map<TemplateName, Handlebars.TemplateDelegate>();

// Templates as handlebars precompiles them (the source of a template function), seeded from the
// cache directory (src/incremental/emitter-memos.ts) before the first is needed: compiling the
// templates costs about 45 ms a process, loading their precompiled specs through handlebars' runtime
// about 5, and only a template compiled here loads handlebars' compiler.
const specs = new Map<string, string>();
let compiledNew = false;
let seed: (() => void) | undefined;

/** How the precompiled templates are found before the first is needed: the cache directory's, read once. */
export const seedTemplateSpecs = (load: () => void): void => {
  seed = load;
};

/** Templates an earlier run precompiled, by name, with this same compiler (and so these templates). */
export const rememberTemplateSpecs = (known: Iterable<readonly [string, string]>): void => {
  for (const [name, spec] of known) if (!specs.has(name)) specs.set(name, spec);
};

/** What the cache directory should hold for the next run; undefined when this run compiled no template. */
export const templateSpecsToKeep = (): [string, string][] | undefined => (compiledNew ? [...specs] : undefined);

const precompiled = (name: TemplateName): string => {
  if (seed) {
    const load = seed;
    seed = undefined;
    load();
  }
  let spec = specs.get(name);
  if (spec === undefined) {
    const compiler = require("handlebars") as typeof Handlebars;
    spec = String(compiler.precompile(readFileSync(new URL(`${name}.hbs`, TEMPLATES_DIR), "utf8"), { noEscape: true, strict: true }));
    specs.set(name, spec);
    compiledNew = true;
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
