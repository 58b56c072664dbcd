// Two people edit the same level; @cuttle/tools-merge merges their SJSON 3-way, field by field,
// and the panel shows the merge as the BitSquid post's visual diff: added, removed, changed and
// conflicting fields side by side, each conflict with a button per side. The map draws the
// merged level (with the picks written in) and redraws on every merge and pick.
import type { SceneDefinition } from '../../scene-api.ts';
import { LevelMap } from './level-map.ts';
import { BASE_LEVEL } from './level.ts';
import { MergePanel } from './merge-panel.ts';
import { MergeSession } from './merge-session.ts';
import { PANEL_CSS } from './panel-css.ts';

/** The diff table needs room: the panel is wider in this scene, and the shell's layout is restored on leaving. */
const PANEL_COLUMNS = '1fr minmax(20rem, 54%)';

export const scene: SceneDefinition = {
  id: 'tools-merge',
  title: 'Merge: two people, one level',
  package: '@cuttle/tools-merge',
  description: 'Two designers edit the same SJSON level: the structural 3-way merge combines a moved crate, a new crate and a recoloured lamp, shows every field side by side, and lets you pick a side for the one real conflict. The map draws the merged level.',
  create({ device, format, canvas, panel }) {
    const session = new MergeSession(BASE_LEVEL);
    const map = new LevelMap(device, format);
    const mergePanel = new MergePanel(session, () => { map.update(session.view); });
    const style = document.createElement('style');
    style.textContent = PANEL_CSS;
    const layout = canvas.parentElement;
    const columns = layout?.style.gridTemplateColumns ?? '';
    if (layout) layout.style.gridTemplateColumns = PANEL_COLUMNS;
    panel.append(style, mergePanel.element);

    return {
      frame({ encoder, target, width, height, time }) {
        map.draw(encoder, target, width, height, time);
      },
      stats: () => {
        const view = session.view;
        const changed = view.rows.length + view.groups.length;
        return {
          'fields changed': String(changed),
          conflicts: `${view.open} open`,
          units: String(view.units.length),
        };
      },
      destroy() {
        mergePanel.destroy();
        style.remove();
        if (layout) layout.style.gridTemplateColumns = columns;
        map.destroy();
      },
    };
  },
};
