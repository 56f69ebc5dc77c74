// Nautobot's ImageAttachment rules: the parent object must exist (its serializer's validate),
// and an uploaded image is named as its image_upload names it:
// `image-attachments/<model>_<object id>_<file name>`, the file name being the attachment's
// name (with the file's extension, when that is an image's) where it has one. Also the
// `content_type_id` filter (content types by id; the type is kept as its label).
import { type ContentTypeField, type ModelDescriptor, Refusal, type MethodQuery, type SaveEvent, labelOf, validFilename, col, ident } from "../../../runtime/hooks.js";
import type { ExtrasImageAttachment } from "../../../generated/inventory/rows.js";

const IMAGE_EXTENSIONS = ["bmp", "gif", "jpeg", "jpg", "png"];

const typeField = (model: ModelDescriptor) => model.fields.find((f): f is ContentTypeField => f.kind === "contentType" && f.name === "content_type")!;

export async function beforeSave({ db, index, model, values, after, changed }: SaveEvent<ExtrasImageAttachment>): Promise<void> {
  const type = String(after.content_type);
  const parent = index.model(type);
  if (changed.has("content_type") || changed.has("object_id")) {
    const found = await db(parent.table).where("id", String(after.object_id)).first("id");
    if (!found) {
      // The content type as Django shows it (`DCIM | site`).
      const r = typeField(model).registry!;
      const shown = (await db.raw(`SELECT ${col("r", r.labeledName)} AS name FROM ${ident(r.table)} r WHERE ${labelOf(r, "r")} = ?`, [type])).rows[0]?.name ?? type;
      throw new Refusal({ non_field_errors: `Invalid parent object: ${shown} ID ${String(after.object_id)}` });
    }
  }
  if (typeof values.image !== "string") return;
  const [folder, file] = [values.image.slice(0, values.image.lastIndexOf("/") + 1), values.image.slice(values.image.lastIndexOf("/") + 1)];
  const extension = file.split(".").at(-1)!.toLowerCase();
  const name = after.name ? validFilename(String(after.name)) : "";
  const filename = name && IMAGE_EXTENSIONS.includes(extension) ? `${name}.${extension}` : name || file;
  values.image = `${folder}${parent.sentenceName.replace(/ /g, "_")}_${String(after.object_id)}_${filename}`;
}

function ofTypes({ alias, model, ids }: MethodQuery): string {
  const type = typeField(model);
  const r = type.registry!;
  return `${col(alias, type.column)} IN (SELECT ${labelOf(r, "r")} FROM ${ident(r.table)} r WHERE r.id = ANY(${ids}))`;
}

export const filters = { content_type_id: ofTypes };
