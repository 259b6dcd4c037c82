// typia's contender: task.result 1.2 as a TypeScript type with typia's tags, compiled by
// `typia generate` (its transformer run ahead of time: tsx, which runs the bench, strips types
// without running transformers). bench/typia.ts generates it into node_modules/.cache before use.
import typia, { tags } from "typia";

type Ref<S extends string> = string & tags.Pattern<`^${S}://.+`>;

interface Claim {
  claim_id: string & tags.MaxLength<32> & tags.Pattern<"^c[0-9]+$">;
  text: string & tags.MinLength<1> & tags.MaxLength<4000>;
  evidence_refs: Ref<"src">[] & tags.MinItems<1> & tags.MaxItems<100>;
}

interface TaskResultV1_2 {
  contract: "task.result";
  version: "1.2";
  task_id: string & tags.MaxLength<64> & tags.Pattern<"^TASK-[0-9]+$">;
  status: "SUCCESS" | "PARTIAL" | "FAILED";
  result: { artifact_ref: Ref<"artifact">; summary: string & tags.MaxLength<2000>; claims: Claim[] & tags.MaxItems<500> };
  quality?: {
    verification: "PASS" | "FAIL" | "SKIPPED";
    unresolved_items: (string & tags.MinLength<1> & tags.MaxLength<1000>)[] & tags.MaxItems<100>;
  };
  usage?: { model_calls: number & tags.Type<"int64"> & tags.Minimum<0>; tool_calls: number & tags.Type<"int64"> & tags.Minimum<0> };
}

/** Closed objects, as treaty's `unknown_fields: reject`: `equals`, not `is`. */
export const typiaEquals = typia.createEquals<TaskResultV1_2>();
