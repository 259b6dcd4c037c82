/** Edit distance where swapping two neighbouring characters counts as one edit (typos often do). */
const distance = (a: string, b: string): number => {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
};

/** How far a name may be from a candidate and still be taken for a typo of it. */
const tolerance = (name: string): number => (name.length <= 3 ? 1 : Math.max(2, Math.floor(name.length / 3)));

/** The closest of `candidates` to `name`, if it is close enough to be a likely typo. */
export const closest = (name: string, candidates: Iterable<string>): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === name.toLowerCase() ? 0 : distance(name, candidate);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= tolerance(name) ? best : undefined;
};

/** " (did you mean 'x'?)" or "", for a message's `{suggestion}` placeholder. */
export const didYouMean = (name: string, candidates: Iterable<string>): string => {
  const match = closest(name, candidates);
  return match === undefined ? "" : ` (did you mean '${match}'?)`;
};
