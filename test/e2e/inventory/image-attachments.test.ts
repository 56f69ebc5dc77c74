// Image attachments over HTTP: an image uploaded as multipart/form-data for a site, rack,
// location or device (Nautobot 1.5's fields, its parent check and its file naming), its size
// read from the header, kept in the media folder and served back at its URL; the size and type
// limits and every other refusal a clear 400 that stores nothing; the file removed once the
// attachment (or its parent) is deleted.
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { media } from "../../../runtime/media/index.js";
import { apis } from "../../../generated/server.js";
import { Contract } from "../../support/contract.js";
import { rows, uniq, MISSING_ID } from "./support.js";

const ATTACHMENTS = "/api/extras/image-attachments/";

/** A PNG of `width`×`height` grey pixels. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const raw = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** A GIF's header and logical screen: what a reader takes its size from. */
function gif(width: number, height: number): Buffer {
  const b = Buffer.from("GIF89a\0\0\0\0\0\0\0;", "latin1");
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

/** A JPEG with a start-of-frame segment giving its size. */
function jpeg(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1"), sof, Buffer.from([0xff, 0xd9])]);
}

/** A BMP's header: an image type this server does not take. */
function bmp(width: number, height: number): Buffer {
  const b = Buffer.alloc(54);
  b.write("BM", 0, "latin1");
  b.writeUInt32LE(54, 2);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  return b;
}

interface Reply { status: number; headers: Headers; body: any; text: string }

/** Sends `fields` as multipart/form-data (a Buffer as a file part named by `filename`). */
async function upload(method: string, path: string, fields: Record<string, string | Buffer>, filename = "image.png", token?: string | null): Promise<Reply> {
  const server = await startTestServer();
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === "string") form.append(k, v);
    else form.append(k, new Blob([new Uint8Array(v)]), filename);
  }
  const headers: Record<string, string> = {};
  const key = token === undefined ? server.token : token;
  if (key) headers.Authorization = `Token ${key}`;
  const res = await fetch(`${server.url}${path}`, { method, body: form, headers });
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, body, text };
}

const onDisk = async (name: string) => readFile(join(media().root, name)).then((b) => b, () => null);
const files = async () => readdir(join(media().root, "image-attachments")).catch(() => [] as string[]);

/** Waits (generously) until the file `name` is gone: it is removed once the delete commits. */
async function gone(name: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if ((await onDisk(name)) === null) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** The attachment's file name under the media folder, from its URL. */
const nameOf = (image: string) => decodeURIComponent(new URL(image).pathname.replace(/^\/media\//, ""));

describe("inventory e2e: image attachments", () => {
  const tag = uniq("img").toLowerCase();
  let site: { id: string; slug: string };

  before(async () => {
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
  });

  it("uploads an image for a site, named as Nautobot names it, and serves it back", async () => {
    const server = await startTestServer();
    const image = png(12, 7);
    const made = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: "floor", image }, "Plan.PNG");
    expect(made.status, made.text).to.equal(201);
    expect(Object.keys(made.body)).to.deep.equal(["id", "display", "url", "content_type", "object_id", "parent", "name", "image", "image_height", "image_width", "created"]);
    expect(made.body).to.deep.include({ display: "floor", content_type: "dcim.site", object_id: site.id, name: "floor", image_height: 7, image_width: 12 });
    expect(made.body.parent).to.deep.include({ id: site.id, slug: site.slug });
    expect(made.body.image).to.equal(`${server.url}/media/image-attachments/site_${site.id}_floor.png`);
    expect(await onDisk(nameOf(made.body.image))).to.deep.equal(image);
    const served = await fetch(made.body.image);
    expect(served.status).to.equal(200);
    expect(served.headers.get("content-type")).to.equal("image/png");
    expect(Buffer.from(await served.arrayBuffer())).to.deep.equal(image);
    // As the emitted document says (the default version's).
    const inventory = apis.find((a) => a.name === "inventory")!;
    const contract = new Contract(inventory.openapi[inventory.versions.default] as Record<string, any>, "inventory.json");
    contract.check("post", ATTACHMENTS, made);
    contract.check("get", `${ATTACHMENTS}{id}/`, await get(`${ATTACHMENTS}${made.body.id}/`));
    contract.check("get", ATTACHMENTS, await get(`${ATTACHMENTS}?object_id=${site.id}`));
    expect((await get(`${ATTACHMENTS}${made.body.id}/`)).body).to.deep.equal(made.body);
    expect((await get(`${ATTACHMENTS}${made.body.id}/?brief=1`)).body).to.have.all.keys("id", "url", "display", "name", "image");
  });

  it("takes PNG, JPEG and GIF, reads their size, and keeps files of one name apart", async () => {
    const a = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, image: jpeg(640, 480) }, "my photo.jpg");
    expect(a.status, a.text).to.equal(201);
    expect(a.body).to.deep.include({ name: "", image_width: 640, image_height: 480 });
    expect(nameOf(a.body.image)).to.equal(`image-attachments/site_${site.id}_my_photo.jpg`);
    const b = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, image: jpeg(10, 20) }, "my photo.jpg");
    expect(b.status, b.text).to.equal(201);
    expect(nameOf(b.body.image)).to.match(new RegExp(`^image-attachments/site_${site.id}_my_photo_[A-Za-z0-9]{7}\\.jpg$`));
    expect((await onDisk(nameOf(a.body.image)))!.length).to.equal(jpeg(640, 480).length);
    const c = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-gif`, image: gif(3, 4) }, "x.gif");
    expect(c.body).to.deep.include({ image_width: 3, image_height: 4 });
  });

  it("refuses what it cannot take with a clear 400, storing no row and no file", async () => {
    const before = (await files()).length;
    const base = { content_type: "dcim.site", object_id: site.id, name: `${tag}-bad` };
    const cases: Array<[Record<string, string | Buffer>, string, unknown]> = [
      [{ ...base, image: Buffer.from("just text") }, "notes.txt", { image: ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."] }],
      [{ ...base, image: bmp(4, 4) }, "old.bmp", { image: ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."] }],
      [{ ...base, image: Buffer.alloc(0) }, "empty.png", { image: ["The submitted file is empty."] }],
      [{ ...base, image: png(2, 2) }, `${"n".repeat(97)}.png`, { image: ["Ensure this filename has at most 100 characters (it has 101)."] }],
      [{ ...base, image: "not a file" }, "x", { image: ["The submitted data was not a file. Check the encoding type on the form."] }],
      [{ ...base }, "x", { image: ["This field is required."] }],
      [{ ...base, object_id: MISSING_ID, image: png(2, 2) }, "x.png", { non_field_errors: [`Invalid parent object: DCIM | site ID ${MISSING_ID}`] }],
      [{ ...base, content_type: "dcim.interface", image: png(2, 2) }, "x.png", { content_type: ["Invalid content type: dcim.interface"] }],
      [{ ...base, object_id: "nope", image: png(2, 2) }, "x.png", { object_id: ["Must be a valid UUID."] }],
    ];
    for (const [fields, filename, errors] of cases) {
      const res = await upload("POST", ATTACHMENTS, fields, filename);
      expect([res.status, res.body], `${filename} ${Object.keys(fields)}`).to.deep.equal([400, errors]);
    }
    // A JSON body cannot carry a file, as DRF's ImageField says.
    const json = await post(ATTACHMENTS, { ...base, image: "aGVsbG8=" });
    expect([json.status, json.body]).to.deep.equal([400, { image: ["The submitted data was not a file. Check the encoding type on the form."] }]);
    expect(await rows("extras_imageattachment", { name: `${tag}-bad` })).to.equal(0);
    expect((await files()).length).to.equal(before);
  });

  it("enforces the size limit: a larger file is a 400, a larger body a 413", async () => {
    const limit = media().maxBytes;
    const big = Buffer.concat([png(2, 2), Buffer.alloc(limit)]);
    const res = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-big`, image: big }, "big.png");
    expect([res.status, res.body]).to.deep.equal([400, { image: [`The submitted file is larger than the limit of ${limit} bytes.`] }]);
    const huge = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-big`, image: Buffer.alloc(limit + 128 * 1024) }, "huge.png");
    expect(huge.status).to.equal(413);
    expect(huge.body.detail).to.match(/^Request body is larger than the limit of \d+ bytes\.$/);
    expect(await rows("extras_imageattachment", { name: `${tag}-big` })).to.equal(0);
  });

  it("answers malformed multipart bodies with a 400, and keeps multipart to models with images", async () => {
    const server = await startTestServer();
    const bad = await fetch(`${server.url}${ATTACHMENTS}`, {
      method: "POST", body: "garbage", headers: { Authorization: `Token ${server.token}`, "Content-Type": "multipart/form-data" },
    });
    expect(bad.status).to.equal(400);
    expect((await bad.json()).detail).to.match(/^Multipart form parse error - /);
    const sites = await upload("POST", "/api/dcim/sites/", { name: `${tag}-x`, status: "active" });
    expect(sites.status).to.equal(415);
  });

  it("filters as ImageAttachmentFilterSet", async () => {
    const mine = (await get(`${ATTACHMENTS}?object_id=${site.id}`)).body;
    expect(mine.count).to.equal(4);
    const byName = (await get(`${ATTACHMENTS}?name=floor&object_id=${site.id}`)).body.results;
    expect(byName.map((a: { name: string }) => a.name)).to.deep.equal(["floor"]);
    const siteType = (await get("/api/extras/content-types/?app_label=dcim&model=site")).body.results[0];
    expect((await get(`${ATTACHMENTS}?content_type_id=${siteType.id}&object_id=${site.id}`)).body.count).to.equal(4);
    expect((await get(`${ATTACHMENTS}?content_type=dcim.rack&object_id=${site.id}`)).body.count).to.equal(0);
    expect((await get(`${ATTACHMENTS}?image_height=7`)).status).to.equal(400);
  });

  it("renames with PATCH, replaces the image with a new upload and removes the old file", async () => {
    const made = (await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-swap`, image: png(5, 5) }, "a.png")).body;
    const renamed = await patch(`${ATTACHMENTS}${made.id}/`, { name: `${tag}-swapped` });
    expect(renamed.status, renamed.text).to.equal(200);
    expect(renamed.body.image).to.equal(made.image);
    const replaced = await upload("PATCH", `${ATTACHMENTS}${made.id}/`, { image: png(9, 8) }, "b.png");
    expect(replaced.status, replaced.text).to.equal(200);
    expect(replaced.body).to.deep.include({ image_width: 9, image_height: 8 });
    expect(nameOf(replaced.body.image)).to.equal(`image-attachments/site_${site.id}_${tag}-swapped.png`);
    expect(await gone(nameOf(made.image))).to.equal(true);
    expect(await onDisk(nameOf(replaced.body.image))).to.deep.equal(png(9, 8));
  });

  it("removes the file when the attachment is deleted, and with its parent", async () => {
    const made = (await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-del`, image: png(3, 3) }, "d.png")).body;
    expect(await onDisk(nameOf(made.image))).to.not.equal(null);
    expect((await del(`${ATTACHMENTS}${made.id}/`)).status).to.equal(204);
    expect(await rows("extras_imageattachment", { id: made.id })).to.equal(0);
    expect(await gone(nameOf(made.image))).to.equal(true);
    expect((await fetch(made.image)).status).to.equal(404);
    const rack = (await post("/api/dcim/racks/", { name: `${tag}-rack`, site: site.id, status: "active" })).body;
    const onRack = await upload("POST", ATTACHMENTS, { content_type: "dcim.rack", object_id: rack.id, image: png(4, 4) }, "r.png");
    expect(onRack.status, onRack.text).to.equal(201);
    expect(nameOf(onRack.body.image)).to.equal(`image-attachments/rack_${rack.id}_r.png`);
    expect((await del(`/api/dcim/racks/${rack.id}/`)).status).to.equal(204);
    expect(await rows("extras_imageattachment", { id: onRack.body.id })).to.equal(0);
    expect(await gone(nameOf(onRack.body.image))).to.equal(true);
  });

  it("needs the add permission to upload, and serves the files to anyone, as Nautobot's media", async () => {
    const server = await startTestServer();
    const viewer = (await server.user(uniq(`${tag}-u`), { grants: [{ object_types: ["extras.imageattachment"], actions: ["view"] }] })).key;
    const refused = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-perm`, image: png(2, 2) }, "p.png", viewer);
    expect(refused.status).to.equal(403);
    expect(await rows("extras_imageattachment", { name: `${tag}-perm` })).to.equal(0);
    const listed = (await get(`${ATTACHMENTS}?object_id=${site.id}`, { token: viewer })).body.results;
    expect(listed.length).to.be.above(0);
    expect((await fetch(listed[0].image)).status).to.equal(200);
    expect((await get(ATTACHMENTS, { token: null })).status).to.equal(403);
    // A write refused after its file was kept (the created row breaks the writer's constraints)
    // is rolled back, and its file goes with it.
    const constrained = (await server.user(uniq(`${tag}-u`), { grants: [
      { object_types: ["extras.imageattachment"], actions: ["add", "view"], constraints: { name: `${tag}-allowed` } },
    ] })).key;
    const outside = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-outside`, image: png(2, 2) }, "o.png", constrained);
    expect(outside.status, outside.text).to.equal(403);
    expect(await rows("extras_imageattachment", { name: `${tag}-outside` })).to.equal(0);
    expect(await gone(`image-attachments/site_${site.id}_${tag}-outside.png`)).to.equal(true);
    const inside = await upload("POST", ATTACHMENTS, { content_type: "dcim.site", object_id: site.id, name: `${tag}-allowed`, image: png(2, 2) }, "i.png", constrained);
    expect(inside.status, inside.text).to.equal(201);
    expect(await onDisk(nameOf(inside.body.image))).to.deep.equal(png(2, 2));
    expect((await fetch(`${server.url}/media/../package.json`)).status).to.equal(404);
  });
});
