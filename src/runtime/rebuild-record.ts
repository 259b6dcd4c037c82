/**
 * A copy of `record` without the keys of `dropNull` that hold null, and with the values of
 * `replace`: what a generated `fromOpenAI` builds where a reply differs from the contract's value.
 * Assigned key by key, so the copy stays a fast object for the validator (`Object.fromEntries` and
 * `delete` leave a slow one); `__proto__` is defined, never assigned, so it stays a key.
 */
export const rebuildRecord = (
  record: Record<string, unknown>,
  dropNull: readonly string[],
  replace: readonly (readonly [string, unknown])[],
): Record<string, unknown> => {
  const copy: Record<string, unknown> = {};
  // Many replacements (each value of a large map) looked up by key, not searched for each key.
  const byKey = replace.length > 8 ? new Map(replace) : undefined;
  for (const key of Object.keys(record)) {
    let value = record[key];
    if (value === null && dropNull.includes(key)) continue;
    if (byKey !== undefined) value = byKey.has(key) ? byKey.get(key) : value;
    else for (const [name, replaced] of replace) if (name === key) value = replaced;
    if (key === "__proto__") Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
};
