// knex ships its dialect classes without declarations; runtime/db/prepared.ts extends one.
declare module "knex/lib/dialects/postgres/index.js" {
  const PgDialect: unknown;
  export default PgDialect;
}
