// A list as a CSV file (`?format=csv`, `Accept: text/csv`): every row the filters and the
// requester's permissions select, not a page, in Nautobot 2.x's columns (csv-columns.ts).
// The rows are read a page at a time, each page written before the next is read, waiting for
// the client to take it: memory holds one page, whatever the count.
import { stringify } from "csv-stringify/sync";
import type { ModelDescriptor } from "../../descriptor.js";
import { customFieldColumns } from "../../features/index.js";
import { reportFailure } from "../../http/failures.js";
import type { Operation } from "../../operations/index.js";
import type { FilterPlan } from "../../query/filters.js";
import type { Ctx } from "./context.js";
import { csvColumns } from "./csv-columns.js";
import { readOpts } from "./request.js";

/** Rows read by one statement: large enough that a statement's cost is spread, small enough to hold. */
export const CSV_PAGE = 1000;

/** Nautobot's file name: its BRANDING_PREPENDED_FILENAME, the model, `_data.csv`. */
function filename(m: ModelDescriptor): string {
  return `nautobot_${m.name.toLowerCase()}_data.csv`;
}

/**
 * Sends the rows `where` selects as CSV. On PostgreSQL they are read by one query in one
 * read-only repeatable-read transaction (Store.streamed: the first page, then one server-side
 * cursor over the rest), so the file is one snapshot. The embedded database has one connection,
 * which a slow client must not hold in a transaction, so there each page is its own keyset
 * statement (Store.pages): a row no one changes meanwhile is in the file once, one written
 * meanwhile may or may not be.
 */
export async function sendCsv(ctx: Ctx, m: ModelDescriptor, op: Operation, where: FilterPlan): Promise<void> {
  const { db, config, store } = ctx.drf;
  if (!config.databaseUrl) return writeFile(ctx, m, op, where, (o, opts) => store.pages(o, m, where, opts, CSV_PAGE));
  await db.transaction((trx) => writeFile(ctx, m, { ...op, trx }, where, (o, opts) => store.streamed(o, m, where, opts, CSV_PAGE)),
    { isolationLevel: "repeatable read", readOnly: true });
}

type Pages = (op: Operation, opts: ReturnType<typeof readOpts>) => AsyncGenerator<Array<Record<string, unknown>>>;

async function writeFile(ctx: Ctx, m: ModelDescriptor, op: Operation, where: FilterPlan, read: Pages): Promise<void> {
  const { index, api } = ctx.drf;
  const opts = readOpts(ctx);
  const include = opts.include === "all" ? [] : opts.include;
  const cfs = await customFieldColumns(op.trx, m, ctx.version, api.versions.supported);
  const columns = csvColumns(index, m, { version: ctx.version, exclude: opts.exclude, include }, cfs.map((c) => c.key));
  const pages = read(op, opts);
  // The first page is read before anything is sent: a bad filter is still the API's own 400.
  let page = await pages.next();
  const { res } = ctx;
  res.status(200).setHeader("Content-Type", "text/csv; charset=utf-8");
  res.setHeader("Content-Disposition", `attachment; filename="${filename(m)}"`);
  try {
    await write(ctx, stringify([columns.map((c) => c.header)]));
    while (!page.done && !res.destroyed) {
      await write(ctx, stringify(page.value.map((o) => columns.map((c) => c.cell(o)))));
      page = await pages.next();
    }
    res.end();
  } catch (err) {
    // The status is sent: a failure now can only cut the file short, which the client sees.
    await pages.return(undefined);
    reportFailure(ctx.req, res, err);
    res.destroy();
  }
}

/** Writes `text`, waiting while the client has not taken what was sent before (or has gone). */
async function write(ctx: Ctx, text: string): Promise<void> {
  const { res } = ctx;
  if (res.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
