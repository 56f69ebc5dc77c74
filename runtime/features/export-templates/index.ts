// Export templates (api `exportTemplates`, Nautobot's ExportTemplate): `?export=<name>` on a
// model's list renders the template of that name and content type over every row the list's
// filters and the requester's permissions select, read in one statement, as Nautobot's list
// views' render_to_response does. Gives the file, its type and name; the profile sends it.
import type { ApiDescriptor, ModelDescriptor } from "../../descriptor.js";
import { HttpError, notFound } from "../../errors.js";
import type { ModelIndex } from "../../models.js";
import type { FilterPlan } from "../../query/filters.js";
import type { ReadOptions, Store } from "../../store.js";
import type { Operation } from "../../operations/index.js";
import { render, type Bounds } from "../../templates/jinja.js";
import { plural } from "../../text/plural.js";

/**
 * A template over a whole list may do far more than one over an object: about ten steps a
 * field of a row, and a file rather than a line.
 */
const EXPORT_BOUNDS: Bounds = { steps: 5_000_000, millis: 5_000, output: 32 * 1024 * 1024 };

/** What Nautobot puts before a file's name (its default BRANDING_PREPENDED_FILENAME). */
const FILENAME_PREFIX = "nautobot_";

/** The query parameter naming the template. */
export const EXPORT_PARAM = "export";

export interface ExportFile {
  mimeType: string;
  filename: string;
  body: string;
}

/** The export templates of an api, when it has them. */
export function exportTemplates(api: ApiDescriptor, index: ModelIndex): ExportTemplates | undefined {
  return api.exportTemplates ? new ExportTemplates(index, index.model(api.exportTemplates)) : undefined;
}

export class ExportTemplates {
  constructor(private readonly index: ModelIndex, private readonly templates: ModelDescriptor) {}

  /**
   * The template `name` of `m` rendered over the rows `where` selects, as the full objects the
   * list shows (`opts`): a 404 when there is no such template, a 400 when it fails to render.
   */
  async render(op: Operation, store: Store, m: ModelDescriptor, name: string, where: FilterPlan, opts: ReadOptions): Promise<ExportFile> {
    const db = op.trx;
    const col = (field: string) => this.index.column(this.templates, field);
    const template = await db(this.templates.table)
      .where(col("content_type"), m.key).where(col("name"), name)
      .first({ code: col("template_code"), mimeType: col("mime_type"), extension: col("file_extension") });
    if (!template) throw notFound();
    const { results } = await store.list(op, m, where, { limit: null, offset: 0 }, opts);
    const out = render(String(template.code), { queryset: results }, EXPORT_BOUNDS);
    if (!out.ok) throw new HttpError(400, { code: "export_template_error", name, error: out.error });
    return {
      mimeType: template.mimeType || "text/plain",
      filename: `${FILENAME_PREFIX}${plural(m.sentenceName)}${template.extension ? `.${template.extension}` : ""}`,
      body: out.value.replace(/\r\n/g, "\n"),
    };
  }
}
