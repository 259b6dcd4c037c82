// treaty's programmatic API: the same pipeline the CLI runs.
export { compile, generate, type CompileOptions, type GenerateOptions, type GenerateResult } from "./pipeline.js";
export { formatDiagnostic, type Diagnostic } from "./diagnostics/diagnostic.js";
export { DIAGNOSTIC_CODES, type DiagnosticCode } from "./diagnostics/codes.js";
export type * from "./ir/model.js";
export { TREATY_VERSION } from "./version.js";
export { checkRequestBudget, type AnthropicTool, type BudgetBreach } from "./project/budget.js";
