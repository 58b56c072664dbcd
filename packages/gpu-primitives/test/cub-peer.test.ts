// The CUB peer's protocol with bench/cub_sort.py --serve, against a stand-in server (the real
// one needs CUDA PyTorch): one process for many requests, answers in order, errors per request.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CubPeer } from '../bench/cub-peer.ts';

function standIn(body: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cuttle-cub-')), 'serve.mjs');
  writeFileSync(file, body);
  return file;
}

describe('CubPeer', () => {
  test('one process answers every request in order; a bad request fails alone', async () => {
    const script = standIn(`
      import { createInterface } from 'node:readline';
      if (process.argv[2] !== '--serve') process.exit(2);
      let served = 0;
      for await (const line of createInterface({ input: process.stdin })) {
        const [count, kind] = line.split(' ');
        served++;
        console.log(kind === 'bogus' ? 'error unknown key kind' : String(Number(count) * 2 + served * 1e-6));
      }
    `);
    const peer = new CubPeer([process.execPath, script]);
    const [a, b] = await Promise.all([peer.pairsPerSecond(16, 'random'), peer.pairsPerSecond(32, 'sorted')]);
    expect(a).toBeCloseTo(32.000001, 9);
    // The same process served the second request (its counter went on).
    expect(b).toBeCloseTo(64.000002, 9);
    await expect(peer.pairsPerSecond(8, 'bogus')).rejects.toThrow(/cub_sort.py: unknown key kind/);
    expect(await peer.pairsPerSecond(8, 'few')).toBeCloseTo(16.000004, 9);
    peer.close();
  });

  test('keys-only requests name their kind, and errors carry the peer\'s label', async () => {
    const script = standIn(`
      import { createInterface } from 'node:readline';
      for await (const line of createInterface({ input: process.stdin })) {
        const [count, input, what] = line.split(' ');
        console.log(what === 'keys' ? String(Number(count) * 3) : what === undefined ? String(Number(count)) : 'error ' + what + ' ' + input);
      }
    `);
    const peer = new CubPeer([process.execPath, script], 'cub_sort');
    expect(await peer.keysPerSecond(10, 'random')).toBe(30);
    expect(await peer.pairsPerSecond(10, 'random')).toBe(10);
    peer.close();
    const failing = new CubPeer([process.execPath, standIn(`console.log('error no GPU'); setTimeout(() => {}, 1000);`)], 'cub_sort');
    await expect(failing.keysPerSecond(10, 'random')).rejects.toThrow(/^cub_sort: no GPU$/);
    failing.close();
  });

  test('scan requests send "<count> scan" and read elements per second', async () => {
    const script = standIn(`
      import { createInterface } from 'node:readline';
      for await (const line of createInterface({ input: process.stdin })) {
        const [count, what, extra] = line.split(' ');
        console.log(what === 'scan' && extra === undefined ? String(Number(count) * 5) : 'error not a scan: ' + line);
      }
    `);
    const peer = new CubPeer([process.execPath, script], 'cub_sort');
    expect(await peer.scanElementsPerSecond(64)).toBe(320);
    await expect(peer.pairsPerSecond(64, 'random')).rejects.toThrow(/^cub_sort: not a scan: 64 random$/);
    peer.close();
  });

  test('a server that dies fails the pending requests with its stderr', async () => {
    const script = standIn(`console.error('no CUDA device'); process.exit(3);`);
    const peer = new CubPeer([process.execPath, script]);
    await expect(peer.pairsPerSecond(16, 'random')).rejects.toThrow(/exited \(3\): no CUDA device/);
  });
});
