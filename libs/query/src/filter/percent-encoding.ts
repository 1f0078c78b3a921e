import { ENCODED_IN_VALUE } from "./characters.js";

const utf8 = new TextEncoder();

/** Percent-encodes only the characters that would otherwise be read as syntax. */
export function encodeValueText(text: string): string {
  let out = "";
  for (const character of text) {
    out += ENCODED_IN_VALUE.has(character) ? percentEncode(character) : character;
  }
  return out;
}

function percentEncode(character: string): string {
  let out = "";
  for (const byte of utf8.encode(character)) out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  return out;
}

/** Decoded text, or the index (within `text`) of the first bad percent sequence. */
export function decodeValueText(text: string): { ok: true; text: string } | { ok: false; index: number } {
  if (!text.includes("%")) return { ok: true, text };
  try {
    return { ok: true, text: decodeURIComponent(text) };
  } catch {
    return { ok: false, index: firstBadEscape(text) };
  }
}

/** Finds the first `%` that starts an invalid escape or an invalid UTF-8 sequence. */
function firstBadEscape(text: string): number {
  let index = text.indexOf("%");
  while (index !== -1) {
    let end = index;
    while (text[end] === "%") end += 3;
    try {
      decodeURIComponent(text.slice(index, end));
    } catch {
      return index;
    }
    index = text.indexOf("%", end);
  }
  return 0;
}
