// `<detail>/notes/`, as Nautobot's NotesViewSetMixin: a GET pages through the object's notes
// (no filters; as CSV, as any list), a POST of a note's fields attaches one to it, made by the requester.
import { notFound } from "../../../errors.js";
import { notesOf } from "../../../features/index.js";
import type { Ctx } from "../context.js";
import { expectObject } from "../bulk.js";
import { sendCsv } from "../csv-export.js";
import { actor, readJson, readOpts, RESERVED } from "../request.js";
import { only } from "./allow.js";

export function notes(ctx: Ctx): Promise<void> | void {
  const { index, filters, strict, store, operations, policy } = ctx.drf;
  const m = index.model(ctx.match.route.model!);
  const objectNotes = notesOf(index, m)!;
  return only(ctx, ["GET", "POST"], async () => {
    await policy.permission.authorize(ctx, m);
    const id = ctx.match.params.id.toLowerCase();
    const by = await actor(ctx, m, "notes");
    const op = await operations.read(by);
    if (!(await store.existing(op, m, [id])).length) throw notFound();
    if (ctx.req.method === "POST") {
      const body = expectObject(readJson(ctx));
      const made = await operations.run(by, (w) => store.create(w, objectNotes.model, objectNotes.attach(body, id), { version: ctx.version, partial: false }));
      return policy.renderer(ctx, 201, (await store.fetch(await operations.read(by), objectNotes.model, [made], { ...readOpts(ctx), unscoped: true }))[0]);
    }
    const { plan } = filters.compile(objectNotes.model, new Map(), { strict, reserved: RESERVED });
    const where = { ...plan, apply: objectNotes.of(id) };
    if (ctx.renderer === "csv") return sendCsv(ctx, objectNotes.model, op, where);
    const at = policy.paginator.params(ctx);
    const { count, results } = await store.list(op, objectNotes.model, where, at, readOpts(ctx));
    policy.renderer(ctx, 200, policy.paginator.page(ctx, at, count, results));
  });
}
