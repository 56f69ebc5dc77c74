# pynautobot 1.5.5 against the cabling and circuits slices: reads the demo's paths, cables a
# new device through the demo patch panels' second position, traces it, reads a rack
# elevation, makes a circuit with its terminations, and deletes what it made.
import os
import pynautobot

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")

edge = nb.dcim.interfaces.get(device="ber1-edge1", name="et-0/0/0")
print("edge1 peer", edge.cable_peer_type, edge.cable_peer.name, "connected", edge.connected_endpoint.device.name, edge.connected_endpoint.name, edge.connected_endpoint_reachable)
for near, cable, far in edge.trace():
    print("  hop", near.display, "|", cable.label if cable else None, "|", far.display if far else None)
print("cables at ber1-pp-a01", sorted(str(c) for c in nb.dcim.cables.filter(device="ber1-pp-a01")))

leaf2 = nb.dcim.devices.create(name="ber1-leaf2", device_type={"slug": "dcs-7050sx3"}, device_role={"slug": "leaf-switch"}, site={"slug": "berlin-dc1"}, status="active")
edge1_2 = nb.dcim.interfaces.get(device="ber1-edge1", name="et-0/0/1")
leaf2_1 = nb.dcim.interfaces.get(device="ber1-leaf2", name="Ethernet1")
front_a = nb.dcim.front_ports.get(device="ber1-pp-a01", name="Port 2")
front_b = nb.dcim.front_ports.get(device="ber1-pp-a02", name="Port 2")
c1 = nb.dcim.cables.create(termination_a_type="dcim.interface", termination_a_id=edge1_2.id, termination_b_type="dcim.frontport", termination_b_id=front_a.id, status="connected", label="BER1-0003")
c2 = nb.dcim.cables.create(termination_a_type="dcim.frontport", termination_a_id=front_b.id, termination_b_type="dcim.interface", termination_b_id=leaf2_1.id, status="planned")
print("cables", c1, "/", c2, c2.status)
edge1_2 = nb.dcim.interfaces.get(edge1_2.id)
print("edge1 et-0/0/1 →", edge1_2.connected_endpoint.device.name, edge1_2.connected_endpoint.name, "reachable", edge1_2.connected_endpoint_reachable)
c2.status = "connected"
print("save", c2.save(), nb.dcim.interfaces.get(edge1_2.id).connected_endpoint_reachable)
print("hops", len(edge1_2.trace()))
try:
    nb.dcim.cables.create(termination_a_type="dcim.interface", termination_a_id=edge1_2.id, termination_b_type="dcim.interface", termination_b_id=leaf2_1.id, status="connected")
except pynautobot.RequestError as e:
    print("refused", e.error)

rack = nb.dcim.racks.get(name="A01")
units = list(rack.elevation.list())
print("elevation", len(units), [(u.name, u.device.name) for u in units if u.device])

provider = nb.circuits.providers.get(slug="telia-carrier")
ctype = nb.circuits.circuit_types.create(name="Dark Fiber")
circuit = nb.circuits.circuits.create(cid="TC-DF-1", provider=provider.id, type=ctype.id, status="planned")
a = nb.circuits.circuit_terminations.create(circuit=circuit.id, term_side="A", site={"slug": "berlin-dc1"}, port_speed=10000000)
z = nb.circuits.circuit_terminations.create(circuit=circuit.id, term_side="Z", provider_network={"slug": "telia-ip-transit"})
circuit = nb.circuits.circuits.get(circuit.id)
print("circuit", circuit.cid, circuit.termination_a.site.name, circuit.termination_z.provider_network.name, [t.term_side for t in nb.circuits.circuit_terminations.filter(circuit_id=circuit.id)])
print("delete", circuit.delete(), ctype.delete(), c1.delete(), leaf2.delete())
print("edge1 et-0/0/1 after", nb.dcim.interfaces.get(edge1_2.id).cable)
