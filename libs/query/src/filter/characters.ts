import { FILTER_OPERATORS, type FilterOperator } from "./ast.js";

/** Characters that end a value: AND, OR, closing group. */
export const VALUE_TERMINATORS = new Set([",", "|", ")"]);

/** Characters a value may not contain unencoded ("must be percent-encoded"). */
export const RESERVED_IN_VALUE = new Set<string>(["(", ...FILTER_OPERATORS]);

/** Every character the printer percent-encodes inside values. */
export const ENCODED_IN_VALUE = new Set<string>(["%", ...VALUE_TERMINATORS, ...RESERVED_IN_VALUE]);

const OPERATOR_SET = new Set<string>(FILTER_OPERATORS);

export function isOperatorCharacter(character: string): character is FilterOperator {
  return OPERATOR_SET.has(character);
}

export function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

export function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57);
}

/** Position of the first NUL or lone surrogate, or -1: PostgreSQL text cannot hold either. */
export function findInvalidCharacter(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0) return index;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
      else return index;
    } else if (code >= 0xdc00 && code <= 0xdfff) return index;
  }
  return -1;
}

/** How a character is shown in messages: quoted, with control characters spelled out. */
export function describeCharacter(character: string | undefined): string {
  if (character === undefined) return "end of input";
  const code = character.charCodeAt(0);
  if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff)) {
    return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return `'${character}'`;
}
