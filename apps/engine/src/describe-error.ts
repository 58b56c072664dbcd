// One line of text for anything thrown, never empty: an Error's message, else its name (a
// DOMException or GPU error can carry an empty message), else what String() makes of it.

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const message = error.message.trim();
    const name = error.name || error.constructor.name || 'Error';
    if (message !== '') return message;
    const cause = error.cause === undefined ? '' : `: ${describeError(error.cause)}`;
    return `${name} with no message${cause}`;
  }
  const text = String(error).trim();
  return text === '' ? `a thrown ${typeof error} with no text` : text;
}
