/**
 * What a browser asks of the landing page: the headers of a page load, the answer's bytes as they
 * travel (still compressed), and the scripts and stylesheets the page loads, now and on demand.
 */
import { request } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './settings.js';

/** A browser's headers for a page (a navigation); assets are asked for with the same encodings. */
export const BROWSER_HEADERS: Record<string, string> = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'br, gzip',
  'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
  'user-agent':
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
};

/** Headers a server sets per connection or per response: a replay leaves them to its own server. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export interface RawAnswer {
  status: number;
  /** The answer's headers without the per-response ones. */
  headers: Record<string, string | string[]>;
  /** The body as sent: compressed when the server compressed it (fetch would decode it). */
  body: Buffer;
}

/** One GET with node:http, which leaves the body as the server sent it. */
export function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const kept: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined && !PER_RESPONSE.has(name)) kept[name] = value;
        }
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface LandingAssets {
  /** Scripts and stylesheets the page's markup names (/assets/…), loaded with the page. */
  page: string[];
  /** Scripts the page's own scripts load on demand (the app, when the visitor reaches for the page). */
  onDemand: string[];
}

const ASSETS_DIR = path.join(ROOT, 'web', 'dist', 'assets');

/**
 * The landing page's assets from its markup: the /assets/ files it names, and the chunks its
 * scripts import (Vite names them `assets/x.js` in its preload list or `./x.js` in an import), one
 * level deep: that is the app the entry starts, not every page the app can load later.
 */
export async function landingAssets(html: string): Promise<LandingAssets> {
  const page = [
    ...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[\w.-]+\.(?:js|css))"/g)].map((m) => m[1]!)),
  ];
  const onDemand = new Set<string>();
  for (const script of page.filter((file) => file.endsWith('.js'))) {
    const text = await readFile(path.join(ASSETS_DIR, path.basename(script)), 'utf8');
    for (const match of text.matchAll(/(?:assets\/|\.\/)([\w-]+\.js)/g)) {
      const file = `/assets/${match[1]!}`;
      if (!page.includes(file)) onDemand.add(file);
    }
  }
  const existing = [];
  for (const file of onDemand) {
    if (await assetBytes(file).catch(() => null)) existing.push(file);
  }
  return { page, onDemand: existing };
}

/** An asset's size as built (uncompressed). */
export async function assetBytes(file: string): Promise<number> {
  return (await stat(path.join(ASSETS_DIR, path.basename(file)))).size;
}
