import { model, ref, field } from "../../../generator/dsl/index.js";

const sideType = () => field.contentType({ required: true, feature: "customFields" });

export default model("RelationshipAssociation", {
  app: "extras",
  route: "relationship-associations",
  description: "One link of a relationship, from a source object to a destination object.",
  display: "{source_id} -> {destination_id} - {relationship.name}",
  ordering: ["relationship", "source_id", "destination_id"],
  hooks: "extras/relationship-association",
  fields: {
    relationship: ref.fk("extras.Relationship", { relatedName: "associations", required: true, onDelete: "cascade" }),
    source_type: sideType(),
    source_id: field.uuid({ required: true }),
    destination_type: sideType(),
    destination_id: field.uuid({ required: true }),
  },
  uniqueTogether: [["relationship", "source_type", "source_id", "destination_type", "destination_id"]],
  indexes: [{ fields: ["source_id"] }, { fields: ["destination_id"] }],
  nested: ["relationship", "source_id", "destination_id"],
  filters: {
    // peer_id matches either end of a symmetric relationship's links.
    methods: { peer_id: { takes: "uuid" } },
  },
});
