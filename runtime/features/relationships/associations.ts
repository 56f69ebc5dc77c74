// The rules one association must follow (Nautobot's RelationshipAssociation.clean): both
// ends of the relationship's types, not one object with itself, no duplicate (either way round
// for a symmetric relationship), the cardinality of the type, and the sides' filter restrictions.
import { ValidationError } from "../../errors.js";
import type { Db } from "../../kinds/types.js";
import type { Problem } from "../../problems.js";
import type { ModelIndex } from "../../models.js";
import { hasMany, isSymmetric, relationshipText, tablesOf, type Relationship } from "./definitions.js";
import { objectText, passesFilter } from "./objects.js";

export interface Association {
  id: string | null;
  relationship: Relationship;
  source_type: string;
  source_id: string;
  destination_type: string;
  destination_id: string;
}

const refuse = (key: string, problem: Problem) => new ValidationError({ [key]: [problem] });

export async function checkAssociation(db: Db, index: ModelIndex, a: Association): Promise<void> {
  const r = a.relationship;
  const rel = relationshipText(r);
  if (a.source_type !== r.source_type) throw refuse("source_type", { code: "association_type_mismatch", side: "source", relationship: rel });
  if (a.destination_type !== r.destination_type) throw refuse("destination_type", { code: "association_type_mismatch", side: "destination", relationship: rel });
  if (a.source_type === a.destination_type && a.source_id === a.destination_id) throw refuse("destination_id", { code: "association_with_itself" });
  const others = () => {
    const q = db(tablesOf(index).associations).where("relationship_id", r.id);
    if (a.id !== null) q.whereNot("id", a.id);
    return q;
  };
  const exists = async (where: Record<string, string>) => (await others().where(where).first("id")) !== undefined;
  const source = () => objectText(db, index, a.source_type, a.source_id);
  const destination = () => objectText(db, index, a.destination_type, a.destination_id);
  if (await exists({ source_type: a.source_type, source_id: a.source_id, destination_type: a.destination_type, destination_id: a.destination_id })) {
    throw refuse("non_field_errors", { code: "unique_set", fields: ["relationship", "source_type", "source_id", "destination_type", "destination_id"] });
  }
  if (isSymmetric(r) && await exists({ source_id: a.destination_id, destination_id: a.source_id })) {
    throw refuse("__all__", { code: "association_exists", relationship: rel, source: await source(), destination: await destination() });
  }
  if (!hasMany(r, "source")) {
    if (await exists({ destination_type: a.destination_type, destination_id: a.destination_id })) {
      throw refuse("destination", { code: "association_cardinality", relationship: rel, object: await destination(), end: "destination" });
    }
    if (r.type !== "one-to-many" && await exists({ source_type: a.source_type, source_id: a.source_id })) {
      throw refuse("source", { code: "association_cardinality", relationship: rel, object: await source(), end: "source" });
    }
    if (r.type === "symmetric-one-to-one") {
      if (await exists({ destination_id: a.source_id })) {
        throw refuse("source", { code: "association_cardinality", relationship: rel, object: await source(), end: "peer" });
      }
      if (await exists({ source_id: a.destination_id })) {
        throw refuse("destination", { code: "association_cardinality", relationship: rel, object: await destination(), end: "peer" });
      }
    }
  }
  for (const side of ["destination", "source"] as const) {
    const filter = side === "source" ? r.source_filter : r.destination_filter;
    if (!filter || !Object.keys(filter).length) continue;
    const m = index.byKey.get(side === "source" ? a.source_type : a.destination_type);
    const id = side === "source" ? a.source_id : a.destination_id;
    if (m && !(await passesFilter(db, index, m, filter, id))) {
      throw refuse(side, { code: "association_filter", relationship: rel, object: side === "source" ? await source() : await destination(), side });
    }
  }
}
