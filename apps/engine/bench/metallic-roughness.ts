// Metallic-roughness maps through the texture path: each GLB material's metallic-roughness image
// encoded as the compiler does (UASTC, linear) and as ETC1S in linear for comparison, with the
// PSNR of green (roughness) and blue (metallic) at level 0 against the source, the file size and
// the encode time (median of 3, this thread).
//
//   pnpm --filter @cuttle/engine exec tsx --conditions=@cuttle/source --import ./bin/source-hooks-register.mjs bench/metallic-roughness.ts [file.glb]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { basisModule, TranscodeTarget } from '../src/textures/basis-module.ts';
import { encodeKtx2With, USAGE_SETTINGS, type Ktx2Settings } from '../src/textures/encode-ktx2.ts';
import { mipLevelCount } from '../src/textures/mip-chain.ts';
import { psnrChannel } from '../src/textures/quality.ts';
import { transcodeKtx2 } from '../src/textures/transcode-ktx2.ts';

const file = process.argv[2] ?? join(import.meta.dirname, '..', 'test', 'fixtures', 'wild', 'NormalTangentTest.glb');
const bytes = readFileSync(file);
const jsonLength = bytes.readUInt32LE(12);
const gltf = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8')) as {
  materials?: { pbrMetallicRoughness?: { metallicRoughnessTexture?: { index: number } } }[];
  textures: { source: number }[];
  images: { bufferView: number }[];
  bufferViews: { byteOffset?: number; byteLength: number }[];
};
const binAt = 20 + jsonLength + 8;
const images = new Set((gltf.materials ?? []).flatMap((m) => {
  const info = m.pbrMetallicRoughness?.metallicRoughnessTexture;
  return info ? [gltf.textures[info.index]!.source] : [];
}));

const variants: [string, Ktx2Settings][] = [['UASTC linear (the compiler)', USAGE_SETTINGS.data], ['ETC1S linear', { codec: 'etc1s', srgb: false, renormalize: false }]];
const basis = await basisModule();
console.log(`${file}, ${new Date().toISOString().slice(0, 10)}`);
for (const image of images) {
  const view = gltf.bufferViews[gltf.images[image]!.bufferView]!;
  const at = binAt + (view.byteOffset ?? 0);
  const { data, info } = await sharp(bytes.subarray(at, at + view.byteLength)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgba = new Uint8Array(data);
  const { width, height } = info;
  console.log(`image ${image}: ${width}x${height}`);
  for (const [name, settings] of variants) {
    const times: number[] = [];
    let ktx2: Uint8Array = new Uint8Array(0);
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      ktx2 = await encodeKtx2With(rgba, width, height, settings, name);
      times.push(performance.now() - started);
    }
    const decoded = transcodeKtx2(basis, ktx2, { target: TranscodeTarget.rgba32, format: 'rgba8unorm' }, { width, height, levels: mipLevelCount(width, height) }).levels[0]!;
    times.sort((a, b) => a - b);
    console.log(`  ${name}: G ${psnrChannel(decoded, rgba, 1).toFixed(2)} dB, B ${psnrChannel(decoded, rgba, 2).toFixed(2)} dB, ${ktx2.length} B, encode ${times[1]!.toFixed(0)} ms`);
  }
}
