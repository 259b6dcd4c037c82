// The one bound on the work a walk over an arbitrary JS value may do. A JS value may share
// objects (`a = [a0, a0]`, 26 times over, is 2^26 values as JSON though it holds 27 arrays), so a
// walk that follows every reference is bounded by the values it visits, not by the memory the
// value takes: past MAX_NODES the walk stops and the value is refused (a snapshot or a canonical
// text throws, a `json` check fails, a kept value is not JSON data, redaction keeps nothing more).

/** Values (containers, items and property values alike) a walk visits before it refuses the value. */
export const MAX_NODES = 1_000_000;
