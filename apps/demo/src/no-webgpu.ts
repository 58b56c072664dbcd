/** Replaces the page with an explanation of how to get WebGPU; `reason` says what failed. */
export function showNoWebGpu(reason: string): void {
  document.body.innerHTML = '';
  const box = document.createElement('section');
  box.className = 'no-webgpu';
  box.setAttribute('role', 'alert');
  const title = document.createElement('h2');
  title.textContent = 'This demo needs WebGPU';
  const why = document.createElement('p');
  why.textContent = reason;
  const help = document.createElement('ul');
  for (const line of [
    'Chrome or Edge 113+ on Windows, macOS and ChromeOS; on Linux start Chrome with --enable-unsafe-webgpu --enable-features=Vulkan.',
    'Safari 26+ on macOS / iOS.',
    'Firefox 141+ on Windows; elsewhere Firefox Nightly with dom.webgpu.enabled.',
    'Pages must be served from https:// or localhost.',
  ]) {
    const item = document.createElement('li');
    item.textContent = line;
    help.append(item);
  }
  box.append(title, why, help);
  document.body.append(box);
  document.title = 'Cuttle demo: WebGPU missing';
}
