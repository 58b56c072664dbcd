// Launches Debian's headless Chromium with WebGPU on SwiftShader (never a downloaded browser).
// playwright gives every launch a fresh temporary profile.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_HELP = [
  'No Chromium at /usr/bin/chromium (or CUTTLE_CHROMIUM). On Debian/Ubuntu, as root:',
  '  bash tooling/scripts/setup.sh          (installs chromium with the rest)',
  '  or: apt-get update && apt-get install -y chromium',
  'Elsewhere, point CUTTLE_CHROMIUM at a Chromium or Chrome binary.',
].join('\n');

export function chromiumPath(): string {
  const path = process.env.CUTTLE_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(CHROMIUM_HELP);
  return path;
}

export async function launchWebGpuChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--enable-unsafe-webgpu',
      // SwiftShader: WebGPU on the CPU, the same everywhere, no GPU needed.
      '--enable-features=Vulkan',
      '--use-webgpu-adapter=swiftshader',
      '--use-angle=swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}
