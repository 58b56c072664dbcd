// The real .fnt fixtures (text, XML and binary forms of one two-page font) and a helper that
// returns the GuiError a call throws.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GuiError } from '../src/index.ts';

export const fixture = (name: string): Buffer => readFileSync(join(import.meta.dirname, 'fixtures', name));
export const text = fixture('arial-2pages.fnt').toString('utf8');
export const xml = fixture('arial-2pages.xml.fnt').toString('utf8');
export const binary = new Uint8Array(fixture('arial-2pages.bin.fnt'));

export function errorOf(run: () => unknown): GuiError {
  try {
    run();
  } catch (error) {
    if (error instanceof GuiError) return error;
    throw error;
  }
  throw new Error('expected a GuiError');
}
