// Hand-written adapters for agent.task (idl/agents/agent.task.yaml).
// `treaty generate` adds a stub here when a change needs code it cannot derive, and never changes
// code that is already here. Each stub throws until it is written; its doc comment says what it must do.
import type * as generated from "../../generated/agent.task/index.js";
import * as treaty from "treaty/runtime";

/**
 * agent.task 2.1 ⇄ 3.0, what the `custom` change says:
 * - Carry the deadline over in its new unit: `budget.deadline_s` is 2.x's `budget.deadline_ms` divided by 1000, rounded up; going back, multiply by 1000.
 *
 * `draft` is what treaty derived from the version's other changes; return the finished value.
 * treaty reports no dropped fields for this step: this code decides what carries over.
 */
export const customV3_0: treaty.CustomStep<generated.v2_1.AgentTaskV2_1, generated.v3_0.AgentTaskV3_0> = {
  upgrade(source, draft) {
    return { ...draft, budget: { ...draft.budget, deadline_s: Math.ceil(source.budget.deadline_ms / 1000) } };
  },
  downgrade(source, draft) {
    return { ...draft, budget: { ...draft.budget, deadline_ms: source.budget.deadline_s * 1000 } };
  },
};
