import { model, field, ref } from "../../../generator/dsl/index.js";

/** A subject's part (its position in the text, from 1) as `armature_context_data` reads it: NULL where empty. */
const part = (n: number) => `nullif(s.p[${n}], '')`;
/** The ids of a tree's row that `start` names and of its ancestors. */
const upFrom = (table: string, start: string) =>
  `(WITH RECURSIVE up AS (SELECT id, parent_id FROM ${table} WHERE id = ${start} UNION ALL SELECT r.id, r.parent_id FROM ${table} r JOIN up ON r.id = up.parent_id) SELECT id FROM up)`;
/** Each assignment of a context: its join table, the column of what it holds, and what of the subject's that must be. */
const ASSIGNED: Array<[string, string, (held: string) => string]> = [
  ["extras_configcontext_regions", "region_id", (h) => `${h} IN ${upFrom("dcim_region", `(SELECT region_id FROM dcim_site WHERE id = ${part(1)}::uuid)`)}`],
  ["extras_configcontext_sites", "site_id", (h) => `${h} = ${part(1)}::uuid`],
  ["extras_configcontext_locations", "location_id", (h) => `${h} IN ${upFrom("dcim_location", `${part(2)}::uuid`)}`],
  ["extras_configcontext_roles", "devicerole_id", (h) => `${h} = ${part(3)}::uuid`],
  ["extras_configcontext_device_types", "devicetype_id", (h) => `${h} = ${part(4)}::uuid`],
  ["extras_configcontext_platforms", "platform_id", (h) => `${h} = ${part(5)}::uuid`],
  ["extras_configcontext_cluster_groups", "clustergroup_id", (h) => `${h} = (SELECT group_id FROM virtualization_cluster WHERE id = ${part(6)}::uuid)`],
  ["extras_configcontext_clusters", "cluster_id", (h) => `${h} = ${part(6)}::uuid`],
  ["extras_configcontext_tenant_groups", "tenantgroup_id", (h) => `${h} = (SELECT group_id FROM tenancy_tenant WHERE id = ${part(7)}::uuid)`],
  ["extras_configcontext_tenants", "tenant_id", (h) => `${h} = ${part(7)}::uuid`],
  ["extras_configcontext_tags", "tag_id", (h) => `${h} = ANY(string_to_array(${part(8)}, ',')::uuid[])`],
];

export default model("ConfigContext", {
  app: "extras",
  route: "config-contexts",
  description: "Configuration data merged into the devices it is assigned to (by region, site, location, role, type, platform, cluster group, cluster, tenancy, tags), by weight.",
  display: "{name}",
  ordering: ["weight", "name"],
  features: ["notes"],
  hooks: "extras/config-context",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    // The Git repository that loaded it (runtime/features/git/), else null; `owner` (its nested form in Nautobot) stays null.
    owner_content_type: field.string({ nullable: true, readOnly: true, maxLength: 100 }),
    owner_object_id: field.uuid({ nullable: true, readOnly: true }),
    owner: field.json({ nullable: true, readOnly: true }),
    weight: field.integer({ default: 1000, min: 0, max: 32767 }),
    description: field.string({ maxLength: 200 }),
    schema: ref.fk("extras.ConfigContextSchema", { relatedName: "configcontext_set", nullable: true, onDelete: "setNull", description: "Optional schema to validate the structure of the data" }),
    is_active: field.boolean({ default: true }),
    regions: ref.m2m("dcim.Region"),
    sites: ref.m2m("dcim.Site"),
    locations: ref.m2m("dcim.Location"),
    roles: ref.m2m("dcim.DeviceRole"),
    device_types: ref.m2m("dcim.DeviceType"),
    platforms: ref.m2m("dcim.Platform"),
    cluster_groups: ref.m2m("virtualization.ClusterGroup"),
    clusters: ref.m2m("virtualization.Cluster"),
    tenant_groups: ref.m2m("tenancy.TenantGroup"),
    tenants: ref.m2m("tenancy.Tenant"),
    tags: ref.m2m("extras.Tag", { bySlug: true }),
    data: field.json({ required: true, schema: { type: "object" } }),
  },
  nested: ["name"],
  // Nautobot's filter names: the singular of each assignment (region, region_id, …, tag by slug).
  filters: {
    q: ["name", "description"],
    exclude: ["owner", "data", "regions", "sites", "locations", "roles", "device_types", "platforms", "cluster_groups", "clusters", "tenant_groups", "tenants", "tags"],
    aliases: {
      region: "regions", site: "sites", location: "locations", role: "roles", device_type: "device_types", platform: "platforms", cluster_group: "cluster_groups", cluster: "clusters",
      tenant_group: "tenant_groups", tenant: "tenants", tag: "tags",
    },
  },
  sql: {
    // Nautobot's deepmerge: objects merge key by key, anything else (an empty object too)
    // replaces. Built from jsonb operators over b's pairs as one array rather than a loop
    // over jsonb_each, so that no call runs a statement of its own: a list merges for every
    // object it shows.
    deepmerge: {
      up: `CREATE OR REPLACE FUNCTION armature_deepmerge(a jsonb, b jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb := coalesce(a, '{}'::jsonb);
  pairs jsonb;
  k text;
  v jsonb;
BEGIN
  IF b IS NULL OR jsonb_typeof(b) <> 'object' THEN RETURN out; END IF;
  IF out = '{}'::jsonb THEN RETURN b; END IF;
  -- b's values replace a's, except where both are objects and b's is not empty: those merge.
  pairs := jsonb_path_query_array(b, '$.keyvalue()');
  out := out || b;
  FOR i IN 0 .. jsonb_array_length(pairs) - 1 LOOP
    v := pairs -> i -> 'value';
    IF jsonb_typeof(v) = 'object' AND v <> '{}'::jsonb THEN
      k := pairs -> i ->> 'key';
      IF jsonb_typeof(a -> k) = 'object' THEN out := jsonb_set(out, ARRAY[k], armature_deepmerge(a -> k, v)); END IF;
    END IF;
  END LOOP;
  RETURN out;
END $$;
DROP AGGREGATE IF EXISTS armature_deepmerge_agg(jsonb);
CREATE AGGREGATE armature_deepmerge_agg(jsonb) (SFUNC = armature_deepmerge, STYPE = jsonb, INITCOND = '{}');`,
      down: `DROP AGGREGATE IF EXISTS armature_deepmerge_agg(jsonb);
DROP FUNCTION IF EXISTS armature_deepmerge(jsonb, jsonb);`,
    },
    // The contexts that apply to an object (Nautobot's ConfigContextQuerySet.get_for_object),
    // deep-merged by weight and name, told from its subject: the text
    // `site|location|role|device type|platform|cluster|tenant|tag ids` (ids, empty where it has
    // none; its tags' ids joined by commas), which the models' hooks write
    // (hooks/inventory/lib/context-data.ts). An assignment matches where the context has none of
    // its kind or holds the subject's: regions and locations with their ancestors, the cluster's
    // group, the tenant's group. Taken over a list's rows as a whole (`armature_context_merges`),
    // the subjects are gathered from every row and each distinct one is matched and merged once:
    // a page of a thousand devices has a few, and the work no longer grows with the contexts
    // times the objects. The merged data, by subject. An object read alone asks
    // `armature_context_data` itself. In PL/pgSQL, with a generic plan, its statement is planned
    // once for a connection: a SQL function's was planned again in every statement calling it,
    // 2.5 ms a call with 24 contexts, against 0.7 ms.
    merges: {
      up: `DROP AGGREGATE IF EXISTS armature_context_merges(text);
DROP FUNCTION IF EXISTS armature_context_gather(jsonb, text);
CREATE OR REPLACE FUNCTION armature_context_data(subject text) RETURNS jsonb LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN coalesce((SELECT armature_deepmerge_agg(c.data ORDER BY c.weight, c.name)
    FROM extras_configcontext c, LATERAL (SELECT string_to_array(subject, '|') AS p) s
    WHERE c.is_active
${ASSIGNED.map(([table, column, holds]) => `      AND (NOT EXISTS (SELECT FROM ${table} j WHERE j.source_id = c.id) OR EXISTS (SELECT FROM ${table} j WHERE j.source_id = c.id AND ${holds(`j.${column}`)}))`).join("\n")}
  ), '{}'::jsonb);
END $$;
CREATE FUNCTION armature_context_gather(sets jsonb, subject text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF jsonb_exists(sets, subject) THEN RETURN sets; END IF;
  RETURN sets || jsonb_build_object(subject, NULL);
END $$;
CREATE OR REPLACE FUNCTION armature_context_merged(sets jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_object_agg(s.subject, armature_context_data(s.subject)), '{}'::jsonb) FROM jsonb_object_keys(sets) s(subject)
$$;
CREATE AGGREGATE armature_context_merges(text) (SFUNC = armature_context_gather, STYPE = jsonb, INITCOND = '{}', FINALFUNC = armature_context_merged);`,
      down: `DROP AGGREGATE IF EXISTS armature_context_merges(text);
DROP FUNCTION IF EXISTS armature_context_merged(jsonb);
DROP FUNCTION IF EXISTS armature_context_gather(jsonb, text);
DROP FUNCTION IF EXISTS armature_context_data(text);`,
    },
  },
});
