# pynautobot 1.5.5 against locations, config contexts, inventory items, device bays, secrets
# and redundancy groups: builds a location tree and filters it, reads a demo device's merged
# config context (and leaves it out), adds a context that overrides it, installs a blade in a
# chassis bay, fills a secrets group, and deletes what it made.
import os
import pynautobot

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")

campus = nb.dcim.location_types.create(name="Py Campus", content_types=["dcim.rackgroup"])
room = nb.dcim.location_types.create(name="Py Room", parent=campus.id, nestable=True, content_types=["dcim.rack", "dcim.device"])
north = nb.dcim.locations.create(name="Py North", location_type=campus.id, site={"slug": "new-york-lab"}, status="active")
r1 = nb.dcim.locations.create(name="Py R1", location_type=room.id, parent=north.id, status="active")
r1a = nb.dcim.locations.create(name="Py R1a", location_type=room.id, parent=r1.id, status="planned")
print("tree", r1a.display, r1a.tree_depth, r1a.parent.display)
print("subtree", sorted(str(l) for l in nb.dcim.locations.filter(subtree=north.slug)))
print("may hold a room", sorted(str(l) for l in nb.dcim.locations.filter(child_location_type=room.slug, base_site="new-york-lab")))
print("hold devices", sorted(str(l) for l in nb.dcim.locations.filter(content_type="dcim.device", base_site="new-york-lab")))

edge = nb.dcim.devices.get(name="ber1-edge1")
print("edge1 context", edge.config_context["syslog"], edge.config_context["bgp"], "group", edge.device_redundancy_group.name, edge.device_redundancy_group_priority)
print("without context", "config_context" in dict(nb.dcim.devices.get(name="ber1-edge1", exclude="config_context")))
ctx = nb.extras.config_contexts.create(name="Py edge override", weight=5000, data={"syslog": {"level": "debug"}}, roles=[{"slug": "core-router"}], sites=[{"slug": "berlin-dc1"}])
print("overridden", nb.dcim.devices.get(name="ber1-edge1").config_context["syslog"])
print("contexts for core routers", sorted(str(c) for c in nb.extras.config_contexts.filter(role="core-router")))
ctx.delete()

chassis_type = nb.dcim.device_types.create(manufacturer={"slug": "arista"}, model="Py Chassis", subdevice_role="parent")
nb.dcim.device_bay_templates.create(device_type=chassis_type.id, name="Slot 1")
blade_type = nb.dcim.device_types.create(manufacturer={"slug": "arista"}, model="Py Blade", u_height=0, subdevice_role="child")
chassis = nb.dcim.devices.create(name="py-chassis", device_type=chassis_type.id, device_role={"slug": "leaf-switch"}, site={"slug": "new-york-lab"}, location=r1.id, status="active")
blade = nb.dcim.devices.create(name="py-blade", device_type=blade_type.id, device_role={"slug": "leaf-switch"}, site={"slug": "new-york-lab"}, status="active")
bay = nb.dcim.device_bays.get(device_id=chassis.id, name="Slot 1")
bay.installed_device = blade.id
print("install", bay.save())
blade = nb.dcim.devices.get(blade.id)
print("blade parent", blade.parent_device.name, blade.parent_device.device_bay.name)
print("with bays", [str(d) for d in nb.dcim.devices.filter(has_device_bays=True, site="new-york-lab")])
item = nb.dcim.inventory_items.create(device=chassis.id, name="Fan tray", manufacturer={"slug": "arista"}, part_id="FAN-1")
sub = nb.dcim.inventory_items.create(device=chassis.id, parent=item.id, name="Fan 1")
print("inventory", [(str(i), i._depth) for i in nb.dcim.inventory_items.filter(device_id=chassis.id)])

secret = nb.extras.secrets.create(name="Py token", provider="environment-variable", parameters={"variable": "HOME"})
print("check", secret.slug, dict(nb.http_session.get(f"{nb.base_url}/extras/secrets/{secret.id}/check/", headers={"Authorization": f"Token {nb.token}"}).json()))
group = nb.extras.secrets_groups.create(name="Py creds")
nb.extras.secrets_groups_associations.create(group=group.id, secret=secret.id, access_type="REST", secret_type="token")
print("group secrets", [(s.access_type.value, s.secret_type.value, s.secret.name) for s in nb.extras.secrets_groups.get(group.id).secrets])
try:
    nb.extras.secrets.create(name="Py bad", provider="vault")
except pynautobot.RequestError as e:
    print("refused", e.error)
drg = nb.dcim.device_redundancy_groups.create(name="Py pair", status="planned", failover_strategy="active-passive", secrets_group=group.id)
chassis.device_redundancy_group = drg.id
chassis.device_redundancy_group_priority = 1
print("join", chassis.save(), [str(d) for d in nb.dcim.devices.filter(device_redundancy_group=drg.slug)])

for obj in [blade, chassis, blade_type, chassis_type, drg, group, secret, r1a, r1, north, room, campus]:
    obj.delete()
print("cleaned", nb.dcim.locations.count(q="Py "), nb.extras.secrets.count(q="py"))
