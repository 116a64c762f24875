/**
 * The view's page (docs/view.md "The page"): its HTML shell and Content-Security-Policy, for
 * the server (script and style sheet fetched from it) and for the self-contained file (both
 * inline, allowed by their hashes, the data in a JSON block). The client is built by
 * scripts/build.mjs into dist/ beside this bundle (dist/view-app.js, dist/view-app.css).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** What the served page may load: its own script and style sheet, its own API; nothing else. */
export const SERVER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Where the built client is: the bundle's own folder (`dist/`). */
function clientDir(): string {
  // The CLI ships as CommonJS bundles, where `__dirname` exists; `import.meta` does not.
  return typeof __dirname === 'string' ? __dirname : join(process.cwd(), 'dist');
}

const cache = new Map<string, string>();

/** The built client's script or style sheet. */
export function clientAsset(kind: 'js' | 'css'): string {
  let text = cache.get(kind);
  if (text === undefined) {
    text = readFileSync(join(clientDir(), `view-app.${kind}`), 'utf8');
    cache.set(kind, text);
  }
  return text;
}

const HEAD = '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n';

/** The page the server serves at `/`. */
export function livePage(): string {
  return `${HEAD}<title>git handoff view</title>\n<link rel="stylesheet" href="/app.css">\n</head>\n<body>\n<div id="app"></div>\n<script src="/app.js"></script>\n</body>\n</html>\n`;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * JSON that may stand inside a `<script>` element: `<` is written `\u003c` (no `</script>`
 * or `<!--` can end or change the element), and the two line separators JavaScript once
 * refused in strings are escaped too. JSON.parse reads it back unchanged.
 */
export function scriptSafeJson(doc: unknown): string {
  return JSON.stringify(doc)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The data block of a file: `{"format","encoding":"gzip+base64","data"}`, the document
 * gzipped (the handoffs of a long history repeat themselves: 5,000 versions are 9 MB of
 * JSON, under 1 MB gzipped) and read back by the page with the browser's own
 * DecompressionStream (no network, no library).
 */
export function packedData(doc: unknown): { format: 'git-handoff-view'; encoding: 'gzip+base64'; data: string } {
  return { format: 'git-handoff-view', encoding: 'gzip+base64', data: gzipSync(JSON.stringify(doc), { level: 9 }).toString('base64') };
}

/** The self-contained page: the client and its style inline (allowed by hash), the data as a JSON block. */
export function filePage(data: unknown, title: string): string {
  const js = clientAsset('js').replace(/<\/script/gi, '<\\/script');
  const css = clientAsset('css');
  const csp = `default-src 'none'; script-src ${sha256(js)}; style-src ${sha256(css)}; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
  const safeTitle = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `${HEAD}<meta http-equiv="Content-Security-Policy" content="${csp}">\n<title>${safeTitle}</title>\n<style>${css}</style>\n</head>\n<body>\n<div id="app"></div>\n` +
    `<script type="application/json" id="handoff-data">${scriptSafeJson(packedData(data))}</script>\n<script>${js}</script>\n</body>\n</html>\n`
  );
}
