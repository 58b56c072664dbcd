// The level viewer's slave script (the post's particle_editor_slave.lua): commands a tool
// calls with `script` messages. Loaded from this file by `cuttle-engine run --script`, never
// received over the network.
import type { SlaveApi, SlaveCommands } from '../../src/slave/slave-script.ts';

export function createSlave(api: SlaveApi): SlaveCommands {
  return {
    /** Points the camera at a unit from above and behind. */
    focus_unit(id) {
      const unit = api.units().find((u) => u.id === id);
      if (!unit) return { found: false, position: null };
      const [x, y, z] = unit.position;
      api.setCamera([x + 4, y + 5, z + 8], [x, y, z]);
      return { found: true, position: unit.position };
    },
    /** Previews a move without touching the source (the tool writes the source to keep it). */
    preview_move(id, x, y, z) {
      if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return { moved: false };
      return { moved: api.moveUnit(String(id), [x, y, z]) };
    },
    unit_count() {
      return api.units().length;
    },
    title() {
      return api.title();
    },
    ping() {
      api.log('ping from the tool');
      return 'pong';
    },
  };
}
