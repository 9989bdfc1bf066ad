// Vite build of the renderer: root src-renderer/, output dist/renderer/ with relative asset paths (Electron
// loads it from file://). Knows nothing of the main process.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./src-renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

/**
 * The dev server's React refresh preamble is an inline script, which the page's CSP (script-src 'self') blocks;
 * drop the CSP meta tag while serving in dev only. Builds keep it.
 */
function devWithoutCsp(): Plugin {
  return {
    name: 'ghostboard-dev-without-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/s, ''),
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), devWithoutCsp()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1' },
});
