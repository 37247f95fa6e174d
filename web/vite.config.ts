import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverTarget = 'http://127.0.0.1:3000';
const proxied = ['/oauth', '/jsonapi', '/files', '/api', '/healthz'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: {
      '@pecan/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverTarget, changeOrigin: false }])),
  },
  preview: {
    port: 4173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverTarget, changeOrigin: false }])),
  },
});
