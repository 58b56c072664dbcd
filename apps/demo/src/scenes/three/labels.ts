// Distance-field labels as one three Mesh (TextLabels, the demo's DejaVu Sans from the gui
// scene): a name over every walker, facing the camera and following it round, and grid markers
// lying on the floor. three has no distance-field text of its own for WebGPURenderer
// (troika-three-text needs WebGLRenderer), so there is nothing of three's to swap in.
import { TextLabels, type TextLabel, type TextLabelId } from '@cuttle/three';
import { loadDemoFont } from '../gui/demo-font.ts';

const NAMES = ['Ada', 'Bo', 'Cleo', 'Dov', 'Eun', 'Femi', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lea', 'Milo', 'Nia', 'Oskar', 'Pia', 'Quinn', 'Rui', 'Sol', 'Tove', 'Uma', 'Vik', 'Wren', 'Yara'];
/** Lying flat, reading along +x: a quarter turn about x. */
const FLAT = { x: -Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 };
const NAME_HEIGHT = 2.05;
const GRID = 12;
const GRID_STEP = 5;

interface MovingLabel extends TextLabel {
  position: { x: number; y: number; z: number };
}

export class SceneLabels {
  readonly mesh: TextLabels;
  readonly #names: MovingLabel[] = [];
  readonly #nameIds: TextLabelId[] = [];

  private constructor(mesh: TextLabels, walkers: number) {
    this.mesh = mesh;
    for (let i = 0; i < walkers; i++) {
      const label: MovingLabel = { text: `${NAMES[i % NAMES.length]!} ${i + 1}`, position: { x: 0, y: NAME_HEIGHT, z: 0 }, size: 0.32, color: 0xfff2c0, align: 'center', anchorY: 'bottom', billboard: true };
      this.#names.push(label);
      this.#nameIds.push(mesh.addLabel(label));
    }
    // Grid markers (A1 ... L12) on the floor, leaving the fluid's tank clear.
    for (let column = 0; column < GRID; column++) {
      for (let row = 0; row < GRID; row++) {
        const x = (column - (GRID - 1) / 2) * GRID_STEP;
        const z = (row - (GRID - 1) / 2) * GRID_STEP;
        if (Math.abs(x) < 7 && Math.abs(z) < 4) continue;
        mesh.addLabel({ text: `${String.fromCharCode(65 + column)}${row + 1}`, position: { x, y: 0.02, z }, size: 0.9, color: 0xd8dce4, opacity: 0.85, align: 'center', anchorY: 'middle', rotation: FLAT });
      }
    }
  }

  /** Labels for `walkers` characters plus the floor grid, in the demo's font. */
  static async create(walkers: number): Promise<SceneLabels> {
    const { font, pages } = await loadDemoFont();
    return new SceneLabels(new TextLabels(font, pages, { capacity: 4096, outline: { width: 1.5, color: 0x101418 } }), walkers);
  }

  get count(): number {
    return this.mesh.labelCount;
  }

  /** Moves each name over its walker (`positions`: x, z per walker); only the names' glyphs are uploaded. */
  follow(positions: Float32Array): void {
    const names = this.#names;
    for (let i = 0; i < names.length; i++) {
      const label = names[i]!;
      label.position.x = positions[i * 2]!;
      label.position.z = positions[i * 2 + 1]!;
      this.mesh.updateLabel(this.#nameIds[i]!, label);
    }
  }

  dispose(): void {
    this.mesh.dispose();
  }
}
