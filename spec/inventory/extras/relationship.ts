import { model, field, choices } from "../../../generator/dsl/index.js";

export const RelationshipType = choices("RelationshipType", [
  ["one-to-one", "One to One"],
  ["symmetric-one-to-one", "Symmetric One to One"],
  ["one-to-many", "One to Many"],
  ["many-to-many", "Many to Many"],
  ["symmetric-many-to-many", "Symmetric Many to Many"],
]);

export const RelationshipRequiredSide = choices("RelationshipRequiredSide", [
  ["", "Neither side required"],
  ["source", "Source objects MUST implement this relationship"],
  ["destination", "Destination objects MUST implement this relationship"],
]);

// Nautobot's RelationshipModel is every model with custom fields here (its PrimaryModel,
// OrganizationalModel and components), so the feature names the models a relationship may join.
const side = () => field.contentType({ required: true, feature: "customFields" });

export default model("Relationship", {
  app: "extras",
  route: "relationships",
  description: "A kind of link between objects of two models (or one), defined at run time.",
  display: "{name}",
  ordering: ["name"],
  features: ["changeLogged"],
  hooks: "extras/relationship",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    // Nautobot's slugify_dashes_to_underscores; kept free by a -2, -3… suffix as AutoSlugField does.
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name", slugUnderscores: true }),
    description: field.string({ maxLength: 200 }),
    type: field.choice(RelationshipType, { default: "many-to-many", plain: true }),
    required_on: field.choice(RelationshipRequiredSide, { blank: true, default: "", plain: true }),
    source_type: side(),
    source_label: field.string({ maxLength: 50 }),
    source_hidden: field.boolean({ default: false }),
    source_filter: field.json({ nullable: true }),
    destination_type: side(),
    destination_label: field.string({ maxLength: 50 }),
    destination_hidden: field.boolean({ default: false }),
    destination_filter: field.json({ nullable: true }),
  },
  nested: ["name", "slug"],
  filters: { q: ["name", "description"], exclude: ["description", "required_on", "source_label", "source_hidden", "source_filter", "destination_label", "destination_hidden", "destination_filter"] },
});
