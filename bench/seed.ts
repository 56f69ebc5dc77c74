// The bench's data, written with SQL straight into the tables (loading it through the API is
// what the bulk scenario measures). Each seed tops up what an earlier run left, so a
// PostgreSQL database is reused between runs.
import type { Knex } from "knex";

/** The ids a create names: one of each relation a prefix has, and the two bench tags. */
export interface Relations {
  site: string;
  vrf: string;
  tenant: string;
  role: string;
  vlan: string;
  tags: string[];
}

/**
 * Runs a bulk insert in a transaction that skips the foreign-key checks where the role may
 * (session_replication_role takes a superuser, as PGlite's and a test server's are): the
 * seed's references come from rows it has just read, and queuing a check per row and
 * reference took two thirds of the insert (11 s of 16.6 for 100,000 prefixes on PostgreSQL).
 * Replica mode skips every trigger, so only for tables that have none of their own (not the
 * calendar's term links, whose triggers keep counts).
 */
async function unchecked(db: Knex, insert: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> {
  const superuser = (await db.raw("SHOW is_superuser")).rows[0].is_superuser === "on";
  await db.transaction(async (trx) => {
    if (superuser) await trx.raw("SET LOCAL session_replication_role = replica");
    await insert(trx);
  });
}

const count = async (db: Knex, sql: string, bindings: Knex.RawBinding[] = []) => Number((await db.raw(sql, bindings)).rows[0].n);

/**
 * Prefixes (10.0.0.0/24 upward) spread over 50 sites, 20 tenants, 10 VRFs, 5 roles and 20
 * VLANs, each with the two bench tags, which are allowed on prefixes only. Removes what
 * earlier runs created through the API (description `bench-create`). Gives up to 500 prefix
 * ids for the detail scenarios and the relations a create names.
 */
export async function seedPrefixes(db: Knex, prefixes: number): Promise<{ ids: string[]; relations: Relations }> {
  await db.raw(`INSERT INTO dcim_site (name, slug, status) SELECT 'bench-site-' || g, 'bench-site-' || g, 'active' FROM generate_series(1, 50) g ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO tenancy_tenant (name, slug) SELECT 'bench-tenant-' || g, 'bench-tenant-' || g FROM generate_series(1, 20) g ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO ipam_vrf (name, rd) SELECT 'bench-vrf-' || g, '65000:' || g FROM generate_series(1, 10) g ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO ipam_role (name, slug) SELECT 'bench-role-' || g, 'bench-role-' || g FROM generate_series(1, 5) g ON CONFLICT DO NOTHING`);
  if (await count(db, "SELECT count(*) AS n FROM ipam_vlan WHERE name LIKE 'bench-vlan-%'") === 0) {
    await db.raw(`INSERT INTO ipam_vlan (name, vid, status) SELECT 'bench-vlan-' || g, 100 + g, 'active' FROM generate_series(1, 20) g`);
  }
  await db.raw(`INSERT INTO extras_tag (name, slug) VALUES ('Bench prefix A', 'bench-prefix-a'), ('Bench prefix B', 'bench-prefix-b') ON CONFLICT DO NOTHING`);
  await db.raw(`
    INSERT INTO extras_tag_content_types (source_id, contenttype_id)
    SELECT t.id, c.id FROM extras_tag t, extras_contenttype c
    WHERE t.slug LIKE 'bench-prefix-%' AND c.app_label = 'ipam' AND c.model = 'prefix' ON CONFLICT DO NOTHING`);
  await removeCreatedPrefixes(db);

  const pools = `
    s AS (SELECT array_agg(id ORDER BY slug) a FROM dcim_site WHERE slug LIKE 'bench-site-%'),
    t AS (SELECT array_agg(id ORDER BY slug) a FROM tenancy_tenant WHERE slug LIKE 'bench-tenant-%'),
    v AS (SELECT array_agg(id ORDER BY name) a FROM ipam_vrf WHERE name LIKE 'bench-vrf-%'),
    r AS (SELECT array_agg(id ORDER BY slug) a FROM ipam_role WHERE slug LIKE 'bench-role-%'),
    l AS (SELECT array_agg(id ORDER BY vid) a FROM ipam_vlan WHERE name LIKE 'bench-vlan-%')`;
  const existing = await count(db, "SELECT count(*) AS n FROM ipam_prefix WHERE description = 'bench'");
  if (existing < prefixes) {
    await unchecked(db, (trx) => trx.raw(`
      WITH ${pools}
      INSERT INTO ipam_prefix (prefix, status, site_id, tenant_id, vrf_id, role_id, vlan_id, description)
      SELECT set_masklen(('10.0.0.0'::inet + (g * 256)), 24)::cidr, 'active',
             s.a[1 + g % 50], t.a[1 + g % 20], v.a[1 + g % 10], r.a[1 + g % 5], l.a[1 + g % 20], 'bench'
      FROM generate_series(?::int, ?::int) g, s, t, v, r, l`, [existing + 1, prefixes]));
  }
  // Prefixes an older bench seeded without a role, a VLAN or tags get them.
  await db.raw(`
    WITH ${pools}
    UPDATE ipam_prefix p SET role_id = r.a[1 + abs(hashtext(p.id::text)) % 5], vlan_id = l.a[1 + abs(hashtext(p.id::text)) % 20]
    FROM r, l WHERE p.description = 'bench' AND (p.role_id IS NULL OR p.vlan_id IS NULL)`);
  const tagged = await count(db, `SELECT count(*) AS n FROM extras_tag_assignment a JOIN extras_tag t ON t.id = a.tag_id WHERE t.slug LIKE 'bench-prefix-%'`);
  if (tagged < 2 * Math.max(existing, prefixes)) {
    await unchecked(db, (trx) => trx.raw(`
      INSERT INTO extras_tag_assignment (tag_id, object_type, object_id)
      SELECT t.id, 'ipam.prefix', p.id FROM ipam_prefix p, extras_tag t
      WHERE p.description = 'bench' AND t.slug LIKE 'bench-prefix-%' ON CONFLICT DO NOTHING`));
  }
  const ids = (await db.raw("SELECT id FROM ipam_prefix WHERE description = 'bench' ORDER BY id LIMIT 500")).rows.map((r: { id: string }) => r.id);
  const first = async (table: string, column: string, pattern: string) =>
    (await db.raw(`SELECT id FROM ${table} WHERE ${column} LIKE ? ORDER BY ${column} LIMIT 1`, [pattern])).rows[0].id as string;
  const relations = {
    site: await first("dcim_site", "slug", "bench-site-%"),
    vrf: await first("ipam_vrf", "name", "bench-vrf-%"),
    tenant: await first("tenancy_tenant", "slug", "bench-tenant-%"),
    role: await first("ipam_role", "slug", "bench-role-%"),
    vlan: await first("ipam_vlan", "name", "bench-vlan-%"),
    tags: (await db.raw("SELECT id FROM extras_tag WHERE slug LIKE 'bench-prefix-%' ORDER BY slug")).rows.map((r: { id: string }) => r.id),
  };
  return { ids, relations };
}

/** Removes the prefixes the create scenarios made (description `bench-create`), so that every run lists the same table. */
export async function removeCreatedPrefixes(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM extras_tag_assignment WHERE object_type = 'ipam.prefix' AND object_id IN (SELECT id FROM ipam_prefix WHERE description = 'bench-create')`);
  await db.raw(`DELETE FROM ipam_prefix WHERE description = 'bench-create'`);
}

/**
 * The change log as loading the seeded prefixes through the API would have left it: one
 * create record for each, written by SQL. Gives the number of records the log holds.
 */
export async function seedChangeLog(db: Knex): Promise<number> {
  await unchecked(db, (trx) => trx.raw(`
    INSERT INTO extras_objectchange (user_name, request_id, action, changed_object_type, changed_object_id, object_repr, object_data, object_data_v2, change_context)
    SELECT 'bench', gen_random_uuid(), 'create', 'ipam.prefix', p.id, p.prefix::text, d.data, d.data || jsonb_build_object('id', p.id, 'display', p.prefix::text), 'api'
    FROM ipam_prefix p, LATERAL (SELECT jsonb_build_object('prefix', p.prefix::text, 'status', p.status, 'site', p.site_id, 'vrf', p.vrf_id,
      'tenant', p.tenant_id, 'role', p.role_id, 'vlan', p.vlan_id, 'is_pool', p.is_pool, 'description', p.description,
      'tags', '["Bench prefix A", "Bench prefix B"]'::jsonb, 'custom_fields', p.custom_field_data) AS data) d
    WHERE p.description = 'bench' AND NOT EXISTS (SELECT 1 FROM extras_objectchange c WHERE c.changed_object_id = p.id)`));
  return count(db, "SELECT count(*) AS n FROM extras_objectchange");
}

/**
 * Devices in one site, each with two interfaces; each device's eth1 is cabled to the next
 * one's eth0, with the cable peers and connected endpoints a trace would record; three
 * config contexts apply to every device. Tops up what an earlier, smaller run left.
 */
export async function seedDevices(db: Knex, devices: number): Promise<void> {
  if (await count(db, "SELECT count(*) AS n FROM dcim_device WHERE name LIKE 'bench-dev-%'") >= devices) return;
  await db.raw(`INSERT INTO dcim_manufacturer (name, slug) VALUES ('bench-maker', 'bench-maker') ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO dcim_devicetype (manufacturer_id, model, slug) SELECT id, 'bench-type', 'bench-type' FROM dcim_manufacturer WHERE slug = 'bench-maker' ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO dcim_devicerole (name, slug) VALUES ('bench-role', 'bench-role') ON CONFLICT DO NOTHING`);
  await db.raw(`
    INSERT INTO dcim_device (name, device_type_id, device_role_id, site_id, status)
    SELECT 'bench-dev-' || lpad(g::text, 5, '0'), (SELECT id FROM dcim_devicetype WHERE slug = 'bench-type'),
           (SELECT id FROM dcim_devicerole WHERE slug = 'bench-role'), (SELECT id FROM dcim_site WHERE slug = 'bench-site-1'), 'active'
    FROM generate_series(1, ?::int) g
    WHERE NOT EXISTS (SELECT 1 FROM dcim_device d WHERE d.name = 'bench-dev-' || lpad(g::text, 5, '0'))`, [devices]);
  await db.raw(`
    INSERT INTO dcim_interface (device_id, name, type, status) SELECT d.id, n, '10gbase-x-sfpp', 'active' FROM dcim_device d, unnest(ARRAY['eth0', 'eth1']) n
    WHERE d.name LIKE 'bench-dev-%' ON CONFLICT DO NOTHING`);
  await db.raw(`
    WITH pairs AS (
      SELECT a.id AS a_id, a.device_id AS a_dev, b.id AS b_id, b.device_id AS b_dev
      FROM dcim_device d JOIN dcim_device e ON e.name = 'bench-dev-' || lpad((substr(d.name, 11)::int + 1)::text, 5, '0')
      JOIN dcim_interface a ON a.device_id = d.id AND a.name = 'eth1' JOIN dcim_interface b ON b.device_id = e.id AND b.name = 'eth0'
      WHERE d.name LIKE 'bench-dev-%' AND a.cable_id IS NULL AND b.cable_id IS NULL)
    INSERT INTO dcim_cable (termination_a_type, termination_a_id, termination_b_type, termination_b_id, termination_a_device_id, termination_b_device_id, status)
    SELECT 'dcim.interface', a_id, 'dcim.interface', b_id, a_dev, b_dev, 'connected' FROM pairs`);
  // Three config contexts every device matches (global, by role, by site), merged into each.
  if (await count(db, "SELECT count(*) AS n FROM extras_configcontext WHERE name LIKE 'bench-%'") === 0) {
    await db.raw(`INSERT INTO extras_configcontext (name, weight, data) VALUES
      ('bench-global', 100, '{"ntp": {"servers": ["10.0.0.1"]}, "dns": ["10.0.0.53"]}'),
      ('bench-role', 200, '{"ntp": {"prefer": true}, "syslog": {"host": "10.0.0.514"}}'),
      ('bench-site', 300, '{"dns": ["10.1.0.53"], "snmp": {"community": "bench"}}')`);
    await db.raw(`INSERT INTO extras_configcontext_roles (source_id, devicerole_id) SELECT c.id, r.id FROM extras_configcontext c, dcim_devicerole r WHERE c.name = 'bench-role' AND r.slug = 'bench-role'`);
    await db.raw(`INSERT INTO extras_configcontext_sites (source_id, site_id) SELECT c.id, s.id FROM extras_configcontext c, dcim_site s WHERE c.name = 'bench-site' AND s.slug = 'bench-site-1'`);
  }
  for (const [near, far] of [["a", "b"], ["b", "a"]]) {
    await db.raw(`
      UPDATE dcim_interface i SET cable_id = c.id, cable_peer_type = 'dcim.interface', cable_peer_id = c.termination_${far}_id,
        connected_endpoint_type = 'dcim.interface', connected_endpoint_id = c.termination_${far}_id, connected_endpoint_reachable = true
      FROM dcim_cable c WHERE c.termination_${near}_id = i.id AND c.termination_a_device_id IS NOT NULL AND i.cable_id IS NULL`);
  }
}

/**
 * A /8 whose first `used` addresses are taken, in a VRF of its own: every allocation must
 * walk past all of them to the first free address. Gives the prefix's id.
 */
export async function seedAllocation(db: Knex, used: number): Promise<string> {
  await db.raw(`INSERT INTO ipam_vrf (name, rd) VALUES ('bench-alloc', '65001:1') ON CONFLICT DO NOTHING`);
  const vrf = (await db("ipam_vrf").where({ rd: "65001:1" }).first()).id;
  await db("ipam_ipaddress").where({ vrf_id: vrf }).where("description", "bench-allocated").del();
  await db("ipam_prefix").where({ vrf_id: vrf }).del();
  if (await count(db, "SELECT count(*) AS n FROM ipam_ipaddress WHERE vrf_id = ?", [vrf]) < used) {
    await db("ipam_ipaddress").where({ vrf_id: vrf }).del();
    await unchecked(db, (trx) => trx.raw(`INSERT INTO ipam_ipaddress (address, vrf_id, status) SELECT set_masklen('11.0.0.0'::inet + g, 8), ?, 'active' FROM generate_series(1, ?::int) g`, [vrf, used]));
  }
  return (await db("ipam_prefix").insert({ prefix: "11.0.0.0/8", vrf_id: vrf, status: "active" }).returning("id"))[0].id;
}

/** Events a week apart from tomorrow on (inside the default archive window), each with a venue, two organizers, a category and two tags. */
export async function seedCalendar(db: Knex, events: number): Promise<void> {
  if (await count(db, "SELECT count(*) AS n FROM events_event WHERE excerpt = 'bench'") >= events) return;
  await db.raw(`INSERT INTO venues_venue (venue, slug, city) SELECT 'Bench venue ' || g, 'bench-venue-' || g, 'Oslo' FROM generate_series(1, 40) g`);
  await db.raw(`INSERT INTO organizers_organizer (organizer, slug) SELECT 'Bench organizer ' || g, 'bench-organizer-' || g FROM generate_series(1, 40) g`);
  await db.raw(`INSERT INTO events_category (name, slug) SELECT 'Bench category ' || g, 'bench-category-' || g FROM generate_series(1, 10) g`);
  await db.raw(`INSERT INTO events_tag (name, slug) SELECT 'Bench tag ' || g, 'bench-tag-' || g FROM generate_series(1, 20) g`);
  await db.raw(`
    WITH v AS (SELECT array_agg(id ORDER BY id) a FROM venues_venue WHERE slug LIKE 'bench-venue-%')
    INSERT INTO events_event (title, slug, excerpt, start_date, end_date, utc_start_date, utc_end_date, timezone, venue_id)
    SELECT 'Bench event ' || g, 'bench-event-' || g, 'bench', d, d + interval '2 hours', d, d + interval '2 hours', 'UTC', v.a[1 + g % 40]
    FROM generate_series(1, ?::int) g, v, LATERAL (SELECT date_trunc('day', now()) + interval '1 day' + (g % 500) * interval '1 day' + interval '10 hours' AS d) t`, [events]);
  const rows = "SELECT id, row_number() OVER (ORDER BY id) AS n FROM events_event WHERE excerpt = 'bench'";
  const pick = (table: string) => `(SELECT array_agg(id ORDER BY id) a FROM ${table} WHERE slug LIKE 'bench-%')`;
  await db.raw(`INSERT INTO events_event_organizer (source_id, organizer_id) SELECT e.id, o.a[1 + (e.n + k) % 40] FROM (${rows}) e, ${pick("organizers_organizer")} o, generate_series(0, 1) k`);
  await db.raw(`INSERT INTO events_event_categories (source_id, category_id) SELECT e.id, c.a[1 + e.n % 10] FROM (${rows}) e, ${pick("events_category")} c`);
  await db.raw(`INSERT INTO events_event_tags (source_id, tag_id) SELECT e.id, t.a[1 + (e.n + k * 7) % 20] FROM (${rows}) e, ${pick("events_tag")} t, generate_series(0, 1) k`);
}

/**
 * One address on each bench device's interface (the GraphQL workload's third level), and the
 * device pages a client reads: each page's device and interface ids, in the API's order.
 */
export async function seedInterfaceAddresses(db: Knex): Promise<Array<{ devices: string[]; interfaces: string[] }>> {
  await db.raw(`
    INSERT INTO ipam_ipaddress (address, status, assigned_object_type, assigned_object_id, description)
    SELECT set_masklen('12.0.0.0'::inet + row_number() OVER (ORDER BY i.id), 16), 'active', 'dcim.interface', i.id, 'bench-interface'
    FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id
    WHERE d.name LIKE 'bench-dev-%' AND NOT EXISTS (SELECT 1 FROM ipam_ipaddress a WHERE a.assigned_object_id = i.id)`);
  const rows = (await db.raw(`
    SELECT d.id AS device, (SELECT array_agg(i.id ORDER BY i.name) FROM dcim_interface i WHERE i.device_id = d.id) AS interfaces
    FROM dcim_device d WHERE d.name LIKE 'bench-dev-%' ORDER BY d.name LIMIT 500`)).rows as Array<{ device: string; interfaces: string[] }>;
  const pages: Array<{ devices: string[]; interfaces: string[] }> = [];
  for (let k = 0; k + 50 <= rows.length; k += 50) {
    const page = rows.slice(k, k + 50);
    pages.push({ devices: page.map((r) => r.device), interfaces: page.flatMap((r) => r.interfaces ?? []) });
  }
  return pages;
}
