// A small fetch wrapper for tests that drive the gateway over HTTP.
export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** JSON-encoded unless it is a string, Buffer, FormData or Blob. */
  body?: unknown;
}

export interface HttpClient {
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  put<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Password grant at /oauth/token; returns the access token (throws on failure). */
  login(email: string, password: string, headers?: Record<string, string>): Promise<string>;
}

export function createHttpClient(baseUrl: string): HttpClient {
  async function request(method: string, path: string, options: RequestOptions = {}) {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: RequestInit["body"];
    const b = options.body;
    if (b === undefined) body = undefined;
    else if (typeof b === "string" || b instanceof Uint8Array || b instanceof FormData || b instanceof Blob || b instanceof URLSearchParams) body = b as RequestInit["body"];
    else {
      body = JSON.stringify(b);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  }
  return {
    request,
    get: (p, o) => request("GET", p, o),
    post: (p, o) => request("POST", p, o),
    put: (p, o) => request("PUT", p, o),
    delete: (p, o) => request("DELETE", p, o),
    async login(email, password, headers) {
      const res = await request("POST", "/oauth/token", { body: new URLSearchParams({ grant_type: "password", username: email, password }), headers });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${res.text}`);
      return res.body.access_token as string;
    },
  };
}
