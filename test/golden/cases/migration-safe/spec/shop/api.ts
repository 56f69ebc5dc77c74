import { api } from "../../../../../../generator/dsl/index.js";

// The maintainer gives up the Old model and the product code on purpose.
export default api({
  name: "shop",
  title: "Shop",
  profile: "drf",
  basePath: "/api/",
  apps: ["store"],
  discard: ["store.Old", "store.Product.code"],
});
