// Where the crowd's character comes from: a glTF file dropped anywhere on the page (or chosen),
// or the procedural walker; and one line saying what was loaded or why a file was refused.

export interface ModelPickerHandlers {
  onFile(file: File): void;
  onProcedural(): void;
}

export interface ModelPicker {
  /** Shows `text` under the picker; 'error' marks it as an alert. */
  show(text: string, kind: 'info' | 'error'): void;
  /** Removes the page-wide drop listeners (the panel's elements go with the panel). */
  detach(): void;
}

export function attachModelPicker(panel: HTMLElement, handlers: ModelPickerHandlers): ModelPicker {
  const intro = document.createElement('p');
  intro.textContent = 'Drop a skinned, animated .glb (or a .gltf with embedded data: URIs) anywhere on the page, or choose one:';
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.glb,.gltf,model/gltf-binary,model/gltf+json';
  input.name = 'model-file';
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) handlers.onFile(file);
    input.value = '';
  });
  const procedural = document.createElement('button');
  procedural.type = 'button';
  procedural.name = 'procedural';
  procedural.textContent = 'procedural character';
  procedural.addEventListener('click', () => { handlers.onProcedural(); });
  const line = document.createElement('p');
  line.className = 'scene-message';
  line.setAttribute('role', 'status');
  panel.append(intro, input, procedural, line);

  // Without preventDefault on dragover the browser refuses the drop (or opens the file).
  const onDragOver = (event: DragEvent): void => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent): void => {
    event.preventDefault();
    const file = event.dataTransfer?.files[0];
    if (file) handlers.onFile(file);
    else show('The drop held no file: drop a .glb or .gltf file from your file manager.', 'error');
  };
  window.addEventListener('dragenter', onDragOver);
  window.addEventListener('dragover', onDragOver);
  window.addEventListener('drop', onDrop);

  function show(text: string, kind: 'info' | 'error'): void {
    line.textContent = text;
    line.classList.toggle('error', kind === 'error');
    line.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  }

  return {
    show,
    detach() {
      window.removeEventListener('dragenter', onDragOver);
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    },
  };
}
