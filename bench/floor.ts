// The floor: what a careful hand-written server does for each workload the bench measures.
// One SQL statement per request, the JSON built by PostgreSQL, no framework, no
// authentication, no validation beyond the database's constraints. Served from the bench's
// process and database, through a Knex instance of its own.
import http from "node:http";
import type { Knex } from "knex";

const nested = {
  site: (c: string) => `(SELECT json_build_object('id', s.id, 'name', s.name, 'slug', s.slug) FROM dcim_site s WHERE s.id = ${c})`,
  tenant: (c: string) => `(SELECT json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) FROM tenancy_tenant t WHERE t.id = ${c})`,
  vrf: (c: string) => `(SELECT json_build_object('id', v.id, 'name', v.name, 'rd', v.rd) FROM ipam_vrf v WHERE v.id = ${c})`,
  role: (c: string) => `(SELECT json_build_object('id', r.id, 'name', r.name, 'slug', r.slug) FROM ipam_role r WHERE r.id = ${c})`,
  vlan: (c: string) => `(SELECT json_build_object('id', l.id, 'vid', l.vid, 'name', l.name) FROM ipam_vlan l WHERE l.id = ${c})`,
};

/** An object's tags, `where` choosing the extras_tag rows `g`. */
const tags = (where: string) =>
  `(SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'slug', g.slug, 'color', g.color) ORDER BY g.name, g.id), '[]'::json) FROM extras_tag g WHERE ${where})`;
const assigned = (type: string, id: string) => tags(`g.id IN (SELECT a.tag_id FROM extras_tag_assignment a WHERE a.object_type = '${type}' AND a.object_id = ${id})`);

/** A prefix `p` as JSON, with its tags from `tagsJson`. */
const prefix = (tagsJson: string) => `json_build_object('id', p.id, 'family', family(p.prefix), 'prefix', p.prefix::text,
  'site', ${nested.site("p.site_id")}, 'vrf', ${nested.vrf("p.vrf_id")}, 'tenant', ${nested.tenant("p.tenant_id")},
  'vlan', ${nested.vlan("p.vlan_id")}, 'status', p.status, 'role', ${nested.role("p.role_id")}, 'is_pool', p.is_pool,
  'description', p.description, 'created', p.created, 'last_updated', p.last_updated, 'tags', ${tagsJson},
  'custom_fields', p.custom_field_data)`;

// The prefix ordering index: (vrf, address, mask length, id).
const prefixOrder = "p.vrf_id NULLS FIRST, substring(inet_send(p.prefix) from 5), masklen(p.prefix), p.id";

/** A page of 50 prefixes and the count of all that `where` keeps; bindings: the where's, the where's again, the offset. */
const prefixList = (where: string) => `SELECT json_build_object(
    'count', (SELECT count(*) FROM ipam_prefix p WHERE ${where}),
    'results', (SELECT coalesce(json_agg(${prefix(assigned("ipam.prefix", "p.id"))} ORDER BY ${prefixOrder}), '[]'::json)
      FROM (SELECT * FROM ipam_prefix p WHERE ${where} ORDER BY ${prefixOrder} LIMIT 50 OFFSET ?) p)) AS j`;

const prefixDetail = `SELECT ${prefix(assigned("ipam.prefix", "p.id"))} AS j FROM ipam_prefix p WHERE p.id = ?`;

/**
 * Creates the prefixes of a JSON object or array with their tags, and answers them as JSON:
 * the insert, the tag rows and the reply in one statement (the tags come from the request,
 * since a statement does not see the rows its own CTEs insert). `recorded`: a change record
 * of each prefix too, its model data and the answer in it, as Armature's create writes.
 */
const prefixCreate = (recorded: boolean) => `WITH input AS (
    SELECT gen_random_uuid() AS id, e.n, x.*
    FROM json_array_elements(CASE json_typeof(?::json) WHEN 'array' THEN ?::json ELSE json_build_array(?::json) END) WITH ORDINALITY e(v, n),
      json_to_record(e.v) AS x(prefix cidr, status text, site uuid, vrf uuid, tenant uuid, role uuid, vlan uuid, description text, tags uuid[])),
  p AS (
    INSERT INTO ipam_prefix (id, prefix, status, site_id, vrf_id, tenant_id, role_id, vlan_id, description)
    SELECT id, prefix, status, site, vrf, tenant, role, vlan, coalesce(description, '') FROM input RETURNING *),
  t AS (
    INSERT INTO extras_tag_assignment (tag_id, object_type, object_id)
    SELECT tag, 'ipam.prefix', i.id FROM input i, unnest(i.tags) tag),
  shown AS (SELECT i.n, p.id, p.prefix, to_jsonb(p) AS data, ${prefix(tags("g.id = ANY(i.tags)"))} AS j FROM p JOIN input i USING (id))${recorded ? `,
  c AS (
    INSERT INTO extras_objectchange (time, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, object_data, object_data_v2, change_context, change_context_detail)
    SELECT clock_timestamp(), 'floor', gen_random_uuid(), 'create', 'ipam.prefix', s.id, s.prefix::text, s.data, s.j::jsonb, 'web', '' FROM shown s)` : ""}
  SELECT json_agg(s.j ORDER BY s.n) AS j FROM shown s`;

/** Whether config context `c` applies to device `d`: Nautobot's get_for_object, each assignment empty or holding the device's value. */
function applies(): string {
  const dimension = (table: string, column: string, values: string) =>
    `(NOT EXISTS (SELECT 1 FROM extras_configcontext_${table} j WHERE j.source_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_${table} j WHERE j.source_id = c.id AND j.${column} IN (${values})))`;
  const up = (table: string, start: string) => `WITH RECURSIVE up AS (SELECT id, parent_id FROM ${table} WHERE id = ${start}
      UNION ALL SELECT x.id, x.parent_id FROM ${table} x JOIN up ON x.id = up.parent_id) SELECT id FROM up`;
  return [
    dimension("regions", "region_id", up("dcim_region", "(SELECT region_id FROM dcim_site WHERE id = d.site_id)")),
    dimension("sites", "site_id", "d.site_id"),
    dimension("locations", "location_id", up("dcim_location", "d.location_id")),
    dimension("roles", "devicerole_id", "d.device_role_id"),
    dimension("device_types", "devicetype_id", "d.device_type_id"),
    dimension("platforms", "platform_id", "d.platform_id"),
    dimension("cluster_groups", "clustergroup_id", "SELECT group_id FROM virtualization_cluster WHERE id = d.cluster_id"),
    dimension("clusters", "cluster_id", "d.cluster_id"),
    dimension("tenant_groups", "tenantgroup_id", "SELECT group_id FROM tenancy_tenant WHERE id = d.tenant_id"),
    dimension("tenants", "tenant_id", "d.tenant_id"),
    dimension("tags", "tag_id", "SELECT a.tag_id FROM extras_tag_assignment a WHERE a.object_type = 'dcim.device' AND a.object_id = d.id"),
  ].join(" AND ");
}

/**
 * Device `d`'s config context: the active contexts that apply, merged by weight and name two
 * levels deep (a key whose values are all objects merges their keys, any other key takes the
 * last value), the device's local data on top. Two levels is as deep as the bench's contexts go.
 */
const configContext = `(SELECT coalesce(jsonb_object_agg(m.k, CASE WHEN m.objects
      THEN (SELECT jsonb_object_agg(f.key, f.value ORDER BY o.n) FROM jsonb_array_elements(m.v) WITH ORDINALITY o(obj, n), jsonb_each(o.obj) f)
      ELSE m.v END), '{}'::jsonb) || coalesce(d.local_context_data, '{}'::jsonb)
    FROM (SELECT e.key AS k, bool_and(jsonb_typeof(e.value) = 'object') AS objects,
        CASE WHEN bool_and(jsonb_typeof(e.value) = 'object') THEN jsonb_agg(e.value ORDER BY c.weight, c.name)
          ELSE (array_agg(e.value ORDER BY c.weight DESC, c.name DESC))[1] END AS v
      FROM extras_configcontext c, jsonb_each(c.data) e WHERE c.is_active AND ${applies()} GROUP BY e.key) m)`;

/** A page of devices by name with their nested relations and config contexts, and the count; bindings: the limit, the offset. */
const deviceList = `SELECT json_build_object(
    'count', (SELECT count(*) FROM dcim_device),
    'results', (SELECT coalesce(json_agg(json_build_object('id', d.id, 'name', d.name, 'status', d.status,
        'device_type', (SELECT json_build_object('id', t.id, 'model', t.model, 'slug', t.slug,
            'manufacturer', (SELECT json_build_object('id', m.id, 'name', m.name, 'slug', m.slug) FROM dcim_manufacturer m WHERE m.id = t.manufacturer_id))
          FROM dcim_devicetype t WHERE t.id = d.device_type_id),
        'device_role', (SELECT json_build_object('id', r.id, 'name', r.name, 'slug', r.slug) FROM dcim_devicerole r WHERE r.id = d.device_role_id),
        'tenant', ${nested.tenant("d.tenant_id")},
        'platform', (SELECT json_build_object('id', f.id, 'name', f.name, 'slug', f.slug) FROM dcim_platform f WHERE f.id = d.platform_id),
        'serial', d.serial, 'asset_tag', d.asset_tag, 'site', ${nested.site("d.site_id")},
        'rack', (SELECT json_build_object('id', k.id, 'name', k.name) FROM dcim_rack k WHERE k.id = d.rack_id),
        'position', d.position, 'face', d.face,
        'primary_ip4', (SELECT json_build_object('id', i.id, 'address', i.address::text) FROM ipam_ipaddress i WHERE i.id = d.primary_ip4_id),
        'local_context_data', d.local_context_data, 'tags', ${assigned("dcim.device", "d.id")},
        'custom_fields', d.custom_field_data, 'config_context', ${configContext},
        'created', d.created, 'last_updated', d.last_updated) ORDER BY d.name, d.id), '[]'::json)
      FROM (SELECT * FROM dcim_device ORDER BY name, id LIMIT ? OFFSET ?) d)) AS j`;

/** Interface `x` (an alias) nested: its device and cable, as a peer or an endpoint is shown. */
const nestedInterface = (x: string, id: string) => `(SELECT json_build_object('id', ${x}.id, 'name', ${x}.name, 'cable', ${x}.cable_id,
    'device', (SELECT json_build_object('id', xd.id, 'name', xd.name) FROM dcim_device xd WHERE xd.id = ${x}.device_id))
  FROM dcim_interface ${x} WHERE ${x}.id = ${id})`;

/**
 * A page of interfaces by device name and name, each with its device, cable, cable peer and
 * connected endpoint (the bench's peers are interfaces, which is all this floor shows), VLANs,
 * tags and the count of its addresses, and the count of all; bindings: the limit, the offset.
 */
const interfaceList = `SELECT json_build_object(
    'count', (SELECT count(*) FROM dcim_interface),
    'results', (SELECT coalesce(json_agg(json_build_object('id', i.id, 'display', i.name,
        'device', (SELECT json_build_object('id', d.id, 'name', d.name) FROM dcim_device d WHERE d.id = i.device_id),
        'name', i.name, 'label', i.label, 'status', i.status, 'type', i.type, 'enabled', i.enabled,
        'parent_interface', ${nestedInterface("pi", "i.parent_interface_id")}, 'bridge', ${nestedInterface("bi", "i.bridge_id")},
        'lag', ${nestedInterface("li", "i.lag_id")}, 'mtu', i.mtu, 'mac_address', i.mac_address, 'mgmt_only', i.mgmt_only,
        'description', i.description, 'mode', i.mode, 'untagged_vlan', ${nested.vlan("i.untagged_vlan_id")},
        'tagged_vlans', (SELECT coalesce(json_agg(json_build_object('id', l.id, 'vid', l.vid, 'name', l.name) ORDER BY l.vid, l.id), '[]'::json)
          FROM ipam_vlan l JOIN dcim_interface_tagged_vlans t ON t.vlan_id = l.id WHERE t.source_id = i.id),
        'cable', (SELECT json_build_object('id', c.id, 'label', c.label) FROM dcim_cable c WHERE c.id = i.cable_id),
        'cable_peer', CASE i.cable_peer_type WHEN 'dcim.interface' THEN ${nestedInterface("cp", "i.cable_peer_id")} END,
        'cable_peer_type', i.cable_peer_type,
        'connected_endpoint', CASE i.connected_endpoint_type WHEN 'dcim.interface' THEN ${nestedInterface("ce", "i.connected_endpoint_id")} END,
        'connected_endpoint_type', i.connected_endpoint_type, 'connected_endpoint_reachable', i.connected_endpoint_reachable,
        'count_ipaddresses', (SELECT count(*) FROM ipam_ipaddress a WHERE a.assigned_object_type = 'dcim.interface' AND a.assigned_object_id = i.id),
        'created', i.created, 'last_updated', i.last_updated, 'tags', ${assigned("dcim.interface", "i.id")},
        'custom_fields', i.custom_field_data) ORDER BY i.device_name, i.name, i.id), '[]'::json)
      FROM (SELECT i.*, d.name AS device_name FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id
        ORDER BY d.name, i.name, i.id LIMIT ? OFFSET ?) i)) AS j`;

/**
 * What the GraphQL workload's query answers: a page of devices by name, each with its
 * interfaces by name and their addresses; bindings: the limit, the offset.
 */
const deviceTree = `SELECT json_build_object('data', json_build_object('devices', (SELECT coalesce(json_agg(json_build_object('name', d.name,
    'interfaces', (SELECT coalesce(json_agg(json_build_object('name', i.name,
        'ip_addresses', (SELECT coalesce(json_agg(json_build_object('address', a.address::text) ORDER BY a.address, a.id), '[]'::json)
          FROM ipam_ipaddress a WHERE a.assigned_object_type = 'dcim.interface' AND a.assigned_object_id = i.id)) ORDER BY i.name, i.id), '[]'::json)
      FROM dcim_interface i WHERE i.device_id = d.id)) ORDER BY d.name, d.id), '[]'::json)
  FROM (SELECT * FROM dcim_device WHERE name LIKE 'bench-dev-%' ORDER BY name, id LIMIT ? OFFSET ?) d))) AS j`;

/** A term `c` of `table` with the count of events it has, `link` the join table naming it by `column`. */
const term = (link: string, column: string, parent: string) => `json_build_object('id', c.id, 'name', c.name, 'slug', c.slug,
  'description', c.description, ${parent}'count', (SELECT count(*) FROM ${link} x WHERE x.${column} = c.id))`;
const terms = (table: string, link: string, column: string, parent = "") =>
  `(SELECT coalesce(json_agg(${term(link, column, parent)} ORDER BY c.name, c.id), '[]'::json)
    FROM ${table} c JOIN ${link} j ON j.${column} = c.id WHERE j.source_id = e.id)`;

/** The calendar's upcoming published events, 50 a page by start, each with its venue, organizers and terms (with their counts), and the total. */
const upcoming = "e.status = 'publish' AND NOT e.hide_from_listings AND e.start_date >= now()";
const eventArchive = `SELECT json_build_object(
    'total', (SELECT count(*) FROM events_event e WHERE ${upcoming}),
    'events', (SELECT coalesce(json_agg(json_build_object('id', e.id, 'status', e.status, 'date', e.date, 'modified', e.modified,
        'title', e.title, 'description', e.description, 'excerpt', e.excerpt, 'slug', e.slug, 'image', e.image, 'all_day', e.all_day,
        'start_date', e.start_date, 'end_date', e.end_date, 'utc_start_date', e.utc_start_date, 'utc_end_date', e.utc_end_date,
        'timezone', e.timezone, 'cost', e.cost, 'website', e.website, 'show_map', e.show_map, 'show_map_link', e.show_map_link,
        'hide_from_listings', e.hide_from_listings, 'sticky', e.sticky, 'featured', e.featured,
        'categories', ${terms("events_category", "events_event_categories", "category_id", "'parent', c.parent_id, ")},
        'tags', ${terms("events_tag", "events_event_tags", "tag_id")},
        'venue', (SELECT json_build_object('id', v.id, 'status', v.status, 'venue', v.venue, 'slug', v.slug, 'address', v.address,
            'city', v.city, 'country', v.country, 'province', v.province, 'state', v.state, 'zip', v.zip, 'phone', v.phone,
            'website', v.website, 'geo_lat', v.geo_lat, 'geo_lng', v.geo_lng, 'show_map', v.show_map) FROM venues_venue v WHERE v.id = e.venue_id),
        'organizer', (SELECT coalesce(json_agg(json_build_object('id', o.id, 'status', o.status, 'organizer', o.organizer, 'slug', o.slug,
            'phone', o.phone, 'website', o.website, 'email', o.email) ORDER BY o.date DESC, o.id), '[]'::json)
          FROM organizers_organizer o JOIN events_event_organizer j ON j.organizer_id = o.id WHERE j.source_id = e.id))
      ORDER BY e.start_date, e.id), '[]'::json)
      FROM (SELECT * FROM events_event e WHERE ${upcoming} ORDER BY e.start_date, e.id LIMIT 50 OFFSET ?) e)) AS j`;

/**
 * Routes: GET /prefixes/?offset= (with `within` and `status` filtering), GET /prefixes/<id>/,
 * POST /prefixes/ (an object or an array), GET /devices/?limit=&offset=,
 * GET /interfaces/?limit=&offset=, GET /device-tree/?limit=&offset=, GET /events/?page=.
 */
export function floor(db: Knex): http.Server {
  /** Answers the JSON `sql` builds; `first`: its array's first element (a create of one object). */
  const answer = (res: http.ServerResponse, status: number, sql: string, bindings: unknown[], first = false) => {
    db.raw(sql, bindings as Knex.RawBinding[]).then((r) => {
      const json = first ? r.rows[0]?.j?.[0] : r.rows[0]?.j;
      res.writeHead(json ? status : 404, { "Content-Type": "application/json" });
      res.end(json ? JSON.stringify(json) : "{}");
    }, (err: Error) => {
      res.writeHead(400, { "Content-Type": "text/plain" });
      res.end(err.message);
    });
  };
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://floor");
    const [, collection, id] = url.pathname.split("/");
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 50);
    if (req.method === "POST" && collection === "prefixes") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => { body += chunk; });
      req.on("end", () => answer(res, 201, prefixCreate(url.searchParams.has("recorded")), [body, body, body], !body.trimStart().startsWith("[")));
    } else if (collection === "prefixes" && id) {
      answer(res, 200, prefixDetail, [id]);
    } else if (collection === "prefixes") {
      const where = ["true"];
      const bindings: unknown[] = [];
      const within = url.searchParams.get("within");
      const status = url.searchParams.get("status");
      if (within) where.push("p.prefix << ?::cidr"), bindings.push(within);
      if (status) where.push("p.status = ?"), bindings.push(status);
      answer(res, 200, prefixList(where.join(" AND ")), [...bindings, ...bindings, offset]);
    } else if (collection === "devices") {
      answer(res, 200, deviceList, [limit, offset]);
    } else if (collection === "interfaces") {
      answer(res, 200, interfaceList, [limit, offset]);
    } else if (collection === "device-tree") {
      answer(res, 200, deviceTree, [limit, offset]);
    } else if (collection === "events") {
      answer(res, 200, eventArchive, [(Number(url.searchParams.get("page") ?? 1) - 1) * 50]);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
}
