// GET of an archive: the model's archive parameters planned as the engine's filter (term
// archives, post archives linking to other posts, and the linked posts' own archives), one
// page read (its records' JSON text as PostgreSQL writes it, where it can), and the
// paginator's answer.
import { ValidationError } from "../../../errors.js";
import { JsonText } from "../../../query/json-text.js";
import type { ModelDescriptor } from "../../../descriptor.js";
import type { ArchivePlan } from "../archive.js";
import { invalidParam, type WpError } from "../errors.js";
import { Shaper } from "../records.js";
import { finishedRecords } from "../record-text.js";
import type { ReadPage, TextPage } from "../paginator.js";
import type { WpContext } from "../context.js";
import { readOperation, readOptions, textOptions } from "./record.js";

/** The first parameter an archive's plan or its checks refuse, as WordPress reports it. */
function firstInvalid(errors: Record<string, unknown>): WpError {
  return invalidParam(Object.keys(errors)[0]);
}

function plan(ctx: WpContext, m: ModelDescriptor): ArchivePlan {
  const { archive, cat } = ctx.wp;
  const wp = m.wordpress!;
  if (wp.kind === "term") return archive.terms(m, ctx.params);
  const linksPosts = m.fields.some((f) => (f.kind === "fk" || f.kind === "m2m") && cat.model(f.target).wordpress);
  return linksPosts ? archive.posts(m, ctx.params, ctx.who) : archive.linked(m, ctx.params, ctx.who);
}

export async function listView(ctx: WpContext): Promise<void> {
  const { store, cat, policy } = ctx.wp;
  const m = ctx.model!;
  const op = await readOperation(ctx, m);
  const paged = policy.paginator.paging(ctx.params);
  const planned = plan(ctx, m);
  if (planned.stopped) {
    // A parameter met before the one that stopped planning may be refuted by the data.
    const earlier = await store.filterErrors(op, planned.filter, {});
    throw earlier ? firstInvalid(earlier) : planned.stopped;
  }
  const text = ctx.wp.texts.of(m);
  const window = policy.paginator.window(paged);
  let page: ReadPage<Record<string, unknown>> | TextPage;
  try {
    // The records' JSON text as PostgreSQL writes it, where the model's records have one; its
    // zones worded piece by piece (a piece is cut only where a URL or a jsonb value was written,
    // never inside a zone's marker).
    const written = text && await store.listJson(op, m, planned.filter, window, { ...textOptions(ctx, text), ordering: planned.ordering });
    page = written
      ? { count: written.count, results: new JsonText(...written.results.parts.map(finishedRecords)) }
      : await store.list(op, m, planned.filter, window, { ...readOptions(ctx), ordering: planned.ordering });
  } catch (err) {
    if (err instanceof ValidationError && !Array.isArray(err.errors)) throw firstInvalid(err.errors);
    throw err;
  }
  const shaper = new Shaper(cat, ctx.site);
  policy.paginator.respond(ctx, m, paged, page, planned.echo, (values) => shaper.record(m, values));
}
