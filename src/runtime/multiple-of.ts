/**
 * JSON Schema `multipleOf` exactly as Ajv decides it: `x / m` must equal `parseInt(x / m)`.
 * For a finite quotient that holds exactly when it is an integer below 1e21 in magnitude
 * (from 1e21 on, `String()` switches to exponent notation and `parseInt` stops at the "e"),
 * so this is Ajv's test without building the string.
 */
export const isMultipleOf = (x: number, m: number): boolean => {
  const q = x / m;
  return Number.isInteger(q) && q < 1e21 && q > -1e21;
};
