// Groups, users in groups and object permissions over HTTP, as Nautobot 1.5 serves them:
// groups have integer ids (detail paths, filters, bulk bodies and links all take integers),
// users and permissions link to them by those ids, and a permission's actions and constraints
// are checked. Every reply is checked against the emitted OpenAPI document.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import { Contract, type Method } from "../../support/contract.js";
import { call, del, get, post, type Reply } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { rows, uniq, UUID_RE } from "./support.js";

const inventory = apis.find((a) => a.profile === "drf")!;
const contract = new Contract(inventory.openapi[inventory.versions.default] as Record<string, unknown>, "groups-permissions.json");
const GROUPS = "/api/users/groups/";
const USERS = "/api/users/users/";
const PERMISSIONS = "/api/users/permissions/";

/** A request whose reply must be one the document describes. */
async function checked(method: Method, path: string, template: string, body?: unknown): Promise<Reply> {
  const reply = await call(method.toUpperCase(), path, body === undefined ? {} : { body });
  contract.check(method, template, reply);
  return reply;
}

describe("inventory e2e: groups (integer ids), users' groups and object permissions", () => {
  const tag = uniq("perm").toLowerCase();

  it("groups have integer ids: created one or several, read, renamed and deleted by them", async () => {
    const one = await checked("post", GROUPS, GROUPS, { name: `${tag}-noc` });
    expect(one.status, one.text).to.equal(201);
    expect(one.body.id).to.be.a("number");
    expect(one.body).to.deep.equal({
      id: one.body.id, display: `${tag}-noc`, url: `${(await startTestServer()).url}${GROUPS}${one.body.id}/`, name: `${tag}-noc`, user_count: 0,
    });
    expect(one.headers.get("location")).to.equal(one.body.url);
    const many = await checked("post", GROUPS, GROUPS, [{ name: `${tag}-eng` }, { name: `${tag}-ops` }]);
    expect(many.status, many.text).to.equal(201);
    expect(many.body.map((g: { id: unknown }) => typeof g.id)).to.deep.equal(["number", "number"]);

    const detail = await checked("get", `${GROUPS}${one.body.id}/`, `${GROUPS}{id}/`);
    expect(detail.body).to.deep.equal(one.body);
    const brief = await checked("get", `${GROUPS}${one.body.id}/?brief=1`, `${GROUPS}{id}/`);
    expect(brief.body).to.deep.equal({ id: one.body.id, url: one.body.url, display: `${tag}-noc`, name: `${tag}-noc` });
    // A UUID names no group; nor does a number beyond the column's range.
    for (const bad of ["00000000-0000-4000-8000-000000000000", "99999999999", "abc"]) {
      const missing = await checked("get", `${GROUPS}${bad}/`, `${GROUPS}{id}/`);
      expect(missing.status, bad).to.equal(404);
    }

    const renamed = await checked("patch", `${GROUPS}${many.body[0].id}/`, `${GROUPS}{id}/`, { name: `${tag}-eng2` });
    expect(renamed.body.name).to.equal(`${tag}-eng2`);
    const replaced = await checked("put", `${GROUPS}${many.body[1].id}/`, `${GROUPS}{id}/`, { name: `${tag}-ops2` });
    expect(replaced.body).to.deep.include({ id: many.body[1].id, name: `${tag}-ops2` });
    const gone = await checked("delete", `${GROUPS}${many.body[1].id}/`, `${GROUPS}{id}/`);
    expect(gone.status).to.equal(204);
    expect(await rows("users_group", { id: many.body[1].id })).to.equal(0);
  });

  it("bulk updates and deletes name groups by integer ids, all or none", async () => {
    const made = (await post(GROUPS, [{ name: `${tag}-b1` }, { name: `${tag}-b2` }, { name: `${tag}-b3` }])).body;
    const [a, b, c] = made.map((g: { id: number }) => g.id);
    // Digits are an integer too, as DRF's IntegerField reads them.
    const renamed = await checked("patch", GROUPS, GROUPS, [{ id: a, name: `${tag}-b1x` }, { id: String(b), name: `${tag}-b2x` }]);
    expect(renamed.status, renamed.text).to.equal(200);
    expect(renamed.body.map((g: { id: number; name: string }) => [g.id, g.name])).to.deep.equal([[a, `${tag}-b1x`], [b, `${tag}-b2x`]]);
    const replaced = await checked("put", GROUPS, GROUPS, [{ id: c, name: `${tag}-b3x` }]);
    expect(replaced.body[0]).to.deep.include({ id: c, name: `${tag}-b3x` });

    const cases: Array<[unknown[], unknown]> = [
      [[{ id: "x", name: "y" }], [{ id: ["A valid integer is required."] }]],
      [[{ id: "0f1e8c2a-0000-4000-8000-000000000000", name: "y" }], [{ id: ["A valid integer is required."] }]],
      [[{ name: "y" }], [{ id: ["This field is required."] }]],
      [[{ id: a, name: "y" }, { id: String(a), name: "z" }], [{}, { id: ["This object appears more than once in the request."] }]],
      [[{ id: a, name: `${tag}-never` }, { id: 2147483000, name: "z" }], [{}, { id: ["Object with this ID does not exist."] }]],
    ];
    for (const [body, errors] of cases) {
      const res = await checked("patch", GROUPS, GROUPS, body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("users_group", { name: `${tag}-never` })).to.equal(0);

    const refused = await checked("delete", GROUPS, GROUPS, [{ id: a }, { id: 2147483000 }]);
    expect(refused.status).to.equal(400);
    expect(await rows("users_group", { id: a })).to.equal(1);
    const deleted = await checked("delete", GROUPS, GROUPS, [{ id: a }, { id: String(b) }]);
    expect(deleted.status).to.equal(204);
    expect(await rows("users_group", { id: a })).to.equal(0);
    expect(await rows("users_group", { id: b })).to.equal(0);
    expect(await rows("users_group", { id: c })).to.equal(1);
  });

  it("group names are unique and required; filters take integer ids and names", async () => {
    const made = (await post(GROUPS, [{ name: `${tag}-f1` }, { name: `${tag}-f2` }])).body;
    const dup = await checked("post", GROUPS, GROUPS, { name: `${tag}-f1` });
    expect([dup.status, dup.body]).to.deep.equal([400, { name: ["group with this name already exists."] }]);
    expect((await checked("post", GROUPS, GROUPS, {})).body).to.deep.equal({ name: ["This field is required."] });

    const names = async (query: string) => (await checked("get", `${GROUPS}?${query}`, GROUPS)).body.results.map((g: { name: string }) => g.name);
    expect(await names(`id=${made[0].id}`)).to.deep.equal([`${tag}-f1`]);
    expect(await names(`id__gte=${made[1].id}&q=${tag}-f`)).to.deep.equal([`${tag}-f2`]);
    expect(await names(`id__n=${made[0].id}&q=${tag}-f`)).to.deep.equal([`${tag}-f2`]);
    expect(await names(`name__isw=${tag}-f`)).to.deep.equal([`${tag}-f1`, `${tag}-f2`]);
    const bad = await checked("get", `${GROUPS}?id=abc`, GROUPS);
    expect([bad.status, bad.body]).to.deep.equal([400, { id: ["Enter a whole number."] }]);
  });

  it("users belong to groups written as integer ids, shown nested, counted by each group", async () => {
    const [noc, eng] = (await post(GROUPS, [{ name: `${tag}-u-noc` }, { name: `${tag}-u-eng` }])).body;
    const user = await checked("post", USERS, USERS, { username: `${tag}-alice`, password: "secret-1", groups: [noc.id, String(eng.id)] });
    expect(user.status, user.text).to.equal(201);
    expect(user.body.id).to.match(UUID_RE);
    expect(Object.keys(user.body)).to.deep.equal([
      "id", "display", "url", "username", "first_name", "last_name", "email", "is_staff", "is_active", "is_superuser", "date_joined", "groups",
    ]);
    // In the groups' order (by name), each in its nested form.
    expect(user.body.groups).to.deep.equal([
      { id: eng.id, url: eng.url, display: eng.name, name: eng.name },
      { id: noc.id, url: noc.url, display: noc.name, name: noc.name },
    ]);
    expect((await get(`${GROUPS}${noc.id}/`)).body.user_count).to.equal(1);
    const stored = await (await startTestServer()).db("users_user").where("id", user.body.id).first();
    expect(stored.config_data).to.deep.equal({});

    const cases: Array<[unknown, string]> = [
      [["abc"], "Incorrect type. Expected pk value, received str."],
      [[true], "Incorrect type. Expected pk value, received bool."],
      [[1.5], "Incorrect type. Expected pk value, received float."],
      [[2147483000], 'Invalid pk "2147483000" - object does not exist.'],
      [[null], 'Invalid pk "None" - object does not exist.'],
      [["0f1e8c2a-0000-4000-8000-000000000000"], "Incorrect type. Expected pk value, received str."],
      [noc.id, 'Expected a list of items but got type "int".'],
    ];
    for (const [groups, message] of cases) {
      const res = await checked("patch", `${USERS}${user.body.id}/`, `${USERS}{id}/`, { groups });
      expect([res.status, res.body], JSON.stringify(groups)).to.deep.equal([400, { groups: [message] }]);
    }
    // A group may also be named by its attributes, as any related object of this API.
    const moved = await checked("patch", `${USERS}${user.body.id}/`, `${USERS}{id}/`, { groups: [{ name: eng.name }] });
    expect(moved.body.groups.map((g: { id: number }) => g.id)).to.deep.equal([eng.id]);
    expect((await get(`${GROUPS}${noc.id}/`)).body.user_count).to.equal(0);

    const usernames = async (query: string) => (await checked("get", `${USERS}?${query}`, USERS)).body.results.map((u: { username: string }) => u.username);
    expect(await usernames(`group_id=${eng.id}`)).to.deep.equal([`${tag}-alice`]);
    expect(await usernames(`group=${eng.name}`)).to.deep.equal([`${tag}-alice`]);
    expect(await usernames(`group_id=${noc.id}`)).to.deep.equal([]);
    expect(await usernames(`group_id__n=${eng.id}&username__isw=${tag}`)).to.deep.equal([]);
    const badFilter = await checked("get", `${USERS}?group_id=abc`, USERS);
    expect([badFilter.status, badFilter.body]).to.deep.equal([400, { group_id: ["“abc” is not a valid value."] }]);
    const unknown = await checked("get", `${USERS}?group_id=2147483000`, USERS);
    expect([unknown.status, unknown.body]).to.deep.equal([400, { group_id: ["Select a valid choice. 2147483000 is not one of the available choices."] }]);
    // Nautobot's UserFilterSet filters neither of these.
    for (const param of ["is_superuser=true", "date_joined__gte=2020-01-01", "groups=1"]) {
      expect((await get(`${USERS}?${param}`)).status, param).to.equal(400);
    }

    // Deleting a group takes it out of its users.
    await del(`${GROUPS}${eng.id}/`);
    expect((await get(`${USERS}${user.body.id}/`)).body.groups).to.deep.equal([]);
  });

  it("object permissions: content types, groups by integer id, users by uuid, actions and constraints", async () => {
    const group = (await post(GROUPS, { name: `${tag}-p-noc` })).body;
    const user = (await post(USERS, { username: `${tag}-bob`, password: "secret-1" })).body;
    const body = {
      name: `${tag} sites`, object_types: ["dcim.site", "dcim.location"], groups: [group.id], users: [user.id],
      actions: ["view", "change"], constraints: [{ slug: "ams01" }, { tenant__slug: "$user" }],
    };
    const made = await checked("post", PERMISSIONS, PERMISSIONS, body);
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.deep.equal({
      id: made.body.id, display: `${tag} sites`, url: made.body.url, name: `${tag} sites`, description: "", enabled: true,
      object_types: ["dcim.location", "dcim.site"],
      groups: [{ id: group.id, url: group.url, display: group.name, name: group.name }],
      users: [{ id: user.id, url: user.url, display: user.username, username: user.username }],
      actions: ["view", "change"], constraints: [{ slug: "ams01" }, { tenant__slug: "$user" }],
    });
    // Nautobot's nested permission lists its groups' names and its users' usernames.
    const brief = await checked("get", `${PERMISSIONS}${made.body.id}/?brief=1`, `${PERMISSIONS}{id}/`);
    expect(brief.body).to.deep.equal({
      id: made.body.id, url: made.body.url, display: `${tag} sites`, name: `${tag} sites`, enabled: true,
      object_types: ["dcim.location", "dcim.site"], groups: [group.name], users: [user.username], actions: ["view", "change"],
    });
    // Names need not be unique; constraints may be one object, or null.
    const twin = await checked("post", PERMISSIONS, PERMISSIONS, { ...body, groups: [], users: [], constraints: { slug: "ams02" } });
    expect(twin.status, twin.text).to.equal(201);
    const open = await checked("patch", `${PERMISSIONS}${twin.body.id}/`, `${PERMISSIONS}{id}/`, { constraints: null, enabled: false });
    expect(open.body).to.deep.include({ constraints: null, enabled: false });

    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ name: `${tag} x` }, { object_types: ["This field is required."], actions: ["This field is required."] }],
      [{ ...body, actions: [] }, { actions: ["This field cannot be blank."] }],
      [{ ...body, actions: ["view", ""] }, { actions: ["This field cannot be blank."] }],
      [{ ...body, actions: "view" }, { actions: ['Expected a list of items but got type "str".'] }],
      [{ ...body, actions: ["x".repeat(31)] }, { actions: ["Ensure this field has no more than 30 characters."] }],
      [{ ...body, constraints: "slug=ams01" }, { constraints: ["Enter an object of lookups, a list of such objects, or null."] }],
      [{ ...body, constraints: [{ slug: "a" }, 5] }, { constraints: ["Enter an object of lookups, a list of such objects, or null."] }],
      [{ ...body, object_types: ["dcim.nothing"] }, { object_types: ["Invalid content type: dcim.nothing"] }],
      [{ ...body, groups: [group.url] }, { groups: ["Incorrect type. Expected pk value, received str."] }],
      [{ ...body, users: [2] }, { users: ['Invalid pk "2" - object does not exist.'] }],
      [{ ...body, name: "" }, { name: ["This field may not be blank."] }],
    ];
    for (const [bad, errors] of cases) {
      const res = await checked("post", PERMISSIONS, PERMISSIONS, bad);
      expect([res.status, res.body], JSON.stringify(bad)).to.deep.equal([400, errors]);
    }
    expect(await rows("users_objectpermission", { name: `${tag} x` })).to.equal(0);

    const ct = await (await startTestServer()).db("extras_contenttype").where({ app_label: "dcim", model: "location" }).first();
    const names = async (query: string) => (await checked("get", `${PERMISSIONS}?${query}`, PERMISSIONS)).body.results.map((p: { id: string }) => p.id);
    expect(await names(`object_types=${ct.id}&name=${encodeURIComponent(`${tag} sites`)}`)).to.deep.equal([made.body.id, twin.body.id].sort());
    expect(await names(`object_types__n=${ct.id}&name=${encodeURIComponent(`${tag} sites`)}`)).to.deep.equal([]);
    expect(await names(`user=${user.username}`)).to.deep.equal([made.body.id]);
    expect(await names(`user_id=${user.id}`)).to.deep.equal([made.body.id]);
    expect(await names(`group=${group.name}`)).to.deep.equal([made.body.id]);
    expect(await names(`group_id=${group.id}`)).to.deep.equal([made.body.id]);
    expect(await names(`enabled=false&name=${encodeURIComponent(`${tag} sites`)}`)).to.deep.equal([twin.body.id]);
    const bad = await checked("get", `${PERMISSIONS}?object_types=dcim.site`, PERMISSIONS);
    expect([bad.status, bad.body]).to.deep.equal([400, { object_types: ["“dcim.site” is not a valid value."] }]);

    // Deleting a user or a group takes it out of the permissions; the permission stays.
    await del(`${USERS}${user.id}/`);
    await del(`${GROUPS}${group.id}/`);
    expect((await get(`${PERMISSIONS}${made.body.id}/`)).body).to.deep.include({ users: [], groups: [] });
    expect((await checked("delete", `${PERMISSIONS}${made.body.id}/`, `${PERMISSIONS}{id}/`)).status).to.equal(204);
    expect(await rows("users_objectpermission_object_types", { source_id: made.body.id })).to.equal(0);
  });

  it("OPTIONS describes a group's integer id and a permission's fields", async () => {
    const groups = await call("OPTIONS", GROUPS);
    contract.check("options", GROUPS, groups);
    expect(groups.body.actions.POST.id).to.deep.equal({ type: "integer", required: false, read_only: true, label: "ID" });
    const permissions = await call("OPTIONS", PERMISSIONS);
    contract.check("options", PERMISSIONS, permissions);
    expect(Object.keys(permissions.body.actions.POST)).to.deep.equal([
      "id", "display", "url", "name", "description", "enabled", "object_types", "groups", "users", "actions", "constraints",
    ]);
  });
});
