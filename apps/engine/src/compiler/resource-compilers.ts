// Which compiler builds which source type, and which types a type bakes into its output.
import type { CompileContext } from './context.ts';
import { compileFlow } from './resources/flow.ts';
import { compileFont } from './resources/font.ts';
import { compileLevel } from './resources/level.ts';
import { compileMaterial } from './resources/material.ts';
import { compileMesh } from './resources/mesh.ts';
import { compilePackage } from './resources/package.ts';
import { compileTexture } from './resources/texture.ts';
import { compileUnit } from './resources/unit.ts';

export interface ResourceCompiler {
  compile(ctx: CompileContext): Uint8Array | Promise<Uint8Array>;
  /** Types whose content this type bakes into its output: a change to one rebuilds the referrer. */
  embeds: readonly string[];
  text: boolean;
}

export const RESOURCE_COMPILERS: Record<string, ResourceCompiler> = {
  level: { compile: compileLevel, embeds: ['unit'], text: true },
  unit: { compile: compileUnit, embeds: [], text: true },
  flow: { compile: compileFlow, embeds: [], text: true },
  material: { compile: compileMaterial, embeds: [], text: true },
  font: { compile: compileFont, embeds: [], text: true },
  package: { compile: compilePackage, embeds: [], text: true },
  glb: { compile: compileMesh, embeds: [], text: false },
  png: { compile: compileTexture, embeds: [], text: false },
};
