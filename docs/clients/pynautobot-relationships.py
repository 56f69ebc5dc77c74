# pynautobot 1.5.5 with relationships: defines a site-to-site symmetric relationship, links two
# demo sites by writing `relationships` with save(), reads them back with include=relationships
# (the demo's "Site VRFs" too), filters sites by cr_<slug>__peer, sees a second link refused for
# a one-to-one relationship, and deletes what it made.
import os
import pynautobot

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")
# Read with include=relationships, so save() sees `relationships` change and sends it.
ber = nb.dcim.sites.get(slug="berlin-dc1", include="relationships")
fra = nb.dcim.sites.get(slug="frankfurt-dc2")
nyc = nb.dcim.sites.get(slug="new-york-lab")
pair = nb.extras.relationships.create(name="Pyn DR pair", type="symmetric-one-to-one", source_type="dcim.site", destination_type="dcim.site", source_label="DR site")
print("relationship:", pair.slug, pair.type, pair.destination_label)
ber.relationships = {pair.slug: {"peer": {"objects": [fra.id]}}}
ber.save()
rels = dict(nb.dcim.sites.get(slug="berlin-dc1", include="relationships"))["relationships"]
print("peer of berlin:", [o["name"] for o in rels[pair.slug]["peer"]["objects"]], rels[pair.slug]["peer"]["label"])
print("site_vrfs of berlin:", [o["name"] for o in rels["site_vrfs"]["destination"]["objects"]])
print("cr_ filter:", [s.name for s in nb.dcim.sites.filter(**{f"cr_{pair.slug}__peer": fra.id})])
try:
    nb.extras.relationship_associations.create(relationship=pair.id, source_type="dcim.site", source_id=nyc.id, destination_type="dcim.site", destination_id=fra.id)
except pynautobot.RequestError as e:
    print("refused:", e.error)
pair.delete()
print("symmetric associations left at berlin:", nb.extras.relationship_associations.count(peer_id=ber.id))
