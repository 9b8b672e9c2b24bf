// Builds the web console into console/dist; the app serves it at /console (src/console/routes.ts).
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  // React's automatic JSX runtime without @vitejs/plugin-react: the build needs no fast refresh.
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1024 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
