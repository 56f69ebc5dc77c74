// Just enough of PNG to judge a screenshot without comparing it to another machine's pixels:
// its size, and how much of it is not the background. Reads the 8-bit RGB/RGBA images
// Chromium writes (no palette, no interlace), undoing each row's filter.
import { inflateSync } from "node:zlib";

export interface PngSummary {
  width: number;
  height: number;
  /** Share of pixels that differ from the top-left one (the page background). */
  inked: number;
  /** Distinct colours, up to 1000. */
  colours: number;
}

export function summarizePng(png: Buffer): PngSummary {
  if (png.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG");
  let offset = 8;
  let width = 0, height = 0, channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6)) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colourType})`);
      channels = colourType === 6 ? 4 : 3;
    }
    if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (row[x] + predicted) & 0xff;
    }
  }
  const background = pixels.subarray(0, 3).toString("hex");
  const colours = new Set<string>();
  let inked = 0;
  for (let i = 0; i < pixels.length; i += channels) {
    const colour = pixels.subarray(i, i + 3).toString("hex");
    if (colour !== background) inked++;
    if (colours.size < 1000) colours.add(colour);
  }
  return { width, height, inked: inked / (width * height), colours: colours.size };
}
