import { model, field } from "../../../generator/dsl/index.js";

export default model("ClusterType", {
  app: "virtualization",
  route: "cluster-types",
  description: "A kind of virtualization cluster (a hypervisor platform).",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    cluster_count: field.count({ of: "virtualization.Cluster.type" }),
  },
  nested: ["name", "slug"],
  brief: ["name", "slug", "cluster_count"],
  filters: { q: ["name", "slug"], related: { clusters: { of: "virtualization.Cluster.type", key: "name" } } },
});
