import { defaultClientConditions, defineConfig } from 'vite';

// Cross-origin isolation (COOP + COEP) makes SharedArrayBuffer available: @cuttle/jobs needs it.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  resolve: { conditions: ['@cuttle/source', ...defaultClientConditions] },
  server: { headers: isolation, port: 5173 },
  preview: { headers: isolation, port: 4173 },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
