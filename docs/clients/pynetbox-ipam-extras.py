# pynetbox 7 (Debian's python3-pynetbox) against the inventory API: the IPAM registries, a route
# target made, changed through save() and deleted, a VRF's targets, services by port, VLANs,
# virtualization, and the run-time definitions of extras (custom fields, content types,
# relationships, computed fields, notes). Needs the demo data of `make run`.
import os, pynetbox
nb = pynetbox.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"])
print("rirs", [r.name for r in nb.ipam.rirs.all()])
agg = nb.ipam.aggregates.get(prefix="192.168.0.0/16"); print("agg", agg.prefix, agg.rir.name)
rt = nb.ipam.route_targets.create(name="65099:7", description="pynetbox"); print("rt", rt.id, rt.name)
rt.description = "changed"; print("save", rt.save()); print(nb.ipam.route_targets.get(rt.id).description)
vrf = nb.ipam.vrfs.get(rd="64512:1"); print("vrf targets", [t.name for t in vrf.import_targets])
svc = nb.ipam.services.filter(port=22); print("svc", [(s.name, s.ports) for s in svc])
print("vlans", nb.ipam.vlans.count(), "groups", nb.ipam.vlan_groups.count())
print("clusters", [c.name for c in nb.virtualization.clusters.all()], nb.virtualization.cluster_types.count(), nb.virtualization.cluster_groups.count())
vm = list(nb.virtualization.virtual_machines.all())[0]; print("vm", vm.name, vm.cluster.name, type(vm.config_context).__name__)
print("vm ifaces", nb.virtualization.interfaces.count())
cf = nb.extras.custom_fields.all(); print("cfs", [c.name for c in cf])
print("ct", nb.extras.content_types.get(app_label="dcim", model="device").display)
print("rels", [r.slug for r in nb.extras.relationships.all()], nb.extras.relationship_associations.count())
print("computed", [c.slug for c in nb.extras.computed_fields.all()], "notes", nb.extras.notes.count())
print("delete", rt.delete())
