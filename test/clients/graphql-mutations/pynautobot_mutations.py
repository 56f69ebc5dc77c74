"""GraphQL mutations sent with pynautobot's `nb.graphql.query()`, as a user of it would.

Environment: NAUTOBOT_URL, NAUTOBOT_TOKEN, PREFIX (names this run's objects). Prints one line
per check and exits non-zero when one fails. Needs pynautobot (v1.5.5) on PYTHONPATH.
"""
import os
import sys

import pynautobot
from pynautobot.core.graphql import GraphQLException

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"])
prefix = os.environ["PREFIX"]
failures = 0


def check(name, ok, detail=""):
    global failures
    print(f"-- {name}: {'ok' if ok else 'FAILED ' + str(detail)}")
    if not ok:
        failures += 1


made = nb.graphql.query(
    query="mutation ($input: SiteInput!) { create_site(input: $input) { id name status { slug } } }",
    variables={"input": {"name": f"{prefix}-one", "status": "active", "description": "from pynautobot"}},
)
site = made.json["data"]["create_site"]
check("create_site", made.status_code == 200 and site["name"] == f"{prefix}-one" and site["status"] == {"slug": "active"}, made.json)
check("REST sees it", nb.dcim.sites.get(site["id"]).description == "from pynautobot")

bulk = nb.graphql.query(
    query="mutation ($input: [SiteInput!]!) { create_sites(input: $input) { id name } }",
    variables={"input": [{"name": f"{prefix}-b{n}", "status": "planned"} for n in (1, 2)]},
)
ids = [s["id"] for s in bulk.json["data"]["create_sites"]]
check("create_sites", [s["name"] for s in bulk.json["data"]["create_sites"]] == [f"{prefix}-b1", f"{prefix}-b2"], bulk.json)

changed = nb.graphql.query(
    query='mutation ($id: ID!) { update_site(id: $id, input: {status: "active", tenant: null}) { status { slug } } }',
    variables={"id": ids[0]},
)
check("update_site", changed.json["data"]["update_site"] == {"status": {"slug": "active"}}, changed.json)

try:
    nb.graphql.query(query='mutation { a: create_site(input: {name: "%s-x", status: "active"}) { id } b: create_site(input: {name: "%s-y"}) { id } }' % (prefix, prefix))
    check("a refused mutation raises GraphQLException", False, "no exception")
except GraphQLException as err:
    body = err.args[0].response.json()
    check("a refused mutation raises GraphQLException", body["errors"][0]["extensions"]["errors"] == {"status": ["This field is required."]}, body)
check("nothing of a refused document written", len(nb.dcim.sites.filter(name=f"{prefix}-x")) == 0)

gone = nb.graphql.query(query="mutation ($ids: [ID!]!) { delete_sites(ids: $ids) }", variables={"ids": ids})
check("delete_sites", gone.json["data"]["delete_sites"] == ids and len(nb.dcim.sites.filter(id=ids)) == 0, gone.json)

sys.exit(1 if failures else 0)
