/**
 * The JSON Schema pattern of `ref<scheme>`: `scheme://` then at least one character. Only regex
 * syntax characters are escaped: under the `u` flag any other escape (`\-`) is a syntax error.
 */
export const refPattern = (scheme: string): string => `^${scheme.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")}://.+`;
