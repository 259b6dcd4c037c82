// A valid agent.task 3.0 payload (idl/agents/agent.task.yaml), fresh on each call, for tests that
// mutate it into something hostile.
export const agentTask = (): Record<string, unknown> => ({
  contract: "agent.task",
  version: "3.0",
  task_id: "SUB-42",
  parent_task_id: "ROOT-1",
  goal: "Summarise.",
  inputs: { artifact_refs: [], evidence_refs: [] },
  constraints: [],
  budget: { deadline_s: 30 },
  output_contract: "research.answer.v2",
});
