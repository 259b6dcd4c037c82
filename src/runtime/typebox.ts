// Generated schema.ts files import TypeBox through treaty, so a producer's package manager resolves
// it from treaty's own dependencies whether or not the producer depends on TypeBox itself.
export { Type } from "typebox";
