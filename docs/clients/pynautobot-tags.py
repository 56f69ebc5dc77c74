# pynautobot 1.5.5 against tags and content types: a tag made with the default API version
# (1.2: every taggable model, no content_types shown), one made through 1.3 without content
# types (refused) and with them, its list narrowed by save(), the tag refused on a tenant
# (a model it does not name) and taken by a site, a type in use refused removal, tags filtered
# by content type, and the content types read (all, filtered, one). Deletes what it made.
import os
import pynautobot

url, token = os.environ["NAUTOBOT_URL"], os.environ["NAUTOBOT_TOKEN"]
nb = pynautobot.api(url, token=token)
nb13 = pynautobot.api(url, token=token, api_version="1.3")

legacy = nb.extras.tags.create(name="pyn-anywhere", color="00ff00")
print("1.2 create shows content_types:", "content_types" in dict(legacy))
print("the same tag through 1.3:", len(nb13.extras.tags.get(legacy.id).content_types), "content types")
try:
    nb13.extras.tags.create(name="pyn-unscoped")
except pynautobot.RequestError as e:
    print("1.3 create without content_types:", e.error)
edge = nb13.extras.tags.create(name="pyn-edge", content_types=["dcim.site", "ipam.prefix"])
print("1.3 create:", edge.content_types)
edge.content_types = ["dcim.site"]
edge.save()
print("narrowed:", nb13.extras.tags.get(edge.id).content_types)

tenant = nb.tenancy.tenants.create(name="pyn-tenant", tags=[legacy.id])
try:
    tenant.update({"tags": [legacy.id, edge.id]})
except pynautobot.RequestError as e:
    print("a site-only tag on a tenant:", e.error)
site = nb.dcim.sites.create(name="pyn-edge-site", status="active", tags=[edge.id])
print("on a site:", [t.name for t in site.tags])
try:
    nb13.extras.tags.get(edge.id).update({"content_types": ["ipam.prefix"]})
except pynautobot.RequestError as e:
    print("removing a type in use:", e.error)
print("tags for prefixes:", sorted(t.name for t in nb13.extras.tags.filter(content_types="ipam.prefix")))

types = nb.extras.content_types.all()
print("content types:", len(types), "first:", types[0].id, types[0].display)
prefix = nb.extras.content_types.get(app_label="ipam", model="prefix")
print("ipam.prefix:", prefix.id, prefix.display, nb.extras.content_types.get(prefix.id).model)
print("ipam:", [c.model for c in nb.extras.content_types.filter(app_label="ipam")])

for obj in (site, tenant, edge, legacy):
    obj.delete()
