# pynautobot 1.5.5 on the edges of the OpenAPI document: choices() (OPTIONS), openapi() in
# both versions, a bulk PATCH of `id` plus one field (as pynautobot 3.x's
# `prefixes.update([{id, description}])` sends it) and a bulk PUT of full items, a 1.3 tag
# with content types, a missing object (404), a protected delete (409) and a full prefix's
# available-ips (204). Run it through a validating proxy to check the document.
import os
import pynautobot

url, token = os.environ["NAUTOBOT_URL"], os.environ["NAUTOBOT_TOKEN"]
nb = pynautobot.api(url, token=token)
nb13 = pynautobot.api(url, token=token, api_version="1.3")
print("choices:", sorted(nb.ipam.prefixes.choices()))
print("openapi:", nb.openapi()["info"]["version"], nb13.openapi()["info"]["version"])

a = nb13.ipam.prefixes.create(prefix="10.252.0.0/31", status="active", is_pool=True)
b = nb13.ipam.prefixes.create(prefix="10.252.1.0/24", status="active")
api = f"{url}/api"
headers = {"Authorization": f"Token {token}", "Accept": "application/json; version=1.3"}
bulk = nb.http_session.patch(f"{api}/ipam/prefixes/", json=[{"id": a.id, "description": "bulk a"}, {"id": b.id, "description": "bulk b"}], headers=headers)
print("bulk patch:", bulk.status_code, [p["description"] for p in bulk.json()])
full = [{"id": p.id, "prefix": p.prefix, "status": "reserved"} for p in (a, b)]
bulk = nb.http_session.put(f"{api}/ipam/prefixes/", json=full, headers=headers)
print("bulk put:", bulk.status_code, [p["status"]["value"] for p in bulk.json()])
options = nb.http_session.options(f"{api}/ipam/prefixes/{a.id}/", headers=headers)
print("detail options:", options.status_code, sorted(options.json()["actions"]))

ips = a.available_ips.create([{"status": "active"}, {"status": "active"}])
print("filled:", [ip.address for ip in ips])
more = nb.http_session.post(f"{api}/ipam/prefixes/{a.id}/available-ips/", json={"status": "active"}, headers=headers)
print("when full:", more.status_code)

tag = nb13.extras.tags.create(name="pyn-contract", slug="pyn-contract", content_types=["ipam.prefix"])
print("tag:", tag.content_types)
missing = nb.http_session.get(f"{api}/ipam/prefixes/00000000-0000-4000-8000-000000000000/", headers=headers)
print("missing:", missing.status_code, missing.json())

site = nb.dcim.sites.create(name="pyn-contract-site", slug="pyn-contract-site", status="active")
rack = nb.dcim.racks.create(name="pyn-contract-rack", site=site.id, status="active")
blocked = nb.http_session.delete(f"{api}/dcim/sites/{site.id}/", headers=headers)
print("protected:", blocked.status_code, blocked.json()["detail"][:40])

for obj in [*ips, a, b, tag, rack, site]:
    obj.delete()
print("cleaned")
