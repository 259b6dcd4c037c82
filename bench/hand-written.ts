// A hand-written validator for task.result 1.2, the baseline every ratio is measured against:
// what a careful engineer would write by hand for exactly the constraints of idl/task/task.result.yaml.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const codePoints = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
    else {
      n++;
      i++;
    }
  }
  return n;
};
const maxLen = (s: string, max: number): boolean => s.length <= max || codePoints(s) <= max;
const minLen = (s: string, min: number): boolean => s.length >= 2 * min || codePoints(s) >= min;

const TASK_ID = /^TASK-[0-9]+$/u;
const CLAIM_ID = /^c[0-9]+$/u;
const ARTIFACT = /^artifact:\/\/.+/u;
const SRC = /^src:\/\/.+/u;

const onlyKeys = (v: Record<string, unknown>, count: number): boolean => {
  let n = 0;
  for (const _ in v) n++;
  return n === count;
};

const isClaim = (c: unknown): boolean => {
  if (!isObject(c)) return false;
  const { claim_id, text, evidence_refs } = c;
  if (typeof claim_id !== "string" || !maxLen(claim_id, 32) || !CLAIM_ID.test(claim_id)) return false;
  if (typeof text !== "string" || !minLen(text, 1) || !maxLen(text, 4000)) return false;
  if (!Array.isArray(evidence_refs) || evidence_refs.length < 1 || evidence_refs.length > 100) return false;
  for (const ref of evidence_refs) if (typeof ref !== "string" || !SRC.test(ref)) return false;
  return onlyKeys(c, 3);
};

export const handWrittenCheck = (v: unknown): boolean => {
  if (!isObject(v)) return false;
  if (v["contract"] !== "task.result" || v["version"] !== "1.2") return false;
  const taskId = v["task_id"];
  if (typeof taskId !== "string" || !maxLen(taskId, 64) || !TASK_ID.test(taskId)) return false;
  const status = v["status"];
  if (status !== "SUCCESS" && status !== "PARTIAL" && status !== "FAILED") return false;
  const result = v["result"];
  if (!isObject(result)) return false;
  const { artifact_ref, summary, claims } = result;
  if (typeof artifact_ref !== "string" || !ARTIFACT.test(artifact_ref)) return false;
  if (typeof summary !== "string" || !maxLen(summary, 2000)) return false;
  if (!Array.isArray(claims) || claims.length > 500) return false;
  for (const claim of claims) if (!isClaim(claim)) return false;
  if (!onlyKeys(result, 3)) return false;
  let keys = 5;
  const quality = v["quality"];
  if (quality !== undefined) {
    keys++;
    if (!isObject(quality)) return false;
    const { verification, unresolved_items } = quality;
    if (verification !== "PASS" && verification !== "FAIL" && verification !== "SKIPPED") return false;
    if (!Array.isArray(unresolved_items) || unresolved_items.length > 100) return false;
    for (const item of unresolved_items) if (typeof item !== "string" || !minLen(item, 1) || !maxLen(item, 1000)) return false;
    if (!onlyKeys(quality, 2)) return false;
  }
  const usage = v["usage"];
  if (usage !== undefined) {
    keys++;
    if (!isObject(usage)) return false;
    const { model_calls, tool_calls } = usage;
    if (typeof model_calls !== "number" || !Number.isInteger(model_calls) || model_calls < 0) return false;
    if (typeof tool_calls !== "number" || !Number.isInteger(tool_calls) || tool_calls < 0) return false;
    if (!onlyKeys(usage, 2)) return false;
  }
  return onlyKeys(v, keys);
};
