# pynautobot 1.5.5 against computed fields and notes: a computed field on sites (its slug made
# with underscores), a site showing it only when a GET includes it and in a write's reply, a
# template that fails giving the fallback value, a label taken twice refused; notes attached
# through the site's notes/ route (pynautobot's DetailEndpoint) and through extras/notes,
# listed both ways, and gone with the site. Deletes what it made.
import os
import pynautobot
from pynautobot.core.endpoint import DetailEndpoint

url, token = os.environ["NAUTOBOT_URL"], os.environ["NAUTOBOT_TOKEN"]
nb = pynautobot.api(url, token=token)

code = nb.extras.computed_fields.create(content_type="dcim.site", label="Pyn Site Code", template="{{ obj.name | upper }}/{{ obj.status.value }}")
broken = nb.extras.computed_fields.create(content_type="dcim.site", label="Pyn Broken", template="{{ obj.name ", fallback_value="n/a")
print("computed field:", code.slug, code.weight, repr(code.fallback_value))
try:
    nb.extras.computed_fields.create(content_type="dcim.site", label="Pyn Site Code", template="x")
except pynautobot.RequestError as e:
    print("the label again:", e.error)

site = nb.dcim.sites.create(name="pyn-cf-site", status="active")
print("create reply:", site.computed_fields["pyn_site_code"], site.computed_fields["pyn_broken"])
print("plain GET has computed_fields:", "computed_fields" in dict(nb.dcim.sites.get(site.id)))
listed = nb.dcim.sites.filter(id=site.id, include="computed_fields")[0]
print("with include:", dict(listed.computed_fields))

print("notes_url:", site.notes_url)
notes = DetailEndpoint(site, "notes")
first = notes.create({"note": "racked by pynautobot"})
print("note:", first["user_name"], first["assigned_object"]["name"], first["note"])
nb.extras.notes.create(assigned_object_type="dcim.site", assigned_object_id=site.id, note="second")
print("the site's notes:", sorted(n["note"] for n in notes.list()))
print("extras/notes for the site:", len(nb.extras.notes.filter(assigned_object_id=site.id)))

site.delete()
print("notes after deleting the site:", len(nb.extras.notes.filter(assigned_object_id=site.id)))
for cf in (code, broken):
    cf.delete()
