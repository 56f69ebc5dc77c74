// The dump file's format, shared by the writer (dump.ts) and the reader (load.ts): newline-
// delimited JSON, one line per row, so neither side ever holds more than a batch of rows.
// docs/operating/dump-and-load.md describes it for readers; this module is its definition.
//
//   {"format":"armature-dump","version":1,...header}        what follows and where it came from
//   {"table":"<table>","columns":["id",...],"rows":2}       a table, then exactly `rows` lines,
//   {"id":"…","name":"…",...}                               each a row as PostgreSQL's row_to_json
//   {"sequences":[{"name":…,"last_value":"7","is_called":true}]}
//   {"file":"<folder>/front.png","bytes":1234,"chunks":1}   a media file, then `chunks`
//   "iVBORw0KGgo…"                                          lines, each a JSON string of base64
//   {"end":true,"tables":131,"rows":2045,"files":1}         the end: a file cut short lacks it
//
// A control line is told from a row only by its place (after a table's header, exactly `rows`
// rows follow), so a row with a column named "table" or "end" reads as a row.

export const FORMAT = "armature-dump";
/** Raised when a reader of the previous version could no longer read what is written. */
export const VERSION = 1;

/** Bytes of a media file per line: a multiple of 3, so each line is base64 on its own. */
export const FILE_CHUNK = 3 * 256 * 1024;

/** What `--exclude` may leave out of a dump or a load. */
export const EXCLUDABLE = ["changes", "media"] as const;
export type Excludable = (typeof EXCLUDABLE)[number];

export interface Header {
  format: typeof FORMAT;
  version: number;
  /** When the dump's snapshot was taken (ISO 8601, UTC). */
  created: string;
  /** The kind of database it was taken from. */
  database: "postgresql" | "pglite";
  /** The migrations the source had applied (`<api>/<name>`), in order: the schema its rows fit. */
  migrations: string[];
  /** What was left out (`changes`: the change log's rows; `media`: the uploaded files). */
  excluded: Excludable[];
}

export interface TableLine { table: string; columns: string[]; rows: number }
export interface SequencesLine { sequences: Array<{ name: string; last_value: string; is_called: boolean }> }
export interface FileLine { file: string; bytes: number; chunks: number }
export interface EndLine { end: true; tables: number; rows: number; files: number }
