import type { SceneDefinition } from './scene-api.ts';

// Every scene folder registers itself by existing: src/scenes/<name>/index.ts exporting `scene`.
const modules = import.meta.glob<{ scene: SceneDefinition }>('./scenes/*/index.ts', { eager: true });

/** All scenes, the hello scene first, then by title. */
export const scenes: readonly SceneDefinition[] = Object.values(modules)
  .map((module) => module.scene)
  .sort((a, b) => (a.id === 'hello' ? -1 : b.id === 'hello' ? 1 : a.title.localeCompare(b.title)));

export function findScene(id: string): SceneDefinition | undefined {
  return scenes.find((scene) => scene.id === id);
}
