import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Options } from "prettier";
import type { EmittedFile } from "../emit/file-builder.js";

/** Fixed in code so a user's `.prettierrc` never changes generated output. */
export const PRETTIER_OPTIONS: Readonly<Options> = {
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

/**
 * babel-ts prints generated code exactly as the typescript parser does (a test checks it on every
 * committed file) at half the cost: typescript-estree's AST conversion dominates prettier's time.
 */
export const parserOf = (language: EmittedFile["language"]): string => (language === "json" ? "json" : "babel-ts");

/** Read from its package.json: importing prettier costs more than a run that finds every file cached. */
export const PRETTIER_VERSION: string = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve("prettier/package.json"), "utf8")) as { version: string }
).version;

/** Formats one file's contents with the fixed options; prettier is loaded on first use. */
export const prettierFormat = async (contents: string, language: EmittedFile["language"]): Promise<string> => {
  const prettier = await import("prettier");
  return prettier.format(contents, { ...PRETTIER_OPTIONS, parser: parserOf(language) });
};
