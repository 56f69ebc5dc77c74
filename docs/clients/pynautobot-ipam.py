# pynautobot 1.5.5 against IPAM allocation and assignment: lists and allocates free addresses
# (one and a list) and prefixes in a new prefix, assigns an address to a demo device's
# interface and makes it the device's primary IPv4, filters addresses by device, reads VLANs
# and a demo virtual machine's config context, and deletes what it made.
import os
import pynautobot

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")
vrf = nb.ipam.vrfs.create(name="pyn-vrf")
p = nb.ipam.prefixes.create(prefix="10.250.0.0/24", status="active", vrf=vrf.id)
free = p.available_ips.list()
print("first free:", free[0].address, len(free))
one = p.available_ips.create({"status": "active", "description": "pyn"})
print("allocated:", one.address, one.vrf.name)
many = p.available_ips.create([{"status": "active"}, {"status": "active"}])
print("allocated list:", [x.address for x in many])
cont = nb.ipam.prefixes.create(prefix="10.251.0.0/16", status="container", vrf=vrf.id)
child = cont.available_prefixes.create({"prefix_length": 24, "status": "active"})
print("child prefix:", child.prefix, [x.prefix for x in cont.available_prefixes.list()][:3])
dev = nb.dcim.devices.filter(name__ic="edge")[0]
iface = nb.dcim.interfaces.filter(device_id=dev.id)[0]
ip = nb.ipam.ip_addresses.get(one.id)
ip.assigned_object_type = "dcim.interface"
ip.assigned_object_id = iface.id
ip.save()
ip = nb.ipam.ip_addresses.get(one.id)
print("assigned:", ip.assigned_object.name, ip.assigned_object.device.name)
dev.primary_ip4 = ip.id
dev.save()
print("primary:", nb.dcim.devices.get(dev.id).primary_ip4.address)
print("by device:", [x.address for x in nb.ipam.ip_addresses.filter(device_id=dev.id)])
print("vlans:", len(list(nb.ipam.vlans.all())))
vm = list(nb.virtualization.virtual_machines.all())[0]
print("vm:", vm.name, vm.config_context)
dev.primary_ip4 = None
dev.save()
for obj in [ip, *many, child, cont, p, vrf]:
    obj.delete()
print("cleaned")
