// "treaty/store-sqlite": the event store in a SQLite file. Needs the optional peer dependency
// better-sqlite3 (12; version 13 needs Node 22).
export { SQLITE_SCHEMA_VERSION, openSqliteStore } from "./sqlite-store.js";
