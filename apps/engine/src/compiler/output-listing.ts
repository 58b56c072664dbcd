// Which files the output folder holds, so a compile rebuilds a resource whose output is gone. One
// listing of the folder, not a stat per resource; and in a --watch loop only the folders whose
// change time moved are read again (a large project's 4,000 outputs took 3-5 ms to list each
// compile, though a save changes one or two folders). A listing is trusted again only if its
// folder had not changed for RACY_MS when it was read: file systems stamp folders coarsely
// (a clock tick, up to seconds), so a change in the same tick as the listing would leave the
// stamp as it was.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const RACY_MS = 2000;

interface FolderListing {
  mtimeNs: bigint;
  files: string[];
  folders: string[];
}

/** Folder listings kept between compiles of one process, for one output folder. */
export class OutputListingCache {
  readonly folders = new Map<string, FolderListing>();
  constructor(readonly out: string) {}
}

/** Every file under `out`, as manifest entries name them ('textures/a.png.cr'); empty when `out` does not exist. */
export function listOutputs(out: string, cache?: OutputListingCache): Set<string> {
  const found = new Set<string>();
  const kept = cache?.out === out ? cache.folders : undefined;
  const seen = new Set<string>();
  const now = BigInt(Date.now()) * 1_000_000n;
  const walk = (dir: string): void => {
    const stats = statSync(join(out, dir), { bigint: true, throwIfNoEntry: false });
    if (!stats?.isDirectory()) return;
    seen.add(dir);
    let listing = kept?.get(dir);
    if (listing?.mtimeNs !== stats.mtimeNs) {
      listing = readFolder(out, dir, stats.mtimeNs);
      // Trusted next time only if nothing could have changed in the folder unseen while it was read.
      if (now - stats.mtimeNs > BigInt(RACY_MS) * 1_000_000n) kept?.set(dir, listing);
      else kept?.delete(dir);
    }
    for (const name of listing.files) found.add(dir === '' ? name : `${dir}/${name}`);
    for (const name of listing.folders) walk(dir === '' ? name : `${dir}/${name}`);
  };
  walk('');
  if (kept) for (const dir of [...kept.keys()]) if (!seen.has(dir)) kept.delete(dir);
  return found;
}

function readFolder(out: string, dir: string, mtimeNs: bigint): FolderListing {
  const listing: FolderListing = { mtimeNs, files: [], folders: [] };
  let entries;
  try {
    entries = readdirSync(join(out, dir), { withFileTypes: true });
  } catch {
    return listing;
  }
  for (const entry of entries) (entry.isDirectory() ? listing.folders : listing.files).push(entry.name);
  return listing;
}
