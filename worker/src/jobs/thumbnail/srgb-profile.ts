/**
 * Whether an ICC profile describes plain sRGB: an RGB matrix/TRC profile whose primaries (D50
 * adapted) and tone curves are sRGB's within rounding, without lookup tables that a colour engine
 * would use instead. Pixels under such a profile are the same without it (browsers take untagged
 * images as sRGB), so a JPEG carrying one can lose the profile like its other metadata. Anything
 * else (Display P3, Adobe RGB, grey, CMYK, LUT profiles, malformed data) is false: the caller then
 * converts the pixels to sRGB.
 */
export function isSrgbProfile(icc: Buffer): boolean {
  try {
    if (icc.length < 132 || icc.readUInt32BE(0) > icc.length) return false;
    if (icc.toString('latin1', 16, 20) !== 'RGB ' || icc.toString('latin1', 20, 24) !== 'XYZ ') return false;
    const tags = new Map<string, Buffer>();
    const count = icc.readUInt32BE(128);
    if (132 + count * 12 > icc.length) return false;
    for (let i = 0; i < count; i++) {
      const at = 132 + i * 12;
      const offset = icc.readUInt32BE(at + 4);
      const size = icc.readUInt32BE(at + 8);
      if (offset + size > icc.length) return false;
      tags.set(icc.toString('latin1', at, at + 4), icc.subarray(offset, offset + size));
    }
    // LUT-based transforms take precedence over the matrix in a colour engine.
    if ([...tags.keys()].some((sig) => /^(A2B|B2A|D2B|B2D)/.test(sig))) return false;
    for (const [sig, expected] of Object.entries(SRGB_PRIMARIES)) {
      const xyz = tags.get(sig);
      if (!xyz || xyz.length < 20 || xyz.toString('latin1', 0, 4) !== 'XYZ ') return false;
      for (let k = 0; k < 3; k++) {
        if (Math.abs(xyz.readInt32BE(8 + k * 4) / 65536 - expected[k]!) > PRIMARY_TOLERANCE) return false;
      }
    }
    for (const sig of ['rTRC', 'gTRC', 'bTRC']) {
      const curve = toneCurve(tags.get(sig));
      if (!curve) return false;
      for (let k = 0; k <= 64; k++) {
        const x = k / 64;
        if (Math.abs(curve(x) - srgbToLinear(x)) > CURVE_TOLERANCE) return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}

/** sRGB's colorants as ICC profiles store them (Bradford-adapted to D50). */
const SRGB_PRIMARIES: Record<string, readonly number[]> = {
  rXYZ: [0.436066, 0.222488, 0.013916],
  gXYZ: [0.385147, 0.716873, 0.097076],
  bXYZ: [0.143066, 0.060608, 0.714096],
};
const PRIMARY_TOLERANCE = 0.003;
/** Half an 8-bit step in linear light. */
const CURVE_TOLERANCE = 0.002;

const srgbToLinear = (x: number) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);

/** A `curv` (table or gamma) or `para` tag as a function on [0, 1]; undefined when unreadable. */
function toneCurve(tag: Buffer | undefined): ((x: number) => number) | undefined {
  if (!tag || tag.length < 12) return undefined;
  const type = tag.toString('latin1', 0, 4);
  if (type === 'curv') {
    const n = tag.readUInt32BE(8);
    if (tag.length < 12 + n * 2) return undefined;
    if (n === 0) return (x) => x;
    if (n === 1) {
      const gamma = tag.readUInt16BE(12) / 256;
      return (x) => x ** gamma;
    }
    const entry = (i: number) => tag.readUInt16BE(12 + i * 2) / 65535;
    return (x) => {
      const at = x * (n - 1);
      const i = Math.min(Math.floor(at), n - 2);
      return entry(i) + (entry(i + 1) - entry(i)) * (at - i);
    };
  }
  if (type === 'para') {
    const fn = tag.readUInt16BE(8);
    const params = [1, 3, 4, 5, 7][fn];
    if (params === undefined || tag.length < 12 + params * 4) return undefined;
    const [g = 1, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = Array.from(
      { length: params },
      (_, k) => tag.readInt32BE(12 + k * 4) / 65536,
    );
    const power = (x: number) => (x > 0 ? x ** g : 0);
    switch (fn) {
      case 0:
        return (x) => power(x);
      case 1:
        return (x) => (x >= -b / a ? power(a * x + b) : 0);
      case 2:
        return (x) => (x >= -b / a ? power(a * x + b) + c : c);
      case 3:
        return (x) => (x >= d ? power(a * x + b) : c * x);
      default:
        return (x) => (x >= d ? power(a * x + b) + e : c * x + f);
    }
  }
  return undefined;
}
