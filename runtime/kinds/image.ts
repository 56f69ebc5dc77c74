// An uploaded image (Django's ImageField): written as a file part of a multipart body (a
// PNG, JPEG or GIF within the media size limit), its size read from its header into the
// model's height and width columns; the file is kept in the media folder once the row is
// saved, under the name the column holds then (a model's hook may have named it), and removed
// once a delete or a replacing upload commits. Read as the file's URL below the site's root.
import { imageSize } from "image-size";
import type { ImageField } from "../descriptor.js";
import { Upload } from "../http/multipart.js";
import { media, MEDIA_PATH, removeFile, saveFile, validFilename, whenCommitted } from "../media/index.js";
import { SITE_URL_MARKER, urlStart } from "../query/json-text.js";
import { col } from "../query/sql.js";
import { FieldProblem, type RuntimeFieldKind } from "./types.js";

/** The image types taken, as image-size names them. */
const TYPES = new Set(["png", "jpg", "gif"]);

/** The image's height and width, or the refusal of a file that is no image this kind takes. */
function dimensions(data: Buffer): { height: number; width: number } {
  let size: ReturnType<typeof imageSize> | undefined;
  try {
    size = imageSize(data);
  } catch {
    size = undefined;
  }
  if (!size?.type || !TYPES.has(size.type) || !size.height || !size.width) throw new FieldProblem({ code: "invalid_image" });
  return { height: size.height, width: size.width };
}

/** The site's root: the API's URL without the API's own path. */
export const siteUrl = (apiUrl: string, basePath: string): string =>
  (apiUrl.endsWith(basePath) ? apiUrl.slice(0, apiUrl.length - basePath.length) : new URL(apiUrl).origin);

export const image: RuntimeFieldKind<ImageField> = {
  read: (f, { alias }) => col(alias, f.column),
  render(_f, { index }) {
    const basePath = index.api.basePath;
    return (v, ctx) => {
      if (typeof v !== "string" || v === "") return null;
      return `${siteUrl(ctx.apiUrl, basePath)}${MEDIA_PATH}${v.split("/").map(encodeURIComponent).join("/")}`;
    };
  },
  json(f, { alias }) {
    const c = col(alias, f.column);
    return `CASE WHEN ${c} IS NULL OR ${c} = '' THEN 'null' ELSE ${urlStart(SITE_URL_MARKER, MEDIA_PATH)} || armature_uri_path(${c}) || '"' END`;
  },
  async write(f, value, { db, model, id, row }, afterSave) {
    if (value === null) {
      if (!f.nullable) throw new FieldProblem({ code: "null" });
      row[f.column] = null;
      return;
    }
    if (!(value instanceof Upload)) throw new FieldProblem({ code: "not_a_file" });
    if (!value.filename) throw new FieldProblem({ code: "no_filename" });
    if (value.data.length === 0) throw new FieldProblem({ code: "empty_file" });
    if (value.filename.length > f.maxLength) throw new FieldProblem({ code: "filename_too_long", limit: f.maxLength, length: value.filename.length });
    const { maxBytes } = media();
    if (value.data.length > maxBytes) throw new FieldProblem({ code: "file_too_large", limit: maxBytes });
    const { height, width } = dimensions(value.data);
    row[f.column] = `${f.uploadTo}${validFilename(value.filename)}`;
    row[f.heightColumn] = height;
    row[f.widthColumn] = width;
    const previous: string | null = id === null ? null : (await db(model.table).where("id", id).first({ name: f.column }))?.name ?? null;
    afterSave.push(async (saved) => {
      const named: string = (await db(model.table).where("id", saved).first({ name: f.column })).name;
      const kept = await saveFile(named, value.data, f.maxLength);
      if (kept !== named) await db(model.table).where("id", saved).update({ [f.column]: kept });
      whenCommitted(db, async () => { if (previous && previous !== kept) await removeFile(previous); }, () => removeFile(kept));
    });
  },
  checksOwnValue: true,
  async onDelete(f, db, model, ids) {
    const names: Array<{ name: string | null }> = await db(model.table).whereIn("id", ids).select({ name: f.column });
    whenCommitted(db, async () => { for (const { name } of names) if (name) await removeFile(name); });
  },
  options: {
    type: () => "image upload",
    describe(f, info) {
      info.max_length = f.maxLength;
    },
  },
};
