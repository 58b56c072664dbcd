// The public blog posts each package is built from (shared/reference/INDEX.md lists which post
// feeds which package). The site names the post and its blog; it links the post only where
// INDEX.md gives a public URL for it, and never copies post text.
import { existsSync, readFileSync } from 'node:fs';
import { referenceIndex } from './paths.ts';

export interface SeedPost {
  title: string;
  blog: string;
  /** The post's public URL, when INDEX.md gives one. */
  url?: string;
}

const WICKED = 'Wicked Engine blog (János Turánszki)';
const BITSQUID = 'Bitsquid development blog (2010)';

/** Package folder → the posts its README says it follows, titles as INDEX.md spells them. */
const SEEDS: Record<string, readonly (readonly [string, string])[]> = {
  allocators: [['Custom Memory Allocation in C++', BITSQUID]],
  ecs: [['Entity-component system', WICKED]],
  flow: [['Visual Scripting the Data-Oriented Way (Flow)', BITSQUID]],
  'gpu-culling': [['Thoughts on light culling: stream compaction vs flat bit arrays', WICKED], ['Optimizing tile-based light culling', WICKED]],
  'gpu-fluid': [['Scalable GPU Fluid Simulation', WICKED]],
  'gpu-skinning': [['Skinning in a Compute Shader', WICKED], ['Thoughts on Skinning and LDS', WICKED]],
  gui: [['Dual Mode GUIs', BITSQUID], ['Distance Field Based Rendering of AngelCode Fonts', BITSQUID]],
  jobs: [['Simple job system using standard C++', WICKED], ['Task Management -- A Practical Example', BITSQUID]],
  render: [['Easy Transparent Shadow Maps', WICKED], ['Improved normal reconstruction from depth (SSAO)', WICKED]],
  timestep: [['Time Step Smoothing', BITSQUID]],
  'tools-merge': [['3-way JSON Merge', BITSQUID], ['BitBucket for BitSquid (JSON merge visual diffs)', BITSQUID], ['A new data storage model', BITSQUID], ['The Dependency Checker', BITSQUID], ['Static Hash Values', BITSQUID]],
};

function indexRows(): string[] {
  if (!existsSync(referenceIndex)) {
    console.warn(`site: ${referenceIndex} is missing: seed posts are named from the site's own list, unchecked.`);
    return [];
  }
  return readFileSync(referenceIndex, 'utf8').split('\n').filter((line) => line.startsWith('|'));
}

/** The seed posts of every package that has one, each title checked against INDEX.md. */
export function readSeedPosts(): Map<string, SeedPost[]> {
  const rows = indexRows();
  const seeds = new Map<string, SeedPost[]>();
  for (const [slug, posts] of Object.entries(SEEDS)) {
    seeds.set(
      slug,
      posts.map(([title, blog]) => {
        const row = rows.find((line) => line.includes(title));
        if (rows.length > 0 && !row) throw new Error(`site: seed post "${title}" (${slug}) is not in ${referenceIndex}: fix apps/site/src/seed-posts.ts.`);
        // A URL counts only right after its title: "[title](url)", "title (url)" or "title <url>".
        const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const url = row ? new RegExp(`${escaped}\\]?\\s*[(<](https?://[^\\s|)>]+)`).exec(row)?.[1] : undefined;
        return url ? { title, blog, url } : { title, blog };
      }),
    );
  }
  return seeds;
}
