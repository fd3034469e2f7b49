/**
 * Builds the operator console (console/dist, served by the service at `/`). `npm run console:dev`
 * serves it with hot reload and proxies the API to a service on 127.0.0.1:8080.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.CONSOLE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1024 },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/graphql': { target: api, ws: true },
      '/api': api,
    },
  },
});
