// A path as a generated agent module holds it, for tests that build agents by hand: its segments and
// the reader treaty generates for them (src/emit/agent.ts), compiled here from that same source.
import ts from "typescript";
import type { AgentFound, AgentPathData } from "../../src/runtime/index.js";
import { pathReader } from "../../src/emit/agent.js";

/** `path` as written in an agent file; `steps` its segments ("[]" steps into list items). */
export const agentPath = (path: string, steps: readonly string[]): AgentPathData => {
  const js = ts.transpile(pathReader("reader", steps), { target: ts.ScriptTarget.ES2022 });
  const read = new Function(`${js}\nreturn reader;`)() as (value: unknown) => AgentFound[];
  return { path, segments: steps, read };
};
