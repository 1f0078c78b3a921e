import { InvalidSelectError } from "../errors.js";

/** `select` as written: `*`, names, and `relation(...)` groups. */
export interface SelectItem {
  readonly name: string;
  readonly position: number;
  /** Present for `relation(a,b)`. */
  readonly children?: readonly SelectItem[];
}

/** "at most 2 levels deep": `a(b(c))` is the deepest selection accepted. */
export const MAX_SELECT_NESTING = 2;

/** Parses `*,name,deviceGroup(id,name)`; spaces around names are ignored. */
export function parseSelect(text: string, parameter = "select"): SelectItem[] {
  let index = 0;
  const fail = (problem: string): never => {
    throw new InvalidSelectError(`Invalid ${parameter} at position ${index}: ${problem}`, text, index, parameter);
  };
  const skipSpaces = () => {
    while (text[index] === " ") index++;
  };
  const parseList = (depth: number): SelectItem[] => {
    const items = [parseItem(depth)];
    skipSpaces();
    while (text[index] === ",") {
      index++;
      items.push(parseItem(depth));
      skipSpaces();
    }
    return items;
  };
  const parseItem = (depth: number): SelectItem => {
    skipSpaces();
    const position = index;
    if (text[index] === "*") {
      index++;
      return { name: "*", position };
    }
    while (index < text.length && /[A-Za-z0-9_]/.test(text[index])) index++;
    const name = text.slice(position, index);
    if (!/^[A-Za-z_]/.test(name)) fail(`expected a field name or '*' but found ${found(text[index])}`);
    skipSpaces();
    if (text[index] !== "(") return { name, position };
    if (depth + 1 > MAX_SELECT_NESTING) fail(`selections nest at most ${MAX_SELECT_NESTING} levels deep`);
    index++;
    const children = parseList(depth + 1);
    if (text[index] !== ")") fail(`expected ',' or ')' but found ${found(text[index])}`);
    index++;
    return { name, position, children };
  };
  const items = parseList(0);
  if (index < text.length) fail(`expected ',' or end of select but found ${found(text[index])}`);
  return items;
}

function found(character: string | undefined): string {
  return character === undefined ? "end of input" : `'${character}'`;
}
