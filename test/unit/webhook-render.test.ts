// The parts of a webhook delivery made without I/O, against what Nautobot 1.5 makes:
// snapshots and their shallow differences (ObjectChange.get_snapshots, shallow_compare_dict),
// Python's str() of the timestamp and json.dumps spacing, the additional headers, the signature.
import { expect } from "chai";
import { createHmac } from "node:crypto";
import { pythonJson, pythonTimestamp, renderDelivery, renderHeaders, signature, snapshots, type WebhookDefinition } from "../../runtime/features/webhooks/render.js";

describe("unit: webhook rendering", () => {
  it("snapshots: a create adds everything, a delete removes everything, an update differs shallowly without last_updated", () => {
    const post = { id: "1", name: "a", tags: [{ name: "x" }], last_updated: "t2" };
    expect(snapshots(null, post)).to.deep.equal({ prechange: null, postchange: post, differences: { removed: null, added: post } });
    expect(snapshots(post, null)).to.deep.equal({ prechange: post, postchange: null, differences: { removed: post, added: null } });
    const pre = { id: "1", name: "b", tags: [{ name: "x" }], last_updated: "t1", gone: 5 };
    expect(snapshots(pre, { ...post, extra: null, more: 1 }).differences).to.deep.equal({ removed: { name: "b", more: null }, added: { name: "a", more: 1 } });
    expect(snapshots(pre, { ...pre, tags: [{ name: "y" }] }).differences).to.deep.equal({ removed: { tags: [{ name: "x" }] }, added: { tags: [{ name: "y" }] } });
    expect(snapshots(pre, { ...pre, last_updated: "t3" }).differences).to.deep.equal({ removed: {}, added: {} });
    // An empty snapshot counts as none, as an empty dict is false in Python.
    expect(snapshots({}, post).differences).to.deep.equal({ removed: null, added: post });
  });

  it("timestamps read as Python's str() of an aware datetime", () => {
    expect(pythonTimestamp(new Date("2024-05-01T10:20:30.007Z"))).to.equal("2024-05-01 10:20:30.007000+00:00");
    expect(pythonTimestamp(new Date("2024-05-01T10:20:30.000Z"))).to.equal("2024-05-01 10:20:30+00:00");
  });

  it("the default body is spaced as json.dumps spaces it, non-ASCII text as is", () => {
    expect(pythonJson({ a: [1, 2.5, true, null, "é\n\"✓\""], b: {}, c: [], d: { e: undefined, f: "x" } }))
      .to.equal(`{"a": [1, 2.5, true, null, "é\\n\\"✓\\""], "b": {}, "c": [], "d": {"f": "x"}}`);
  });

  it("additional headers: rendered, one per line, split at the first colon, blank lines skipped, later ones replacing earlier of any case", () => {
    expect(renderHeaders("X-Event: {{ event }}\r\n\n  X-Url : http://h:1/p \nx-event: again", { event: "created" }))
      .to.deep.equal({ ok: true, headers: [["x-event", "again"], ["X-Url", "http://h:1/p"]] });
    expect(renderHeaders("just text", {})).to.deep.equal({ ok: false, error: '"just text" is not a header line (Name: value).' });
    expect(renderHeaders("Bad Name: x", {})).to.deep.equal({ ok: false, error: '"Bad Name" is not a valid header name.' });
    expect(renderHeaders("X-Euro: €", {})).to.deep.equal({ ok: false, error: 'The value of header "X-Euro" holds characters HTTP does not allow.' });
    expect(renderHeaders("{% if %}", {}).ok).to.equal(false);
  });

  it("a delivery carries the content type, the headers, the body and its signature, never the secret", () => {
    const webhook: WebhookDefinition = {
      id: "w1", name: "hook", payload_url: "http://example.test/", http_method: "PATCH", http_content_type: "application/json",
      additional_headers: "Content-Type: text/plain\nX-Hook-Signature: forged", body_template: "{{ model }}/{{ request_id }}", secret: "k",
      ssl_verification: false, ca_file_path: "",
    };
    const change = { event: "deleted", model: "site", timestamp: "t", username: "u", request_id: "r1", data: null, snapshots: snapshots({ id: "1" }, null) };
    const d = renderDelivery(webhook, change, "deleted dcim.site 1");
    expect(d).to.deep.equal({
      webhook: { id: "w1", name: "hook" }, about: "deleted dcim.site 1", requestId: "r1", url: "http://example.test/", method: "PATCH",
      headers: [["Content-Type", "text/plain"], ["X-Hook-Signature", createHmac("sha512", "k").update("site/r1").digest("hex")]],
      body: "site/r1", sslVerification: false, caFilePath: null,
    });
    expect(signature("site/r1", "k")).to.equal(d.headers[1][1]);
    expect(JSON.stringify(d)).to.not.include('"k"');
  });
});
