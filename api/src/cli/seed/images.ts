/**
 * Demo photos for the seed: an SVG poster (gradient in the vehicle's colour, a stylised car, brand
 * and model) rendered to JPEG with sharp. Every photo of a vehicle differs in hue, gradient angle,
 * light streaks and the car's position.
 */
import sharp from 'sharp';

export const PHOTO_WIDTH = 1600;
export const PHOTO_HEIGHT = 1000;

export interface PhotoSpec {
  brand: string;
  model: string;
  year: number;
  /** Base hue 0–360 of the vehicle. */
  hue: number;
  /** Position of the photo (0-based) and how many the vehicle has. */
  index: number;
  count: number;
}

export interface RenderedPhoto {
  body: Buffer;
  width: number;
  height: number;
}

export async function renderVehiclePhoto(spec: PhotoSpec): Promise<RenderedPhoto> {
  const body = await sharp(Buffer.from(photoSvg(spec)))
    .jpeg({ quality: 84, mozjpeg: true })
    .toBuffer();
  return { body, width: PHOTO_WIDTH, height: PHOTO_HEIGHT };
}

/** A side view in a 1000 × 300 box, front to the left, ground at y 225 + wheel radius. */
const CAR_BODY =
  'M 30 205 C 30 175 45 160 90 152 L 300 128 C 360 90 420 62 480 56 L 650 54 C 720 56 770 90 820 122 ' +
  'L 940 135 C 968 140 975 160 975 185 L 975 210 C 975 220 968 225 958 225 L 880 225 ' +
  'A 88 88 0 0 0 704 225 L 300 225 A 88 88 0 0 0 124 225 L 45 225 C 35 225 30 218 30 205 Z';
const CAR_WINDOWS = [
  'M 330 128 C 385 96 430 74 485 69 L 562 68 L 562 126 Z',
  'M 578 68 L 645 68 C 700 71 740 96 782 124 L 578 126 Z',
];
const WHEEL_CENTRES = [212, 792];

export function photoSvg(spec: PhotoSpec): string {
  const { brand, model, year, index, count } = spec;
  const random = mulberry32(Math.round(spec.hue * 1000) + index * 7919 + model.length);
  const hue = (spec.hue + index * 17) % 360;
  const angle = (25 + index * 55) % 180;
  const [x1, y1, x2, y2] = gradientVector(angle);

  const backgroundTop = hsl(hue, 55, 22);
  const backgroundBottom = hsl(hue + 25, 45, 5);
  const glow = hsl(hue, 80, 55);
  const paintLight = hsl(hue, 75, 58);
  const paintDark = hsl(hue, 70, 26);

  const streaks = Array.from({ length: 6 }, () => {
    const x = Math.round(random() * 1800 - 300);
    const width = Math.round(30 + random() * 110);
    const opacity = (0.025 + random() * 0.05).toFixed(3);
    const slant = Math.round(300 + random() * 500);
    return `<line x1="${x}" y1="-20" x2="${x + slant}" y2="1020" stroke="#ffffff" stroke-width="${width}" stroke-opacity="${opacity}"/>`;
  }).join('');

  // The car: size, position and direction vary per photo.
  const scale = 1.0 + ((index * 0.09) % 0.27);
  const carWidth = 1000 * scale;
  const mirrored = index % 2 === 1;
  const centre = 800 + (index % 3 === 2 ? -110 : index % 3 === 1 ? 90 : 0);
  const left = Math.round(centre - carWidth / 2);
  const top = Math.round(905 - 297 * scale);
  const flip = mirrored ? `translate(${Math.round(carWidth)} 0) scale(-1 1) ` : '';
  const glowX = Math.round(centre);

  const wheels = WHEEL_CENTRES.map(
    (cx) =>
      `<circle cx="${cx}" cy="225" r="72" fill="#0b0b0d"/>` +
      `<circle cx="${cx}" cy="225" r="46" fill="url(#rim)"/>` +
      `<circle cx="${cx}" cy="225" r="12" fill="#2a2a2e"/>`,
  ).join('');

  const modelSize = Math.min(128, Math.floor(1440 / (Math.max(model.length, 6) * 0.66)));
  const brandSize = Math.min(64, Math.floor(1440 / (Math.max(brand.length, 6) * 0.72)));

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" viewBox="0 0 ${PHOTO_WIDTH} ${PHOTO_HEIGHT}">
  <defs>
    <linearGradient id="bg" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">
      <stop offset="0" stop-color="${backgroundTop}"/>
      <stop offset="1" stop-color="${backgroundBottom}"/>
    </linearGradient>
    <radialGradient id="glow" cx="${glowX}" cy="760" r="700" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${glow}" stop-opacity="0.45"/>
      <stop offset="1" stop-color="${glow}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#000000" stop-opacity="0.25"/>
      <stop offset="1" stop-color="#000000" stop-opacity="0.75"/>
    </linearGradient>
    <linearGradient id="paint" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${paintLight}"/>
      <stop offset="1" stop-color="${paintDark}"/>
    </linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#9fb4c8" stop-opacity="0.55"/>
      <stop offset="1" stop-color="#10161c" stop-opacity="0.9"/>
    </linearGradient>
    <radialGradient id="rim">
      <stop offset="0" stop-color="#e6e8ec"/>
      <stop offset="1" stop-color="#7a7f88"/>
    </radialGradient>
  </defs>
  <rect width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" fill="url(#bg)"/>
  <rect width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" fill="url(#glow)"/>
  ${streaks}
  <rect y="905" width="${PHOTO_WIDTH}" height="95" fill="url(#floor)"/>
  <line x1="0" y1="905" x2="${PHOTO_WIDTH}" y2="905" stroke="#ffffff" stroke-opacity="0.12" stroke-width="2"/>
  <g transform="translate(${left} ${top}) ${flip}scale(${scale.toFixed(3)})">
    <ellipse cx="500" cy="296" rx="520" ry="18" fill="#000000" fill-opacity="0.55"/>
    <path d="${CAR_BODY}" fill="url(#paint)"/>
    <path d="M 90 178 L 962 170" stroke="#ffffff" stroke-opacity="0.18" stroke-width="3"/>
    ${CAR_WINDOWS.map((d) => `<path d="${d}" fill="url(#glass)"/>`).join('')}
    <rect x="34" y="166" width="44" height="13" rx="5" fill="#fff6d5"/>
    <rect x="948" y="150" width="24" height="15" rx="4" fill="#e0262b"/>
    ${wheels}
  </g>
  <text x="80" y="${80 + brandSize}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${brandSize}" font-weight="700" letter-spacing="4" fill="#ffffff" fill-opacity="0.8">${escapeXml(brand.toUpperCase())}</text>
  <text x="76" y="${110 + brandSize + modelSize}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${modelSize}" font-weight="800" fill="#ffffff">${escapeXml(model)}</text>
  <text x="80" y="${175 + brandSize + modelSize}" font-family="DejaVu Sans, Arial, sans-serif" font-size="36" fill="#ffffff" fill-opacity="0.6">Baujahr ${year}</text>
  <text x="1520" y="90" text-anchor="end" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" font-weight="700" letter-spacing="6" fill="#ffffff" fill-opacity="0.75">Schlosstreffen</text>
  <text x="1520" y="960" text-anchor="end" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" fill="#ffffff" fill-opacity="0.55">Foto ${index + 1} / ${count}</text>
</svg>`;
}

/** Unit-box end points of a linear gradient running at `degrees`. */
function gradientVector(degrees: number): [string, string, string, string] {
  const radians = (degrees * Math.PI) / 180;
  const dx = Math.cos(radians) / 2;
  const dy = Math.sin(radians) / 2;
  return [0.5 - dx, 0.5 - dy, 0.5 + dx, 0.5 + dy].map((value) => value.toFixed(3)) as [
    string,
    string,
    string,
    string,
  ];
}

/** `hsl()` as #rrggbb, which every SVG renderer understands. */
function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = saturation / 100;
  const l = lightness / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const value =
      x < 1 / 6 ? p + (q - p) * 6 * x : x < 1 / 2 ? q : x < 2 / 3 ? p + (q - p) * (2 / 3 - x) * 6 : p;
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(h + 1 / 3)}${channel(h)}${channel(h - 1 / 3)}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Small seeded PRNG, so the same vehicle gets the same streaks on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
