// Relationship definitions as rows (the api's `relationships.definitions` model): read per
// request, never cached, so every server instance sees a definition the moment it is saved.
// The column names are the convention the api's relationship models follow (ApiSpec.relationships).
import type { Db } from "../../kinds/types.js";
import type { ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { plural } from "../../text/plural.js";

export type Side = "source" | "destination" | "peer";

export interface Relationship {
  id: string;
  name: string;
  slug: string;
  type: string;
  required_on: string;
  source_type: string;
  source_label: string;
  source_hidden: boolean;
  source_filter: Record<string, unknown> | null;
  destination_type: string;
  destination_label: string;
  destination_hidden: boolean;
  destination_filter: Record<string, unknown> | null;
}

/** Where the api keeps definitions and associations. */
export interface RelationshipTables {
  definitions: string;
  associations: string;
}

export function tablesOf(index: ModelIndex): RelationshipTables {
  const r = index.api.relationships;
  if (!r) throw new Error("the api defines no relationship models");
  return { definitions: index.model(r.definitions).table, associations: index.model(r.associations).table };
}

export const isSymmetric = (r: Pick<Relationship, "type">): boolean => r.type.startsWith("symmetric-");

/** Whether `side` of the relationship may hold several objects (Nautobot's Relationship.has_many). */
export function hasMany(r: Pick<Relationship, "type">, side: Side): boolean {
  if (r.type === "many-to-many" || r.type === "symmetric-many-to-many") return true;
  if (r.type === "one-to-one" || r.type === "symmetric-one-to-one") return false;
  return side === "destination";
}

/** The relationship as Nautobot's `str()` words it in messages. */
export const relationshipText = (r: Pick<Relationship, "name">): string => r.name.replace(/_/g, " ");

/** The relationships that apply to `m` (either end), in name order. */
export async function relationshipsOf(db: Db, index: ModelIndex, m: ModelDescriptor): Promise<Relationship[]> {
  return db(tablesOf(index).definitions).where("source_type", m.key).orWhere("destination_type", m.key).orderBy("name");
}

/**
 * The label shown for the objects at the other end, seen from `side` (Nautobot's
 * Relationship.get_label): the side's own label, else the other model's verbose name, plural
 * where that end holds many.
 */
export function sideLabel(index: ModelIndex, r: Relationship, side: Side): string {
  const own = side === "peer" ? "source" : side;
  const label = own === "source" ? r.source_label : r.destination_label;
  if (label) return label;
  const other = index.byKey.get(own === "source" ? r.destination_type : r.source_type);
  if (!other) return relationshipText(r);
  const name = other.sentenceName;
  const many = hasMany(r, own === "source" ? "destination" : "source");
  return many ? plural(name) : name;
}
