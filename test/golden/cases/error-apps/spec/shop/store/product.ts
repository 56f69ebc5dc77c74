import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

// The core may not lean on an app's model: the app may be disabled.
export default model("Product", {
  app: "store", route: "products", display: "{name}", ordering: ["name"],
  fields: { name: field.string({ required: true, maxLength: 50 }), peer: ref.fk("shop_bgp.Peer", { nullable: true }) },
  nested: ["name"],
});
