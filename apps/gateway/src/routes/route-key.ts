/** One key per REST operation: method plus path template, parameter names and a trailing slash ignored. */
export function routeKey(method: string, path: string): string {
  const template = path.replace(/\{[^}]+\}/g, "{}");
  return `${method} ${template.length > 1 ? template.replace(/\/+$/, "") : template}`;
}
