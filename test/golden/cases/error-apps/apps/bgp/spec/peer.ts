import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Peer", {
  app: "shop_bgp", route: "peers", display: "{name}", ordering: ["name"], hooks: "peer",
  fields: { name: field.string({ required: true, maxLength: 50 }), product: ref.fk("store.Product", { nullable: true }), session: ref.fk("shop_bgp.Session") },
  nested: ["name"],
});
