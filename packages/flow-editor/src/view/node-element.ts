// One node as DOM: a focusable box with its title, a row per pin (coloured dots, names, inline
// constants) and, when the validator has something to say, a marker with the messages shown on
// hover and focus, and a breakpoint dot in the title's gutter on nodes that run. Built once per node and rebuilt only when its record, pins or issues change.
import type { FlowIssue } from '@cuttle/flow';
import type { FlowEditorNode, FlowNodePins, FlowPin } from '../api.ts';
import { nodeHeight } from './geometry.ts';

/** What a node element was last drawn from; compared by identity to skip unchanged nodes. */
export interface NodeDrawn {
  element: HTMLElement;
  record: FlowEditorNode;
  pins: FlowNodePins | undefined;
  issuesKey: string;
  linkedKey: string;
}

function constantText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '…';
}

function pinElement(pin: FlowPin, side: 'in' | 'out', linked: boolean, flagged: boolean): HTMLElement {
  const dot = document.createElement('span');
  dot.className = `cfe-pin cfe-pin-${side}${linked ? ' cfe-linked' : ''}${flagged ? ' cfe-pin-issue' : ''}`;
  dot.style.setProperty('--c', pin.colour);
  dot.dataset.pin = pin.name;
  dot.dataset.kind = pin.kind;
  dot.dataset.dir = side === 'in' ? 'input' : 'output';
  dot.title = `${pin.name}: ${pin.kind === 'event' ? 'event' : (pin.valueType ?? 'unknown')}`;
  return dot;
}

/** Which pins of a node have links, as a key (to notice when the dots' fill changes). */
export function linkedPinsKey(linked: ReadonlySet<string>): string {
  return [...linked].sort().join(',');
}

export function issuesKey(issues: readonly FlowIssue[]): string {
  return issues.length === 0 ? '' : issues.map((i) => `${i.code}:${i.socket}:${i.message}`).join('\n');
}

/** Fills `element` with the node's contents (its position is set apart, by placeNode). */
export function drawNode(element: HTMLElement, node: FlowEditorNode, pins: FlowNodePins | undefined, issues: readonly FlowIssue[], linked: ReadonlySet<string>): void {
  const slash = node.type.indexOf('/');
  const category = slash < 0 ? '' : node.type.slice(0, slash);
  const name = node.type.slice(slash + 1).replace(/_/g, ' ');
  element.className = `cfe-node cfe-cat-${category}${issues.length > 0 ? ' cfe-has-issues' : ''}`;
  element.dataset.node = node.id;
  element.tabIndex = 0;
  element.setAttribute('role', 'group');
  element.style.height = `${nodeHeight(pins)}px`;
  const variable = node.settings.variable;
  const label = `${name}${typeof variable === 'string' ? ` ${variable}` : ''}`;
  element.setAttribute('aria-label', `${node.type} node ${node.id}${issues.length > 0 ? `, ${issues.length} issue${issues.length > 1 ? 's' : ''}` : ''}`);
  element.replaceChildren();
  const title = document.createElement('div');
  title.className = 'cfe-title';
  const inputs = pins?.inputs ?? [];
  const outputs = pins?.outputs ?? [];
  if (inputs.some((p) => p.kind === 'event') || outputs.some((p) => p.kind === 'event')) {
    // The breakpoint gutter: only nodes that run can hold one (pure nodes run inside their readers).
    const dot = document.createElement('span');
    dot.className = 'cfe-bp';
    dot.title = 'Breakpoint (F9)';
    dot.setAttribute('aria-hidden', 'true');
    title.append(dot);
  }
  title.append(label);
  const small = document.createElement('small');
  small.textContent = node.id;
  title.append(small);
  element.append(title);
  const flagged = new Set(issues.map((i) => i.socket).filter((s) => s !== ''));
  const rows = Math.max(1, inputs.length, outputs.length);
  for (let r = 0; r < rows; r++) {
    const row = document.createElement('div');
    row.className = 'cfe-row';
    const input = inputs[r];
    if (input !== undefined) {
      row.append(pinElement(input, 'in', linked.has(`in:${input.kind}:${input.name}`), flagged.has(input.name)));
      const text = document.createElement('span');
      text.className = 'cfe-in-label';
      text.textContent = input.name;
      const constant = input.kind === 'data' ? node.inputs[input.name] : undefined;
      if (constant !== undefined) {
        const c = document.createElement('span');
        c.className = 'cfe-const';
        c.textContent = constantText(constant);
        text.append(c);
      }
      row.append(text);
    }
    const output = outputs[r];
    if (output !== undefined) {
      const text = document.createElement('span');
      text.className = 'cfe-out-label';
      text.textContent = output.name;
      row.append(text, pinElement(output, 'out', linked.has(`out:${output.kind}:${output.name}`), flagged.has(output.name)));
    }
    element.append(row);
  }
  if (issues.length > 0) {
    const marker = document.createElement('span');
    marker.className = 'cfe-issue';
    marker.textContent = '!';
    marker.setAttribute('aria-hidden', 'true');
    const text = document.createElement('div');
    text.className = 'cfe-issue-text';
    text.id = `cfe-issue-${node.id}`;
    text.setAttribute('role', 'note');
    text.textContent = issues.map((i) => i.message).join('\n');
    element.append(marker, text);
    element.setAttribute('aria-describedby', text.id);
  } else {
    element.removeAttribute('aria-describedby');
  }
}

export function placeNode(element: HTMLElement, node: FlowEditorNode): void {
  element.style.transform = `translate(${node.x}px,${node.y}px)`;
}
