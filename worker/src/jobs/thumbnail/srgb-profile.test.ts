import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isSrgbProfile } from './srgb-profile.js';

async function profileOf(name: 'srgb' | 'p3' | 'cmyk'): Promise<Buffer> {
  const image = sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } });
  const jpeg = await image.jpeg().withIccProfile(name).toBuffer();
  return (await sharp(jpeg).metadata()).icc!;
}

describe('isSrgbProfile', () => {
  it('accepts sRGB profiles: parametric and table curves', async () => {
    const srgb = await profileOf('srgb');
    expect(isSrgbProfile(srgb)).toBe(true);
    // The same profile with its curves as 1024-entry tables, as many cameras write it.
    const table = Buffer.alloc(12 + 1024 * 2);
    table.write('curv', 0, 'latin1');
    table.writeUInt32BE(1024, 8);
    for (let i = 0; i < 1024; i++) {
      const x = i / 1023;
      const y = x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      table.writeUInt16BE(Math.round(y * 65535), 12 + i * 2);
    }
    expect(isSrgbProfile(withCurves(srgb, table))).toBe(true);
  });

  it('refuses other colour spaces, gamma 2.2 and malformed data', async () => {
    expect(isSrgbProfile(await profileOf('p3'))).toBe(false);
    expect(isSrgbProfile(await profileOf('cmyk'))).toBe(false);
    const gamma = Buffer.alloc(14);
    gamma.write('curv', 0, 'latin1');
    gamma.writeUInt32BE(1, 8);
    gamma.writeUInt16BE(2.2 * 256, 12);
    const srgb = await profileOf('srgb');
    expect(isSrgbProfile(withCurves(srgb, gamma))).toBe(false);
    expect(isSrgbProfile(srgb.subarray(0, 200))).toBe(false);
    expect(isSrgbProfile(Buffer.from('not a profile at all, not a profile at all'))).toBe(false);
  });
});

/** The profile with its three tone curves replaced by `curve` (appended, the tag table pointed at it). */
function withCurves(profile: Buffer, curve: Buffer): Buffer {
  const out = Buffer.concat([profile, curve]);
  out.writeUInt32BE(out.length, 0);
  const count = out.readUInt32BE(128);
  for (let i = 0; i < count; i++) {
    const at = 132 + i * 12;
    if (/^[rgb]TRC$/.test(out.toString('latin1', at, at + 4))) {
      out.writeUInt32BE(profile.length, at + 4);
      out.writeUInt32BE(curve.length, at + 8);
    }
  }
  return out;
}
