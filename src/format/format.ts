import { format as prettier, type Options } from "prettier";
import type { StageResult } from "../diagnostics/diagnostic.js";
import type { EmittedFile } from "../emit/file-builder.js";

/** Fixed in code so a user's `.prettierrc` never changes generated output. */
const OPTIONS: Options = {
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

/** Formats every file with the fixed options (prettier's `format` never reads config files itself). */
export const format = async (files: readonly EmittedFile[]): Promise<StageResult<EmittedFile[]>> => {
  const formatted = await Promise.all(
    files.map(async (file) => ({
      ...file,
      contents: await prettier(file.contents, { ...OPTIONS, parser: file.language === "json" ? "json" : "typescript" }),
    })),
  );
  return { value: formatted, diagnostics: [] };
};
