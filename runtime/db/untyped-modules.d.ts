// Modules shipped without declarations.

// knex's dialect classes: runtime/db/prepared.ts extends one.
declare module "knex/lib/dialects/postgres/index.js" {
  const PgDialect: unknown;
  export default PgDialect;
}

// pg's own conversion of a value to the text it sends as a parameter.
declare module "pg/lib/utils.js" {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
