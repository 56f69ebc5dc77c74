# pynautobot 1.5.5 against IPAM services: a service on a demo device with ports written as
# numbers and as text, another on a demo virtual machine tied to an address, filters by
# Nautobot's names (port, device, virtual_machine, protocol, q), an update of ports and
# addresses through save(), a refused service on both parents, and deletes what it made.
import os
import pynautobot

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")
dev = nb.dcim.devices.get(name="ber1-leaf1")
vm = nb.virtualization.virtual_machines.get(name="ber1-app2")
ip = nb.ipam.ip_addresses.create(address="10.77.41.1/24", status="active")
web = nb.ipam.services.create(device=dev.id, name="pyn-web", protocol="tcp", ports=[80, "443"])
print("created:", web.display, web.ports, web.protocol.value)
dns = nb.ipam.services.create(virtual_machine=vm.id, name="pyn-dns", protocol="udp", ports=[53], ipaddresses=[ip.id])
print("on a vm:", dns.display, dns.virtual_machine.name, [a.address for a in dns.ipaddresses])
print("port=443:", [s.name for s in nb.ipam.services.filter(port=443)])
print("device:", sorted(s.name for s in nb.ipam.services.filter(device=dev.name)))
print("virtual_machine_id:", [s.name for s in nb.ipam.services.filter(virtual_machine_id=vm.id)])
print("udp, q=pyn:", [s.name for s in nb.ipam.services.filter(protocol="udp", q="pyn")])
web.ports = [8080, 8081, 8082]
web.ipaddresses = [ip.id]
web.description = "moved"
web.save()
web = nb.ipam.services.get(web.id)
print("updated:", web.display, [a.address for a in web.ipaddresses], web.description)
try:
    nb.ipam.services.create(device=dev.id, virtual_machine=vm.id, name="pyn-both", protocol="tcp", ports=[1])
except pynautobot.RequestError as e:
    print("refused:", e.error)
for obj in [web, dns, ip]:
    obj.delete()
print("cleaned")
