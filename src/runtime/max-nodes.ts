// The one bound on the work a walk over an arbitrary JS value may do. A JS value may share
// objects (`a = [a0, a0]`, 26 times over, is 2^26 values as JSON though it holds 27 arrays), so a
// walk that follows every reference is bounded by the values it visits, not by the memory the
// value takes: past MAX_NODES the walk stops and the value is refused (a snapshot or a canonical
// text throws, a `json` check fails, a kept value is not JSON data, redaction keeps nothing more).

/** Values (containers, items and property values alike) a walk visits before it refuses the value. */
export const MAX_NODES = 1_000_000;

/**
 * Values the runtime's walks over a JSON value (jsonFault, isJsonData, the canonical texts of
 * hasDuplicates) have visited since the generated check, read or errors in progress started
 * (`startWalks`, among its first statements). Each walk stops at MAX_NODES by itself, but a
 * validator starts one per reference it meets: a map whose 2,000 keys hold one shared JSON value
 * of 600,000 values was 1.2 billion values walked by one call. Every walk adds what it visited
 * here; only generated code reads it (`walksLeft`), so a walk outside a validator call (redact, a
 * store, a standalone check) keeps its own bound and never fails because of an earlier call.
 */
let walked = 0;

/** Starts the count of the generated check, read or errors about to run. */
export const startWalks = (): void => {
  walked = 0;
};

/** Adds what one walk visited to the count of the call in progress. */
export const countWalked = (n: number): void => {
  walked += n;
};

/**
 * Asked by generated code before each walk and after it: whether the call in progress has walked
 * at most MAX_NODES values through them. Before, so past it nothing more is walked (a call walks
 * at most MAX_NODES values and one last walk's); after, so a payload passes exactly when its walks
 * visit at most MAX_NODES values together, in whatever order check, read and errors make them.
 * Past it the value fails: check is false, errors reports `depth`, too many nested values.
 */
export const walksLeft = (): boolean => walked <= MAX_NODES;
