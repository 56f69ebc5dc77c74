#!/usr/bin/env bash
# Runs the Ansible collection's GraphQL clients against this repository's server: the
# `gql_inventory` inventory plugin (`ansible-inventory --list`, its default query and one with
# filters, nested reverse lists and group_by) and a playbook using the `query_graphql` module
# and the `lookup_graphql` lookup (both through pynautobot's `nb.graphql.query()`), then checks
# what they got. Prints each check and
# exits non-zero when one fails.
#
#   test/clients/run-graphql.sh
#
# The server is `armature run` (the demo data loaded, beside which the script makes its own) on embedded PGlite in a scratch DATA_DIR (or PostgreSQL when
# DATABASE_URL is set), on a free port. Environment:
#   NAUTOBOT_ANSIBLE_SRC  networktocode.nautobot at tag v4.5.1   (/work/clients/nautobot-ansible)
#   PYNAUTOBOT_SRC        pynautobot at tag v1.5.5               (/work/clients/pynautobot)
#   NETUTILS_PATH         a folder holding the `netutils` package gql_inventory imports (its
#                         lib_mapper only); Debian has none: e.g. `git archive v1.9.1 netutils`
#                         of github.com/networktocode/netutils plus a netutils-1.9.1.dist-info/METADATA
#                         (Name, Version), as pip would install it                (/tmp/g2-pylib)
#   PYTHON                a Python with ansible-core, requests, packaging, yaml   (/usr/bin/python3)
#   KEEP_WORK=1           keep the scratch directory (server log, inventory, outputs) and print it
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
NAUTOBOT_ANSIBLE_SRC="${NAUTOBOT_ANSIBLE_SRC:-/work/clients/nautobot-ansible}"
PYNAUTOBOT_SRC="${PYNAUTOBOT_SRC:-/work/clients/pynautobot}"
NETUTILS_PATH="${NETUTILS_PATH:-/tmp/g2-pylib}"
PYTHON="${PYTHON:-/usr/bin/python3}"

work="$(mktemp -d "${TMPDIR:-/tmp}/armature-graphql.XXXXXX")"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; fi
  if [[ "${KEEP_WORK:-}" == 1 ]]; then echo "scratch directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
(cd "$root" && DATA_DIR="$work/data" ADMIN_PASSWORD=admin LOG_REQUESTS=0 QUEUE_WORKER=0 exec node --import tsx bin/armature.ts run --port "$port") \
  >"$work/server.log" 2>&1 &
server_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 480); do
  curl -sf -o /dev/null "$url/api/" && break
  kill -0 "$server_pid" 2>/dev/null || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.5
done
token="$(curl -sf -X POST -H 'Content-Type: application/json' -H 'Accept: application/json' \
  -u admin:admin "$url/api/users/tokens/" -d '{"description": "run-graphql"}' | "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["key"])')"
[[ -n "$token" ]] || { echo "no token" >&2; exit 1; }
export NAUTOBOT_URL="$url" NAUTOBOT_TOKEN="$token"
echo "== server $url (log: $work/server.log)"

# The data the checks expect, made through the REST API.
"$PYTHON" - <<'EOF' || exit 1
import json, os, urllib.request
url, token = os.environ["NAUTOBOT_URL"], os.environ["NAUTOBOT_TOKEN"]
def call(method, path, body=None):
    req = urllib.request.Request(url + "/api/" + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
site = call("POST", "dcim/sites/", {"name": "GQL Site", "slug": "gql-site", "status": "active"})
maker = call("POST", "dcim/manufacturers/", {"name": "GQL Maker", "slug": "gql-maker"})
dtype = call("POST", "dcim/device-types/", {"manufacturer": maker["id"], "model": "GQL 9000", "slug": "gql-9000"})
role = call("POST", "dcim/device-roles/", {"name": "GQL Leaf", "slug": "gql-leaf"})
platform = call("POST", "dcim/platforms/", {"name": "GQL IOS", "slug": "gql-ios", "napalm_driver": "ios"})
tag = call("POST", "extras/tags/", {"name": "gql-tag", "slug": "gql-tag", "color": "00ff00"})
for n in (1, 2):
    dev = call("POST", "dcim/devices/", {"name": f"gql-dev{n}", "device_type": dtype["id"], "device_role": role["id"], "site": site["id"],
                                         "platform": platform["id"], "status": "active", "tags": [tag["id"]] if n == 1 else []})
    iface = call("POST", "dcim/interfaces/", {"device": dev["id"], "name": "Ethernet1", "type": "1000base-t"})
    call("POST", "dcim/interfaces/", {"device": dev["id"], "name": "Loopback0", "type": "virtual"})
    ip = call("POST", "ipam/ip-addresses/", {"address": f"192.0.2.{n}/24", "status": "active",
                                              "assigned_object_type": "dcim.interface", "assigned_object_id": iface["id"]})
    call("PATCH", f"dcim/devices/{dev['id']}/", {"primary_ip4": ip["id"]})
ctype = call("POST", "virtualization/cluster-types/", {"name": "GQL CT", "slug": "gql-ct"})
cluster = call("POST", "virtualization/clusters/", {"name": "GQL Cluster", "type": ctype["id"], "site": site["id"]})
call("POST", "virtualization/virtual-machines/", {"name": "gql-vm1", "cluster": cluster["id"], "status": "active", "platform": platform["id"]})
EOF

# The collection as `ansible-galaxy collection install` lays it out, first on the search path
# (ahead of any copy a distribution's `ansible` package bundles).
coll="$work/collections/ansible_collections/networktocode/nautobot"
mkdir -p "$coll"
tar -C "$NAUTOBOT_ANSIBLE_SRC" --exclude=.git --exclude=tests -cf - . | tar -C "$coll" -xf -
export ANSIBLE_COLLECTIONS_PATH="$work/collections" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
  ANSIBLE_INVENTORY_ENABLED=networktocode.nautobot.gql_inventory ANSIBLE_LOCALHOST_WARNING=0 \
  PYTHONPATH="$PYNAUTOBOT_SRC:$NETUTILS_PATH" PYTHONDONTWRITEBYTECODE=1

failures=0
check() {  # name, python assertion over `data` (the JSON file given)
  local name="$1" file="$2" code="$3"
  if "$PYTHON" -c "import json, sys; data = json.load(open(sys.argv[1])); $code" "$file" 2>"$work/check.err"; then
    echo "-- $name: ok"
  else
    failures=$((failures + 1)); echo "-- $name: FAILED"; sed 's/^/     /' "$work/check.err" | tail -5
  fi
}

cat >"$work/default.gql.yml" <<EOF
plugin: networktocode.nautobot.gql_inventory
api_endpoint: $url
token: $token
EOF
if ansible-inventory -i "$work/default.gql.yml" --list >"$work/default.json" 2>"$work/default.err"; then
  check "gql_inventory default query" "$work/default.json" '
hv = data["_meta"]["hostvars"]
assert {"gql-dev1", "gql-dev2", "gql-vm1"} <= set(hv), sorted(hv)
assert hv["gql-dev1"]["ansible_host"] == "192.0.2.1", hv["gql-dev1"]
assert hv["gql-dev1"]["primary_ip4"] == {"host": "192.0.2.1"}, hv["gql-dev1"]
assert hv["gql-dev1"]["ansible_network_os"] == "cisco.ios.ios", hv["gql-dev1"]
assert hv["gql-vm1"]["ansible_host"] == "gql-vm1", hv["gql-vm1"]
assert hv["gql-vm1"]["platform"] == {"name": "GQL IOS"}, hv["gql-vm1"]'
else
  failures=$((failures + 1)); echo "-- gql_inventory default query: FAILED"; tail -5 "$work/default.err" | sed 's/^/     /'
fi

cat >"$work/grouped.gql.yml" <<EOF
plugin: networktocode.nautobot.gql_inventory
api_endpoint: $url
token: $token
query:
  devices:
    filters:
      name__ic: dev
    tags: slug
    status: slug
    site:
      name:
      region: name
    interfaces:
      filters:
        name__ic: ethernet
      name:
      ip_addresses: address
  virtual_machines:
    filters:
      name: EXCLUDE ALL
group_by:
  - site.name
  - status.slug
  - tags.slug
EOF
if ansible-inventory -i "$work/grouped.gql.yml" --list >"$work/grouped.json" 2>"$work/grouped.err"; then
  check "gql_inventory with filters, nested lists and group_by" "$work/grouped.json" '
hv = data["_meta"]["hostvars"]
assert sorted(hv) == ["gql-dev1", "gql-dev2"], sorted(hv)
assert hv["gql-dev2"]["interfaces"] == [{"name": "Ethernet1", "ip_addresses": [{"address": "192.0.2.2/24"}]}], hv["gql-dev2"]
assert hv["gql-dev1"]["site"] == {"name": "GQL Site", "region": None}, hv["gql-dev1"]
assert sorted(data["GQL Site"]["hosts"]) == ["gql-dev1", "gql-dev2"], data.get("GQL Site")
assert sorted(data["active"]["hosts"]) == ["gql-dev1", "gql-dev2"], data.get("active")
assert data["tags_gql-tag"]["hosts"] == ["gql-dev1"], data.get("tags_gql-tag")'
else
  failures=$((failures + 1)); echo "-- gql_inventory with filters, nested lists and group_by: FAILED"; tail -5 "$work/grouped.err" | sed 's/^/     /'
fi

cat >"$work/query.yml" <<EOF
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: A query with variables, as the module's examples make it
      networktocode.nautobot.query_graphql:
        url: "$url"
        token: "$token"
        validate_certs: false
        query: |
          query (\$site: [String]) {
            sites(slug: \$site) { name devices { name interfaces(name: "Ethernet1") { name ip_addresses { address host } } } }
          }
        graph_variables:
          site: ["gql-site"]
        update_hostvars: true
      register: result
    - name: Its answer, and the hostvars update_hostvars made of it
      ansible.builtin.copy:
        dest: "$work/query-out.json"
        content: "{{ {'data': result.data, 'sites': sites} | to_json }}"
    - name: The same through the lookup_graphql lookup plugin
      ansible.builtin.copy:
        dest: "$work/lookup-out.json"
        content: "{{ query('networktocode.nautobot.lookup_graphql', lookup_query, graph_variables={'name': 'gql-dev1'}, url='$url', token='$token') | to_json }}"
      vars:
        lookup_query: |
          query (\$name: [String]) { devices(name: \$name) { name primary_ip4 { host prefix_length } tags { slug } } }
    - name: A query Nautobot refuses fails the task
      networktocode.nautobot.query_graphql:
        url: "$url"
        token: "$token"
        query: "{ devices { no_such_field } }"
      register: refused
      ignore_errors: true
    - name: The refusal
      ansible.builtin.copy:
        dest: "$work/query-refused.json"
        content: "{{ refused | to_json }}"
EOF
if (cd "$work" && ansible-playbook -i localhost, "$work/query.yml") >"$work/playbook.log" 2>&1; then
  check "query_graphql playbook" "$work/query-out.json" '
want = [{"name": "GQL Site", "devices": [{"name": f"gql-dev{n}", "interfaces": [{"name": "Ethernet1", "ip_addresses": [{"address": f"192.0.2.{n}/24", "host": f"192.0.2.{n}"}]}]} for n in (1, 2)]}]
assert data["data"] == {"sites": want}, data["data"]
assert data["sites"] == want, data["sites"]'
  check "lookup_graphql lookup" "$work/lookup-out.json" '
assert data == [{"data": {"devices": [{"name": "gql-dev1", "primary_ip4": {"host": "192.0.2.1", "prefix_length": 24}, "tags": [{"slug": "gql-tag"}]}]}}], data'
  check "query_graphql refusal" "$work/query-refused.json" '
assert data.get("failed") is True, data
assert "no_such_field" in json.dumps(data), data'
else
  failures=$((failures + 1)); echo "-- query_graphql playbook: FAILED"; grep -E "^(fatal|TASK)" -A3 "$work/playbook.log" | tail -12 | cut -c1-400 | sed 's/^/     /'
fi

echo
if [[ $failures == 0 ]]; then echo "== all GraphQL client checks passed"; else echo "== $failures GraphQL client check(s) failed"; fi
[[ $failures == 0 ]]
