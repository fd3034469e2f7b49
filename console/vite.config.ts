/**
 * Builds the operator console (console/dist, served by the service at `/`). `npm run console:dev`
 * serves it with hot reload and proxies the API to a service on 127.0.0.1:8080.
 *
 * The pages are written against React's API (types from @types/react) and run on Preact through its
 * compatibility layer: react-dom alone is ~220 KB minified, more than the whole first load may weigh
 * (test/console-bundle.test.ts); preact/compat is ~35 KB. urql and wouter import `react`, so they get
 * the same aliases. The JSX is compiled by esbuild (tsconfig `jsx: react-jsx`, so `react/jsx-runtime`).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.CONSOLE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  base: '/',
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/compat/jsx-$1runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1024, manifest: true },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/graphql': { target: api, ws: true },
      '/api': api,
    },
  },
});
