/** Collects the module-level declarations of a generated validator, each built once. */
export interface Hoister {
  /**
   * The identifier base of the declaration known as `key` (undefined: never shared), building it
   * on first use. `build` gets a fresh base and returns the declaration text; the base is reserved
   * before `build` runs, so recursive types refer to themselves.
   */
  hoist(key: string | undefined, base: string, build: (base: string) => string): string;
  /** In first-use order: a declaration precedes the ones it uses. */
  declarations(): readonly string[];
}

export const createHoister = (): Hoister => {
  const bases = new Set<string>();
  const known = new Map<string, string>();
  const declarations: string[] = [];
  const fresh = (base: string): string => {
    const clean = base.replace(/[^A-Za-z0-9_]/g, "_");
    let name = clean;
    for (let n = 2; bases.has(name); n++) name = `${clean}_${n}`;
    bases.add(name);
    return name;
  };
  return {
    hoist: (key, base, build) => {
      const existing = key === undefined ? undefined : known.get(key);
      if (existing !== undefined) return existing;
      const name = fresh(base);
      if (key !== undefined) known.set(key, name);
      const slot = declarations.push("") - 1;
      declarations[slot] = build(name);
      return name;
    },
    declarations: () => declarations,
  };
};
