// Secrets, secrets groups and their associations, and device redundancy groups, over HTTP:
// Nautobot's provider rules and its `check` action (an environment variable, a text file),
// groups listing their secrets by access and secret type, and devices joining a redundancy
// group with a priority.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { row, rows, uniq } from "./support.js";

describe("inventory e2e: secrets and device redundancy groups", () => {
  const tag = uniq("sec").toLowerCase();
  const variable = `ARMATURE_TEST_${tag.replace(/-/g, "_").toUpperCase()}`;

  it("secrets name a known provider; a text file's path is absolute and plain", async () => {
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ name: `${tag}-x`, provider: "vault" }, { provider: ['No registered provider "vault" is available'] }],
      [{ name: `${tag}-x`, provider: "text-file", parameters: { path: "etc/passwd" } }, { non_field_errors: ["Path must be an absolute path, not a relative one"] }],
      [{ name: `${tag}-x`, provider: "text-file", parameters: { path: "/srv/../etc/passwd" } }, { non_field_errors: ["Illegal character sequence in path"] }],
      [{ name: `${tag}-x`, provider: "text-file" }, { non_field_errors: ["Path must be an absolute path, not a relative one"] }],
      [{ name: `${tag}-x` }, { provider: ["This field is required."] }],
      [{ name: `${tag}-x`, provider: "environment-variable", parameters: ["variable"] }, { parameters: ['Expected a dictionary of items but got type "list".'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post("/api/extras/secrets/", body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("extras_secret", { name: `${tag}-x` })).to.equal(0);
  });

  it("check says whether the provider finds the value, in Nautobot's words", async () => {
    const env = await post("/api/extras/secrets/", { name: `${tag} Env`, provider: "environment-variable", parameters: { variable }, tags: [] });
    expect(env.status, env.text).to.equal(201);
    expect(env.body).to.deep.include({ slug: `${tag}-env`, provider: "environment-variable", parameters: { variable }, description: "", display: `${tag} Env` });
    const missing = (await get(`/api/extras/secrets/${env.body.id}/check/`)).body;
    expect(missing).to.deep.equal({
      result: false,
      message: `SecretValueNotFoundError: Secret "${tag} Env" (provider "EnvironmentVariableSecretsProvider"): Undefined environment variable "${variable}"!`,
    });
    const dir = await mkdtemp(join(tmpdir(), "armature-secret-"));
    await writeFile(join(dir, "token"), "s3cret\n");
    const file = (await post("/api/extras/secrets/", { name: `${tag} File`, provider: "text-file", parameters: { path: join(dir, "token") } })).body;
    expect((await get(`/api/extras/secrets/${file.id}/check/`)).body).to.deep.equal({ result: true, message: "Passed" });
    const gone = (await patch(`/api/extras/secrets/${file.id}/`, { parameters: { path: join(dir, "nothing") } })).body;
    expect((await get(`/api/extras/secrets/${gone.id}/check/`)).body.message).to.equal(
      `SecretValueNotFoundError: Secret "${tag} File" (provider "TextFileSecretsProvider"): File "${join(dir, "nothing")}" not found!`);
    const noParam = (await post("/api/extras/secrets/", { name: `${tag} Bare`, provider: "environment-variable" })).body;
    expect((await get(`/api/extras/secrets/${noParam.id}/check/`)).body.message).to.equal(
      `SecretParametersError: Secret "${tag} Bare" (provider "EnvironmentVariableSecretsProvider"): The "variable" parameter is mandatory!`);
    expect((await get(`/api/extras/secrets/?provider=text-file&q=${tag}`)).body.results.map((s: any) => s.id)).to.deep.equal([file.id]);
  });

  it("check renders each parameter as a Jinja2 template without an object, as Nautobot's rendered_parameters", async () => {
    const templated = (await post("/api/extras/secrets/", { name: `${tag} Templated`, provider: "environment-variable", parameters: { variable: "{{ obj.name | default('PA') }}{{ 'TH' }}" } })).body;
    expect((await get(`/api/extras/secrets/${templated.id}/check/`)).body).to.deep.equal({ result: true, message: "Passed" });
    const broken = (await post("/api/extras/secrets/", { name: `${tag} Broken`, provider: "environment-variable", parameters: { variable: "{{ obj.name " } })).body;
    const reply = (await get(`/api/extras/secrets/${broken.id}/check/`)).body;
    expect(reply.result).to.equal(false);
    expect(reply.message).to.match(new RegExp(`^SecretParametersError: Secret "${tag} Broken" \\(provider "EnvironmentVariableSecretsProvider"\\): .+`));
    const hostile = (await post("/api/extras/secrets/", { name: `${tag} Hostile`, provider: "environment-variable", parameters: { variable: "{{ ''.constructor.constructor('return process.env.PATH')() }}" } })).body;
    expect((await get(`/api/extras/secrets/${hostile.id}/check/`)).body.result).to.equal(false);
  });

  it("a secrets group lists its secrets by access and secret type; each pair once", async () => {
    const user = (await post("/api/extras/secrets/", { name: `${tag} User`, provider: "environment-variable", parameters: { variable: "USER" } })).body;
    const pass = (await post("/api/extras/secrets/", { name: `${tag} Pass`, provider: "environment-variable", parameters: { variable: "PASS" } })).body;
    const group = await post("/api/extras/secrets-groups/", { name: `${tag} Group`, secrets: [] });
    expect(group.status, group.text).to.equal(201);
    expect(group.body).to.deep.include({ slug: `${tag}-group`, secrets: [], description: "" });
    const a1 = await post("/api/extras/secrets-groups-associations/", { group: { slug: group.body.slug }, access_type: "SSH", secret_type: "username", secret: user.id });
    expect(a1.status, a1.text).to.equal(201);
    expect(a1.body.access_type).to.deep.equal({ value: "SSH", label: "SSH" });
    expect(a1.body.display).to.equal(`${tag} Group: SSH username: ${tag} User`);
    expect(Object.keys(a1.body.group).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);
    expect((await post("/api/extras/secrets-groups-associations/", { group: group.body.id, access_type: "SSH", secret_type: "password", secret: pass.id })).status).to.equal(201);
    const twice = await post("/api/extras/secrets-groups-associations/", { group: group.body.id, access_type: "SSH", secret_type: "username", secret: pass.id });
    expect(twice.body).to.deep.equal({ non_field_errors: ["The fields group, access_type, secret_type must make a unique set."] });
    const bad = await post("/api/extras/secrets-groups-associations/", { group: group.body.id, access_type: "Telnet", secret_type: "username", secret: pass.id });
    expect(bad.body).to.deep.equal({ access_type: ["Telnet is not a valid choice."] });
    const shown = (await get(`/api/extras/secrets-groups/${group.body.id}/`)).body.secrets;
    expect(shown.map((s: any) => [s.access_type.value, s.secret_type.value, s.secret.name])).to.deep.equal([["SSH", "password", `${tag} Pass`], ["SSH", "username", `${tag} User`]]);
    expect(Object.keys(shown[0]).sort()).to.deep.equal(["access_type", "display", "id", "secret", "secret_type", "url"]);
    const assoc = async (q: string) => (await get(`/api/extras/secrets-groups-associations/?${q}`)).body.results.length;
    expect(await assoc(`group=${group.body.slug}`)).to.equal(2);
    expect(await assoc(`secret=${user.slug}&secret_type=username`)).to.equal(1);
    expect(await assoc(`group_id=${group.body.id}&access_type=REST`)).to.equal(0);
    // Deleting a secret takes its associations with it.
    expect((await del(`/api/extras/secrets/${pass.id}/`)).status).to.equal(204);
    expect(await rows("extras_secretsgroupassociation", { group_id: group.body.id })).to.equal(1);
  });

  it("devices join a redundancy group with a priority; groups keep a secrets group and filter by it", async () => {
    const secrets = (await post("/api/extras/secrets-groups/", { name: `${tag} Creds` })).body;
    const grp = await post("/api/dcim/device-redundancy-groups/", { name: `${tag} HA`, status: "active", failover_strategy: "active-passive", secrets_group: { slug: secrets.slug } });
    expect(grp.status, grp.text).to.equal(201);
    expect(grp.body).to.deep.include({ slug: `${tag}-ha`, comments: "", description: "" });
    expect(grp.body.failover_strategy).to.deep.equal({ value: "active-passive", label: "Active/Passive" });
    expect(grp.body.secrets_group.id).to.equal(secrets.id);
    const badStatus = await post("/api/dcim/device-redundancy-groups/", { name: `${tag} X`, status: "staged" });
    expect(badStatus.body).to.deep.equal({ status: ["Object with slug=staged does not exist."] });
    expect((await get(`/api/dcim/device-redundancy-groups/?secrets_group=${secrets.slug}`)).body.results.map((g: any) => g.id)).to.deep.equal([grp.body.id]);
    expect((await get(`/api/dcim/device-redundancy-groups/?failover_strategy=active-active&q=${tag}`)).body.count).to.equal(0);

    const site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    const role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-maker` })).body;
    const type = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "FW" })).body;
    const base = { device_type: type.id, device_role: role.id, site: site.id, status: "active" };
    const lone = await post("/api/dcim/devices/", { ...base, name: `${tag}-fw0`, device_redundancy_group_priority: 1 });
    expect(lone.body).to.deep.equal({ device_redundancy_group_priority: ["Must assign a redundancy group when defining a redundancy group priority."] });
    const zero = await post("/api/dcim/devices/", { ...base, name: `${tag}-fw0`, device_redundancy_group: grp.body.id, device_redundancy_group_priority: 0 });
    expect(zero.body).to.deep.equal({ device_redundancy_group_priority: ["Ensure this value is greater than or equal to 1."] });
    const fw1 = await post("/api/dcim/devices/", { ...base, name: `${tag}-fw1`, device_redundancy_group: { slug: grp.body.slug }, device_redundancy_group_priority: 1, secrets_group: secrets.id });
    expect(fw1.status, fw1.text).to.equal(201);
    expect(fw1.body.device_redundancy_group).to.deep.include({ id: grp.body.id, name: `${tag} HA`, slug: `${tag}-ha` });
    expect(fw1.body).to.deep.include({ device_redundancy_group_priority: 1 });
    expect(fw1.body.secrets_group.id).to.equal(secrets.id);
    expect((await get(`/api/dcim/devices/?device_redundancy_group=${grp.body.slug}`)).body.results.map((d: any) => d.id)).to.deep.equal([fw1.body.id]);
    expect((await get(`/api/dcim/devices/?secrets_group_id=${secrets.id}`)).body.count).to.equal(1);
    // Groups are let go, not protected: the device stays, without them.
    expect((await del(`/api/dcim/device-redundancy-groups/${grp.body.id}/`)).status).to.equal(204);
    expect((await del(`/api/extras/secrets-groups/${secrets.id}/`)).status).to.equal(204);
    const after = await row("dcim_device", fw1.body.id);
    expect([after?.device_redundancy_group_id, after?.secrets_group_id, after?.device_redundancy_group_priority]).to.deep.equal([null, null, 1]);
  });
});
