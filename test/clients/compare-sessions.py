#!/usr/bin/env python3
"""Compares two sets of recorded client sessions (test/clients/record-sessions.sh), answer by
answer, for changes that should leave every answer as it was: each exchange's status, headers
and body must be equal once what differs by run alone is set aside. UUIDs become #1, #2, … in
the order a session first shows them, ports, times, dates and request ids become placeholders;
a page's results may come in another order where the order rests on random ids.

    test/clients/compare-sessions.py OLD_DIR NEW_DIR

Exits 1 and prints the first difference of each session that differs."""
import json
import re
import sys
from pathlib import Path

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
PORT = re.compile(r"127\.0\.0\.1:\d+")
TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?")
DATE = re.compile(r"\b\d{4}-\d\d-\d\d\b")
# A note's slug made from the time (slugify of an isoformat): site-2026-11-26t121902469161.
SLUG_TIME = re.compile(r"\d{4}-\d\d-\d\dt\d{6,}")
TOKEN = re.compile(r"\b[0-9a-f]{40}\b")
VOLATILE_HEADERS = {"x-request-id", "date", "etag", "last-modified", "content-length", "x-wp-total", "x-wp-totalpages"}


def normalizer():
    seen = {}

    def uuid(m):
        key = m.group(0).lower()
        seen.setdefault(key, f"#{len(seen) + 1}")
        return seen[key]

    def text(s):
        s = UUID.sub(uuid, s)
        s = PORT.sub("HOST", s)
        s = SLUG_TIME.sub("SLUGTIME", s)
        s = TIME.sub("TIME", s)
        s = DATE.sub("DATE", s)
        return TOKEN.sub("TOKEN", s)

    def value(v):
        if isinstance(v, str):
            return text(v)
        if isinstance(v, list):
            return [value(x) for x in v]
        if isinstance(v, dict):
            return {text(k): value(x) for k, x in v.items()}
        return v

    return text, value


def exchanges(path):
    text, value = normalizer()
    out = []
    for x in json.loads(path.read_text())["exchanges"]:
        r = x["response"]
        headers = {k: value(v) for k, v in r.get("headers", {}).items() if k.lower() not in VOLATILE_HEADERS}
        out.append({"request": f"{x['method']} {text(x['path'])}", "status": r["status"], "headers": headers, "body": value(r.get("body"))})
    return out


def unordered(exchange):
    """The exchange with a page's results in a fixed order, ids aside: objects that sort alike
    (notes of one day, ordered by their date) or by a related object's random id (racks by
    site) come in an order that differs by run, and so do the numbers their ids get."""
    body = exchange["body"]
    if isinstance(body, dict) and isinstance(body.get("results"), list):
        results = sorted(re.sub(r"#\d+", "#", json.dumps(r, sort_keys=True)) for r in body["results"])
        body = {**body, "results": results}
    return {**exchange, "body": body}


def main(old_dir, new_dir):
    failed = False
    compared = 0
    for old in sorted(Path(old_dir).glob("*.json")):
        new = Path(new_dir) / old.name
        if not new.exists():
            print(f"{old.name}: missing in {new_dir}")
            failed = True
            continue
        a, b = exchanges(old), exchanges(new)
        if len(a) != len(b):
            print(f"{old.name}: {len(a)} exchanges, now {len(b)}")
            failed = True
            continue
        for n, (x, y) in enumerate(zip(a, b)):
            if x != y and unordered(x) != unordered(y):
                print(f"{old.name} #{n} {x['request']}:\n  was {json.dumps(x)[:600]}\n  now {json.dumps(y)[:600]}")
                failed = True
                break
        compared += len(a)
    print(f"{compared} exchanges compared" + (", differences above" if failed else ", all equal"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
