import { readFileSync } from "node:fs";
import Handlebars from "handlebars";

/** One template per kind of emitted file, in `templates/<name>.hbs`. */
export type TemplateName = "types" | "schema" | "validator" | "validators" | "shape" | "version-index" | "contract-index" | "index" | "adapters" | "tests" | "llm" | "llm-reply" | "registration" | "agent" | "agents-index";

const TEMPLATES_DIR = new URL("../../templates/", import.meta.url);
const cache = new Map<TemplateName, Handlebars.TemplateDelegate>();

/** Templates only lay out prepared strings and lists; they hold no logic and escape nothing. */
export const renderTemplate = (name: TemplateName, data: object): string => {
  let template = cache.get(name);
  if (!template) {
    const text = readFileSync(new URL(`${name}.hbs`, TEMPLATES_DIR), "utf8");
    template = Handlebars.compile(text, { noEscape: true, strict: true });
    cache.set(name, template);
  }
  return template(data);
};
