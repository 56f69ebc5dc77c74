// The runtime's own tables, migrated like an API's (under the name "armature") so an
// existing database gains them on its next start. Append new migrations; never edit one.
import type { MigrationSet } from "./migrate.js";
import type { ApiDescriptor } from "../descriptor.js";

export const runtimeMigrations: MigrationSet = {
  api: "armature",
  migrations: [
    {
      name: "0001_auth_failures",
      // One row per failed (or still running) password attempt. Keys are SHA-256 digests:
      // a password typed into the username field is not kept in clear, and no client-chosen
      // string can outgrow an index entry.
      sql: `
CREATE TABLE armature_auth_failures (
  id bigserial PRIMARY KEY,
  username_key text NOT NULL,
  address_key text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX armature_auth_failures_username_idx ON armature_auth_failures (username_key, at);
CREATE INDEX armature_auth_failures_address_idx ON armature_auth_failures (address_key, at);
CREATE INDEX armature_auth_failures_at_idx ON armature_auth_failures (at);
`,
    },
    {
      name: "0002_regex_is_valid",
      // Whether PostgreSQL accepts a regular expression, without raising: filters guard their
      // regex predicates with it and report an invalid one from the same statement.
      sql: `
CREATE FUNCTION armature_regex_is_valid(pattern text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  PERFORM '' ~ pattern;
  RETURN true;
EXCEPTION WHEN invalid_regular_expression THEN
  RETURN false;
END
$$;
`,
    },
    {
      name: "0003_trigrams",
      // The three-character pieces of a text, lower-cased as ILIKE compares them: a text
      // containing another holds all of its pieces, so a GIN index over them (a field's
      // `searchIndexed`) finds the rows a substring search can match without reading the others.
      sql: `
CREATE FUNCTION armature_trigrams(value text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  lowered text := lower(value);
  out text[] := '{}';
BEGIN
  FOR i IN 1 .. length(lowered) - 2 LOOP
    out := out || substr(lowered, i, 3);
  END LOOP;
  RETURN out;
END
$$;
`,
    },
    {
      name: "0004_queue",
      // The durable queue (runtime/queue/): one row per task, claimable while `queued`, or
      // `running` with its lease over (its worker died), once `run_at` has come; and one row per
      // attempt, written when the attempt starts and completed when it ends, so an attempt in
      // progress or cut short is visible too. Payloads are opaque to the queue.
      sql: `
CREATE TABLE armature_tasks (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer CHECK (max_attempts > 0),
  run_at timestamptz NOT NULL DEFAULT now(),
  claimed_by text,
  claimed_until timestamptz,
  last_error text,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  finished timestamptz
);
CREATE INDEX armature_tasks_due_idx ON armature_tasks (run_at) WHERE state IN ('queued', 'running');
CREATE INDEX armature_tasks_finished_idx ON armature_tasks (finished) WHERE finished IS NOT NULL;
CREATE TABLE armature_task_attempts (
  id bigserial PRIMARY KEY,
  task_id bigint NOT NULL REFERENCES armature_tasks (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  worker text NOT NULL,
  started timestamptz NOT NULL DEFAULT now(),
  finished timestamptz,
  duration_ms integer,
  outcome text NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'succeeded', 'failed', 'interrupted', 'abandoned')),
  status_code integer,
  detail text
);
CREATE INDEX armature_task_attempts_task_idx ON armature_task_attempts (task_id, attempt);
`,
    },
    {
      name: "0005_auth_failures_by_user_and_address",
      // Failures counted per (username, address) rather than per username, so that nobody can
      // hold another user's logins off by failing theirs (auth/throttle.ts). Rows counted the
      // old way are dropped: they left the window minutes after they were written anyway.
      sql: `
DELETE FROM armature_auth_failures;
ALTER TABLE armature_auth_failures RENAME COLUMN username_key TO attempt_key;
ALTER INDEX armature_auth_failures_username_idx RENAME TO armature_auth_failures_attempt_idx;
`,
    },
    {
      name: "0006_rate_limits",
      // One bucket per requester (runtime/http/rate-limits.ts): what is left of its budget at
      // `at`, and when the refill makes it whole (`expires`), after which the row is the same as
      // none and requests delete it; `admitted` says whether the last charge was taken.
      // Unlogged: a charge is a write on every request, and without the WAL it costs a third as
      // much; after a crash the table is empty, which gives everyone a whole budget, and
      // standbys hold none of it, which no read needs.
      sql: `
CREATE UNLOGGED TABLE armature_rate_limits (
  bucket text PRIMARY KEY,
  tokens double precision NOT NULL,
  at timestamptz NOT NULL,
  expires timestamptz NOT NULL,
  admitted boolean NOT NULL
);
CREATE INDEX armature_rate_limits_expires_idx ON armature_rate_limits (expires);
`,
    },
    {
      name: "0007_read_positions",
      // Each user's position in the primary's WAL just after their latest write committed:
      // a replica takes their reads only once it has replayed that far (runtime/db/replicas.ts).
      sql: `
CREATE TABLE armature_read_positions (
  actor text PRIMARY KEY,
  lsn pg_lsn NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
`,
    },
    {
      name: "0008_demo_marker",
      // Which APIs' demo data was loaded (runtime/cli.ts loadDemoOnce), made by the migrations so
      // that a dump carries it and a loaded database does not get the demo data a second time.
      // IF NOT EXISTS: databases that loaded demo data before this migration made it already.
      sql: `
CREATE TABLE IF NOT EXISTS armature_demo (api text PRIMARY KEY, loaded timestamptz NOT NULL DEFAULT now());
`,
    },
    {
      name: "0009_queue_workers",
      // The queue workers running, each seen again every minute or so (runtime/queue/worker.ts):
      // how `armature health_check` knows a worker serves the queue, on whichever machine it runs.
      sql: `
CREATE TABLE armature_queue_workers (
  id text PRIMARY KEY,
  started timestamptz NOT NULL DEFAULT now(),
  seen timestamptz NOT NULL DEFAULT now()
);
`,
    },
    {
      name: "0010_json_text",
      // A read's answer is JSON text PostgreSQL writes (runtime/query/json-text.ts), as the
      // server's JSON.stringify would write it: numbers as JavaScript prints a double (fixed
      // from 1e-6 to 1e21, else an exponent without padding; beyond a double, null), and a media
      // path's segments as encodeURIComponent escapes them. Not STRICT, so that the planner may
      // inline the number's (NULL gives NULL all the same).
      sql: `
CREATE FUNCTION armature_json_number(x float8) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN x = 0 THEN '0'
    WHEN x = 'Infinity'::float8 OR x = '-Infinity'::float8 OR x = 'NaN'::float8 THEN 'null'
    WHEN abs(x) >= 1e21 OR abs(x) < 1e-6 THEN regexp_replace(x::text, 'e([+-])0(\\d)$', 'e\\1\\2')
    ELSE x::text::numeric::text
  END
$$;
CREATE FUNCTION armature_uri_path(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN value ~ '^[A-Za-z0-9_.!~*''()/-]*$' THEN value ELSE (
    SELECT string_agg(CASE WHEN s.c ~ '^[A-Za-z0-9_.!~*''()/-]$' THEN s.c ELSE (
      SELECT string_agg('%' || upper(lpad(to_hex(get_byte(convert_to(s.c, 'UTF8'), i)), 2, '0')), '' ORDER BY i)
      FROM generate_series(0, octet_length(convert_to(s.c, 'UTF8')) - 1) i) END, '' ORDER BY s.n)
    FROM regexp_split_to_table(value, '') WITH ORDINALITY AS s(c, n)) END
$$;
`,
    },
    {
      name: "0011_presume",
      // A write that went ahead on what it presumed (runtime/db/presumed.ts) sends, with its
      // statements, one that fails when a presumption does not hold: the transaction is aborted
      // by it, and the write runs again the ordinary way. Volatile, so that it is never folded away.
      sql: `
CREATE FUNCTION armature_presume(held boolean, what text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF held IS NOT TRUE THEN
    RAISE EXCEPTION 'a presumption of the write does not hold: %', what USING ERRCODE = 'AR001';
  END IF;
  RETURN true;
END
$$;
`,
    },
    {
      name: "0012_stored_value",
      // A field's value as the change log's object_data keeps it (runtime/features/changes):
      // from the API's shape, a choice by its value, a related object by its id, in lists too.
      sql: `
CREATE FUNCTION armature_stored(v jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF jsonb_typeof(v) = 'array' THEN
    RETURN (SELECT coalesce(jsonb_agg(armature_stored(x.e) ORDER BY x.n), '[]'::jsonb) FROM jsonb_array_elements(v) WITH ORDINALITY AS x(e, n));
  END IF;
  IF jsonb_typeof(v) = 'object' AND jsonb_exists(v, 'value') AND jsonb_exists(v, 'label') THEN RETURN v -> 'value'; END IF;
  IF jsonb_typeof(v) = 'object' AND jsonb_exists(v, 'id') THEN RETURN v -> 'id'; END IF;
  RETURN v;
END
$$;
`,
    },
    {
      name: "0013_chosen_apart",
      // The rows of a list page, and their count, chosen by a statement written with its values
      // (runtime/db/with-values.ts), which PostgreSQL plans for them each time, inside the list's
      // statement, planned once. Stable: the statement run sees the snapshot of the one it runs
      // in, so that the count and the page agree with the rest of the answer.
      sql: `
CREATE FUNCTION armature_chosen(query text) RETURNS text[]
LANGUAGE plpgsql STABLE AS $$
DECLARE
  chosen text[];
BEGIN
  EXECUTE query INTO chosen;
  RETURN chosen;
END
$$;
CREATE FUNCTION armature_counted(query text) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  counted bigint;
BEGIN
  EXECUTE query INTO counted;
  RETURN counted;
END
$$;
`,
    },
  ],
};

/** Every migration a server of `apis` needs, in the order they apply: the runtime's own, then each API's, each followed by its apps'. */
export function migrationSets(apis: ApiDescriptor[]): MigrationSet[] {
  return [runtimeMigrations, ...apis.flatMap((a) => [
    { api: a.name, migrations: a.migrations },
    ...a.appMigrations.map((s) => ({ api: `${a.name}/${s.app}`, migrations: s.migrations })),
  ])];
}
