// Small form controls for the scene panels (labelled rows, selects, checkboxes, sliders).

/** Adds a labelled row holding `element` to the panel and returns the element. */
export function control<T extends HTMLElement>(panel: HTMLElement, label: string, element: T): T {
  const row = document.createElement('label');
  row.style.display = 'block';
  row.textContent = `${label} `;
  row.append(element);
  panel.append(row);
  return element;
}

/** A select of `options`, showing `value` (default: the first). */
export function choice(options: readonly string[], value = options[0]): HTMLSelectElement {
  const element = document.createElement('select');
  for (const option of options) element.add(new Option(option, option));
  if (value !== undefined) element.value = value;
  return element;
}

export function checkbox(checked: boolean): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = checked;
  return input;
}

export function slider(min: number, max: number, step: number, value: number): HTMLInputElement {
  const input = document.createElement('input');
  Object.assign(input, { type: 'range', min: String(min), max: String(max), step: String(step), value: String(value) });
  return input;
}
