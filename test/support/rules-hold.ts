// The cross-field rules of a contract version, read from its emitted schema's `x-treaty-rules`
// annotation and evaluated independently of treaty's code: Ajv's schema alone cannot say them.
/**
 * Rules the schema could not express stand in its `x-treaty-rules` annotation (every `before`, and
 * rules over fields of different objects); evaluate those here, independently of treaty's code.
 */
type AnnotatedRule = { before?: [string, string]; exclusive?: string[]; requires?: { if: string; then: string[] } };
export const rulesHold = (schema: Record<string, unknown>, value: unknown): boolean => {
  const rules = (schema["x-treaty-rules"] as AnnotatedRule[] | undefined) ?? [];
  const get = (path: string): unknown =>
    path.split(".").reduce<unknown>((v, k) => (typeof v === "object" && v !== null && !Array.isArray(v) && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined), value);
  return rules.every((rule) => {
    if (rule.before) {
      const [a, b] = rule.before.map(get);
      return typeof a !== "string" || typeof b !== "string" || Date.parse(a) < Date.parse(b);
    }
    if (rule.exclusive) return rule.exclusive.filter((p) => get(p) !== undefined).length <= 1;
    if (rule.requires) return get(rule.requires.if) === undefined || rule.requires.then.every((p) => get(p) !== undefined);
    return true;
  });
};
