import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "shop",
  title: "Shop",
  profile: "drf",
  basePath: "/api/",
  apps: ["store"],
  sql: {
    cheap_products: {
      up: "CREATE OR REPLACE VIEW store_cheap_product AS SELECT id, name, price FROM store_product WHERE price < 10;",
      down: "DROP VIEW IF EXISTS store_cheap_product;",
    },
  },
});
