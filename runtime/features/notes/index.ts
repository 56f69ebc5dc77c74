// Notes: free text attached to any object of a model with the `notes` feature through the note
// model's generic link (the api's `noteModel`, attachment.ts). An object's notes are the
// sub-collection a profile serves below it (`<object>/notes/`): its notes listed, and a note
// written as the object's. The route is the feature's (`routes`); a profile serves it.
import type { Knex } from "knex";
import { FEATURE_ROUTES, type ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import type { Feature } from "../types.js";
import { attachment } from "./attachment.js";

export interface ObjectNotes {
  /** The note model. */
  model: ModelDescriptor;
  /** Narrows a list of notes (aliased t0) to those of object `id`. */
  of(id: string): (qb: Knex.QueryBuilder) => void;
  /** A note's body, attached to object `id` whatever the body says. */
  attach(body: Record<string, unknown>, id: string): Record<string, unknown>;
}

/** The notes of objects of `target`, or undefined where the api or the model has none. */
export function notesOf(index: ModelIndex, target: ModelDescriptor): ObjectNotes | undefined {
  if (!index.api.noteModel || !target.features.notes) return undefined;
  const model = index.model(index.api.noteModel);
  const link = attachment(model, target);
  return {
    model,
    of: (id) => (qb) => { qb.where(`t0.${link.typeColumn}`, target.key).where(`t0.${link.idColumn}`, id); },
    attach: (body, id) => ({ ...body, [link.type]: target.key, [link.id]: id }),
  };
}

export const feature = {
  name: "notes",
  routes: (index) => (index.api.noteModel ? FEATURE_ROUTES.filter((r) => r.feature === "notes") : []),
} satisfies Feature;
