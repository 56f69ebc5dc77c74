// Response JSON written by PostgreSQL: SQL expressions whose text is a value as the server's
// JSON.stringify of the rendered object would write it (compact, keys in the response's order,
// numbers as JavaScript prints them), so a read's answer passes through untouched. What the
// text of a statement cannot know, the request's own URL, is written as a marker character the
// statement replaces with a value bound to it (`withUrls`), so that one text serves every host;
// and a jsonb object, array or number (whose numbers and key order JavaScript writes otherwise)
// between two markers, each such value written again by the server on its own: PostgreSQL's
// JSON escapes every control character in data, so a raw one in the text can only be a
// marker. Taken: U+0001 and U+0002 (URLs) and U+0003/U+0004 (jsonb values) here, U+0005
// before a GraphQL leaf graphql-js must write (graphql/compile.ts NOT_AS_IS), U+0006 and U+0007
// around a zone the calendar names (profiles/wordpress/record-text.ts).
import { literal } from "./sql.js";

/**
 * A response value that is already JSON text: renderers send it as it is, piece by piece. A
 * page of a thousand objects is some 2 MB: as one string each copy of it is a large object,
 * kept by V8 until its next full collection; as pieces under V8's large-object size, written
 * and let go, it is young garbage a scavenge frees.
 */
export class JsonText {
  readonly parts: readonly string[];

  /** The text of `parts` run together (another JsonText's pieces taken as they are). */
  constructor(...parts: Array<string | JsonText>) {
    this.parts = parts.flatMap((p) => (typeof p === "string" ? [p] : p.parts));
  }

  /** The text as one string. */
  get text(): string {
    return this.parts.join("");
  }

  /** Whether it is the empty list, `[]`: told without running its pieces together. */
  get isEmptyList(): boolean {
    let length = 0;
    for (const p of this.parts) length += p.length;
    return length === 2 && this.text === "[]";
  }

  /** Its length in UTF-8 bytes. */
  get byteLength(): number {
    let n = 0;
    for (const p of this.parts) n += Buffer.byteLength(p);
    return n;
  }
}

/** Stands for the API's URL (`http://host/api/`) in JSON text; JSON escapes it in data. */
export const API_URL_MARKER = "\u0001";
/** Stands for the site's root URL (`http://host`), where media files are served below. */
export const SITE_URL_MARKER = "\u0002";

/** The request's URLs a JSON text is finished with. */
export interface TextUrls {
  api: string;
  site: string;
}

/** The URL markers `json` (the SQL of a JSON text) may write, in the order `withUrls` binds their values. */
const markersIn = (json: string): string[] => [API_URL_MARKER, SITE_URL_MARKER].filter((m) => json.includes(m));

/**
 * SQL of the JSON text `json` with its URL markers replaced by the values bound after its own
 * (`urlValues`). Replaced by PostgreSQL, not by the server: each row's text was copied once
 * more in JavaScript to put the URLs in, some 140 KB of a list of 50 prefixes' 440 KB of
 * garbage per request, and the young collections it called for were a quarter of the
 * process's CPU. A marker reaches the text only from the statement's own literals (data's
 * control characters are escaped), so one that `holding` (the text's SQL and that of the joins
 * it reads from) does not hold is not looked for: each replace reads the whole text (1.4 of
 * PostgreSQL's 16 ms on a list of 1,000 devices for two).
 */
export const withUrls = (json: string, holding = json): string =>
  markersIn(holding).reduce((sql, m) => `replace(${sql}, chr(${m.charCodeAt(0)}), ?)`, json);

/** The values `withUrls` binds for a text whose SQL (with what it reads from, joins included) is `holding`: the request's URLs as a JSON string holds them. */
export const urlValues = (urls: TextUrls, holding: string): string[] =>
  markersIn(holding).map((m) => JSON.stringify(m === API_URL_MARKER ? urls.api : urls.site).slice(1, -1));

/** The SQL text of a JSON value known when the plan is built (a key, a label, a constant). */
export const constantJson = (value: unknown): string => literal(JSON.stringify(value));

/** `"` + the marker + `path`: the start of a URL string value, to be followed by more text and a closing quote. */
export const urlStart = (marker: string, path: string): string => literal(`"${marker}${JSON.stringify(path).slice(1, -1)}`);

/** JSON text of a scalar SQL value (text, boolean, integer), `null` for SQL NULL. */
export const scalarJson = (expr: string): string => `coalesce(to_json(${expr})::text, 'null')`;

/** Around the text of a jsonb value that JavaScript writes (its numbers, its key order). */
const JSONB_START = "\u0003";
const JSONB_END = "\u0004";

/**
 * JSON text of a jsonb value as JavaScript writes it, `null` for SQL NULL. jsonb writes
 * strings, booleans and null as JavaScript does; an object, an array or a number is written
 * as jsonb words it between markers, and the server writes it again as JavaScript would
 * (`finished`): a value's own text, never the answer's.
 */
export const jsonbJson = (expr: string): string =>
  `CASE WHEN jsonb_typeof(${expr}) IN ('string', 'boolean', 'null') THEN (${expr})::text ` +
  `ELSE coalesce(${literal(JSONB_START)} || (${expr})::text || ${literal(JSONB_END)}, 'null') END`;

/** `jsonbJson` of a value that is an object or an array where it is not SQL NULL: it names the value once. */
export const jsonbObjectJson = (expr: string): string => `coalesce(${literal(JSONB_START)} || (${expr})::text || ${literal(JSONB_END)}, 'null')`;

/** JSON text of a float8 value as JavaScript writes it, `null` for SQL NULL. */
export const numberJson = (expr: string): string => `coalesce(armature_json_number(${expr}), 'null')`;

/** PostgreSQL's bound on a function's arguments. */
const MAX_ARGUMENTS = 100;

/** SQL of the texts `parts` run together: `concat` makes the result once, where a chain of `||` copies it at each step. */
export function concatenated(parts: string[]): string {
  if (parts.length <= MAX_ARGUMENTS) return `concat(${parts.join(", ")})`;
  const groups: string[] = [];
  for (let n = 0; n < parts.length; n += MAX_ARGUMENTS) groups.push(concatenated(parts.slice(n, n + MAX_ARGUMENTS)));
  return concatenated(groups);
}

/** A JSON object of `entries` (each a key and the SQL of its value's JSON text, never NULL), in that order. */
export function objectJson(entries: ReadonlyArray<readonly [string, string]>): string {
  if (!entries.length) return "'{}'";
  return concatenated([...entries.flatMap(([key, value], n) => [literal(`${n ? "," : "{"}${JSON.stringify(key)}:`), value]), "'}'"]);
}

/** A JSON array of `element` (JSON text) over the rows of `from`, in `order`; `[]` when there are none. */
export const arrayJson = (element: string, from: string, order?: string): string =>
  `(SELECT '[' || coalesce(string_agg(${element}, ','${order ? ` ORDER BY ${order}` : ""}), '') || ']' ${from})`;

/**
 * The order JavaScript gives an object's keys: array indexes (canonical integers below 2³² − 1)
 * first, ascending, then the others as they came. Terms to put before the rows' own order.
 */
export const javascriptKeyOrder = (key: string): string =>
  `CASE WHEN ${key} ~ '^(0|[1-9][0-9]{0,9})$' AND ${key}::bigint < 4294967295 THEN ${key}::bigint END NULLS LAST`;

const JSONB_VALUE = new RegExp(`${JSONB_START}([^${JSONB_END}]*)${JSONB_END}`, "g");

/** Characters a piece of a finished text reaches before it is cut: well under V8's large objects (128 KB). */
const PIECE = 16384;

/**
 * Characters from which a text is a piece of its own, as PostgreSQL gave it, not copied into
 * one with its neighbours: running every object of a page into pieces copied the whole answer
 * once more (100 KB of the 300 KB a list of 50 prefixes allocated per request). Shorter texts
 * (punctuation, small objects) are still run together, not written one by one.
 */
const OWN_PIECE = 1024;

/** How many distinct jsonb values an answer's Finishing keeps written. */
const WRITTEN_KEPT = 64;

/**
 * JSON texts from PostgreSQL (their URLs put in by the statement, `withUrls`) with their jsonb
 * values written as JavaScript writes them: in one pass, as pieces (the text between markers,
 * and the values written again) run together a piece at a time, each piece given to `piece` as
 * it is made: never the whole answer in one string.
 */
export class Finishing {
  private run: string[] = [];
  private length = 0;
  /**
   * The values written so far, by jsonb's text: a page's objects repeat theirs (a thousand
   * devices, a few config contexts), and each is parsed and written once. Held only while this
   * one answer is made, and only the first WRITTEN_KEPT: objects each with a value of its own
   * would hold a second copy of their values for nothing.
   */
  private readonly written = new Map<string, string>();

  /**
   * `ownFrom`: the characters from which a text is given as a piece of its own (OWN_PIECE);
   * Infinity runs every text together into pieces, as an answer sent in chunks wants them.
   */
  constructor(private readonly piece: (text: string) => void, private readonly ownFrom = OWN_PIECE) {}

  /** Text that is JSON already, with no marker in it (punctuation between objects). */
  add(text: string): void {
    if (text.length >= this.ownFrom) {
      this.flush();
      this.piece(text);
      return;
    }
    this.run.push(text);
    this.length += text.length;
    if (this.length >= PIECE) this.flush();
  }

  /** PostgreSQL's text of one value. */
  finish(one: string): void {
    let start = one.indexOf(JSONB_START);
    if (start < 0) return this.add(one);
    let at = 0;
    while (start >= 0) {
      const end = one.indexOf(JSONB_END, start);
      const value = one.slice(start + 1, end);
      let written = this.written.get(value);
      if (written === undefined) {
        written = JSON.stringify(JSON.parse(value));
        if (this.written.size < WRITTEN_KEPT) this.written.set(value, written);
      }
      this.add(one.slice(at, start));
      this.add(written);
      at = end + 1;
      start = one.indexOf(JSONB_START, at);
    }
    this.add(one.slice(at));
  }

  /** Gives what is left as the last piece. */
  close(): void {
    this.flush();
  }

  /** The short texts held so far, as one piece. */
  private flush(): void {
    if (this.run.length) this.piece(this.run.join(""));
    this.run = [];
    this.length = 0;
  }
}

/**
 * The JSON text `text` (an array of the texts when a list of them) finished (`Finishing`), as
 * pieces.
 */
export function finished(text: string | readonly string[]): JsonText {
  const pieces: string[] = [];
  const finishing = new Finishing((piece) => pieces.push(piece));
  if (typeof text === "string") finishing.finish(text);
  else {
    finishing.add("[");
    text.forEach((one, n) => {
      if (n) finishing.add(",");
      finishing.finish(one);
    });
    finishing.add("]");
  }
  finishing.close();
  return new JsonText(...pieces);
}

/**
 * JSON text of which a part is still arriving: `before`, the pieces given to `middle` as the
 * rows they are made of come from PostgreSQL, then `after`. A page of a thousand objects, read
 * whole before it was written, kept each request's 2 MB of rows and text long enough to reach
 * V8's old generation; written as it arrives, each piece is young garbage once the socket has
 * taken it.
 */
export class ArrivingJsonText {
  constructor(readonly before: string, readonly middle: Arriving, readonly after: string) {}

  /** This text with `before` and `after` around it. */
  around(before: string, after: string): ArrivingJsonText {
    return new ArrivingJsonText(before + this.before, this.middle, this.after + after);
  }

  /** The whole text, once the last piece has arrived. */
  async whole(): Promise<JsonText> {
    const pieces: string[] = [this.before];
    await this.middle.pipe((piece) => pieces.push(piece));
    pieces.push(this.after);
    return new JsonText(...pieces);
  }
}

/** Pieces of text given as they are made, kept until someone takes them (`pipe`). */
export class Arriving {
  private taker?: (piece: string) => void;
  private kept: string[] = [];
  private resolve!: () => void;
  private reject!: (err: unknown) => void;
  /** Settles once the last piece has been given, or fails with what stopped them. */
  readonly done: Promise<void>;

  constructor() {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Nobody may be taking the pieces yet (an answer refused before it was sent).
    this.done.catch(() => undefined);
  }

  give(piece: string): void {
    if (this.taker) this.taker(piece);
    else this.kept.push(piece);
  }

  end(): void {
    this.resolve();
  }

  fail(err: unknown): void {
    this.reject(err);
  }

  /** Gives `taker` the pieces kept so far, then each as it comes; settles as `done` does. */
  pipe(taker: (piece: string) => void): Promise<void> {
    for (const piece of this.kept) taker(piece);
    this.kept = [];
    this.taker = taker;
    return this.done;
  }
}

/** The JSON text `text` (no URL in it) with its jsonb values written as JavaScript writes them. */
export const jsonbWritten = (text: string): string =>
  text.includes(JSONB_START) ? text.replace(JSONB_VALUE, (_m, value: string) => JSON.stringify(JSON.parse(value))) : text;
