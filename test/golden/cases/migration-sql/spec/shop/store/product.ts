import { model, field } from "../../../../../../../generator/dsl/index.js";

// An extra index a report needs, and a trigger the spec declares: both reach the next
// migration after the tables; the snapshot remembers them so the one after adds nothing.
export default model("Product", {
  app: "store",
  route: "products",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    price: field.integer({ min: 0, required: true }),
  },
  nested: ["name"],
  indexes: [{ fields: ["price", "name"] }],
  sql: {
    non_negative_price: {
      up: `CREATE OR REPLACE FUNCTION store_product_clamp_price() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.price := greatest(NEW.price, 0);
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS store_product_clamp_price ON store_product;
CREATE TRIGGER store_product_clamp_price BEFORE INSERT OR UPDATE ON store_product FOR EACH ROW EXECUTE FUNCTION store_product_clamp_price();`,
      down: "DROP TRIGGER IF EXISTS store_product_clamp_price ON store_product; DROP FUNCTION IF EXISTS store_product_clamp_price();",
    },
  },
});
