// The scene's panel: a select per adapter (ours or three's own way) and toggles, each starting
// from the page's query when it names one (?lights=clustered&crowd=skinned-mesh&boxes=set-matrix
// &labels=off&fluid=off), so a link or a screenshot tool can open the scene in any setting.
import { checkbox, choice, control } from '../../controls.ts';

/** Reads the select's chosen key each frame. */
export interface UrlChoice<K extends string> {
  readonly key: K;
  /** The chosen option's label. */
  readonly label: string;
}

function queryValue(param: string): string | null {
  return new URLSearchParams(location.search).get(param);
}

/** A select of `options` (query key: label), starting at ?`param`=key when that key is one of them. */
export function urlChoice<K extends string>(panel: HTMLElement, label: string, param: string, options: Record<K, string>): UrlChoice<K> {
  const keys = Object.keys(options) as K[];
  const asked = queryValue(param);
  const first = keys.find((key) => key === asked) ?? keys[0]!;
  const select = control(panel, label, choice(keys.map((key) => options[key]), options[first]));
  select.name = param;
  return {
    get key() {
      return keys.find((key) => options[key] === select.value) ?? first;
    },
    get label() {
      return select.value;
    },
  };
}

/** A checkbox, on unless ?`param`=off (or 0, false). */
export function urlToggle(panel: HTMLElement, label: string, param: string): HTMLInputElement {
  const asked = queryValue(param);
  const input = control(panel, label, checkbox(asked === null || !['off', '0', 'false'].includes(asked)));
  input.name = param;
  return input;
}
