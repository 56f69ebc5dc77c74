import os
import pynautobot
nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")
print("status", nb.status()["nautobot-version"], nb.version)
site = nb.dcim.sites.get(slug="berlin-dc1")
print("site", site.name, site.latitude, site.device_count, site.rack_count)
m = nb.dcim.manufacturers.create(name="Cisco")
dt = nb.dcim.device_types.create(manufacturer=m.id, model="C9300-48P", u_height=1)
role = nb.dcim.device_roles.get(slug="leaf-switch")
rack = nb.dcim.racks.get(name="A02")
d = nb.dcim.devices.create(name="ber1-acc1", device_type=dt.id, device_role=role.id, site=site.id, rack=rack.id, position=10, face="front", status="active")
print("device", d.name, d.device_type.display, d.rack.name, d.position, d.face, d.status)
d.serial = "FOC123"
print("save", d.save())
print("filter", [x.name for x in nb.dcim.devices.filter(role="leaf-switch", site="berlin-dc1")])
print("racks", [(r.display, r.device_count) for r in nb.dcim.racks.filter(site="berlin-dc1")])
try:
    nb.dcim.devices.create(name="ber1-acc2", device_type=dt.id, device_role=role.id, site=site.id, rack=rack.id, position=10, face="front", status="active")
except pynautobot.RequestError as e:
    print("refused", e.error)
print("groups", [(g.name, g.rack_count) for g in nb.dcim.rack_groups.all()])
print("delete", d.delete(), dt.delete(), m.delete())
