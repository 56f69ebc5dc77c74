import { model, field, ref } from "../../../generator/dsl/index.js";

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
    // The contexts of each distinct set that a statement's objects find applying to them (their
    // ids, by weight and name, joined by commas), deep-merged by weight and name: taken over a
    // list's rows as a whole, the sets are gathered from every row and each is merged once,
    // however many objects it applies to. The merged data, by set.
    merges: {
      up: `CREATE OR REPLACE FUNCTION armature_context_gather(sets jsonb, applying text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF jsonb_exists(sets, applying) THEN RETURN sets; END IF;
  RETURN sets || jsonb_build_object(applying, NULL);
END $$;
CREATE OR REPLACE FUNCTION armature_context_merged(sets jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_object_agg(s.applying, (SELECT coalesce(armature_deepmerge_agg(c.data ORDER BY c.weight, c.name), '{}'::jsonb)
    FROM extras_configcontext c WHERE c.id = ANY(string_to_array(nullif(s.applying, ''), ',')::uuid[]))), '{}'::jsonb)
  FROM jsonb_object_keys(sets) s(applying)
$$;
DROP AGGREGATE IF EXISTS armature_context_merges(text);
CREATE AGGREGATE armature_context_merges(text) (SFUNC = armature_context_gather, STYPE = jsonb, INITCOND = '{}', FINALFUNC = armature_context_merged);`,
      down: `DROP AGGREGATE IF EXISTS armature_context_merges(text);
DROP FUNCTION IF EXISTS armature_context_merged(jsonb);
DROP FUNCTION IF EXISTS armature_context_gather(jsonb, text);`,
    },
  },
});
